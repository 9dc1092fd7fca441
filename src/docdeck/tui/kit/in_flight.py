"""Writes in flight: one mechanism for every screen that changes something on the server.

A write (create, rename, move, delete, a role...) is sent once and followed to
its end, whatever the user does meanwhile:

- its subject (a tree entry) is marked busy while it runs, and the tree shows a
  mark on it (`Entry.busy`);
- the same action on the same subject is ignored while one runs: a key pressed
  twice on a slow link sends one request, not two;
- it runs in a worker of the screen, not of its dialog, so closing the dialog
  (Escape) does not cancel a request the server may already have applied; the
  dialog is read-only while it runs;
- when it ends, the answer (the resource as the server stored it) is put in
  the model if it succeeded, even after the dialog was closed; the subject is
  read again from the server if it failed or its dialog was abandoned, so the
  screen shows what the server has either way.

A dialog still open when its write fails shows the reason inside and becomes
editable again; otherwise the failure is one notification.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from textual.worker import Worker, WorkerState

if TYPE_CHECKING:
    from textual.widget import Widget

__all__ = ["Subject", "Write", "WriteDialog", "Writes"]


class Subject(Protocol):
    """What a write is about; `busy` counts the writes running on it (the tree shows a mark)."""

    busy: int

    @property
    def title(self) -> str: ...


class WriteDialog(Protocol):
    """A dialog following a write: closed on success, shown the reason on failure."""

    def write_succeeded(self) -> None: ...

    def write_failed(self, error: BaseException) -> None: ...


@dataclass(eq=False)
class Write:
    subject: Subject
    action: str
    """The action's name; one write per (subject, action) runs at a time."""
    doing: str
    """What the request does, as a notification title starts: "Renaming “Design System”"."""
    request: Callable[[], Awaitable[Any]]
    applied: Callable[[Any], None] | None = None
    """Puts the server's answer in the model (runs even when the dialog was closed)."""
    reread: Callable[[], Awaitable[None]] | None = None
    """Reads the subject again after a failure or an abandoned dialog."""
    dialog: WriteDialog | None = field(default=None, repr=False)
    """The dialog still waiting for the answer; None once closed (or for a key's write)."""
    worker: Worker[Any] | None = field(default=None, repr=False)
    abandoned: bool = False
    """Its dialog was closed while it ran: whatever the outcome, the subject is read again."""


class Writes:
    """The writes running on one screen (its workers carry them)."""

    def __init__(self, owner: Widget, changed: Callable[[Subject], None]) -> None:
        self._owner = owner
        self._changed = changed
        """Called when a subject becomes busy or idle (to redraw its mark)."""
        self._running: dict[tuple[int, str], Write] = {}
        self._by_worker: dict[Worker[Any], Write] = {}

    def running(self, subject: Subject, action: str) -> bool:
        return (id(subject), action) in self._running

    def start(self, write: Write) -> bool:
        """Send the write unless the same action on the same subject is still running."""
        key = (id(write.subject), write.action)
        if key in self._running:
            return False
        self._running[key] = write
        write.subject.busy += 1
        self._changed(write.subject)
        write.worker = self._owner.run_worker(
            write.request(),
            name=write.doing,
            group=f"write-{key[0]}-{write.action}",
            exit_on_error=False,
        )
        self._by_worker[write.worker] = write
        return True

    def abandon(self, write: Write) -> None:
        """Its dialog was closed: the request runs on; its end is reported as a notification."""
        write.dialog = None
        write.abandoned = True

    def handle(self, event: Worker.StateChanged) -> bool:
        """Follow a worker's end; True when the worker was one of these writes."""
        write = self._by_worker.get(event.worker)
        if write is None:
            return False
        if event.state not in (WorkerState.SUCCESS, WorkerState.ERROR, WorkerState.CANCELLED):
            return True
        del self._by_worker[event.worker]
        self._running.pop((id(write.subject), write.action), None)
        write.subject.busy = max(0, write.subject.busy - 1)
        self._changed(write.subject)
        if event.state is WorkerState.SUCCESS:
            if write.applied is not None:
                write.applied(event.worker.result)
            if write.dialog is not None:
                write.dialog.write_succeeded()
            if write.abandoned:
                self._reread(write)
            return True
        error = event.worker.error
        if write.dialog is not None and error is not None:
            write.dialog.write_failed(error)
        elif error is not None:
            report = getattr(self._owner.app, "report_error", None)
            if report is not None:
                report(error, write.doing)
        self._reread(write)
        return True

    def _reread(self, write: Write) -> None:
        if write.reread is None:
            return
        self._owner.run_worker(
            write.reread(),
            name=f"Reading “{write.subject.title}” again",
            group=f"reread-{id(write.subject)}",
            exclusive=True,
            exit_on_error=False,
        )
