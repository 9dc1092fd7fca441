"""Writes in flight: one mechanism for every screen that changes something on the server.

A write (create, rename, move, delete, a role...) is sent once and followed to
its end, whatever the user does meanwhile:

- its subject (a tree entry) is marked busy while it runs, and the tree shows a
  mark on it (`Entry.busy`);
- the same action on the same subject is ignored while one runs: a key pressed
  twice on a slow link sends one request, not two;
- it runs in a worker of the app, not of its dialog or its screen, so closing
  the dialog or leaving the screen (Escape) does not cancel a request the server
  may already have applied; the dialog is read-only while it runs;
- when it ends, the answer (the resource as the server stored it) is put in
  the model if it succeeded, even after the dialog was closed; the subject is
  read again from the server if it failed or its dialog was abandoned, so the
  screen shows what the server has either way;
- when it ends after its screen was closed, the user is told how it ended (a
  notification) and the screen in front is told (`WriteLanded`), so a list it
  shows can read what the write changed.

A dialog still open when its write fails shows the reason inside and becomes
editable again; otherwise the failure is one notification.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from textual.message import Message
from textual.notifications import SeverityLevel
from textual.worker import Worker

from docdeck.tui.kit.workers import start

if TYPE_CHECKING:
    from textual.widget import Widget

__all__ = [
    "WRITE_GROUP",
    "Said",
    "Subject",
    "Write",
    "WriteDialog",
    "WriteLanded",
    "Writes",
    "running_writes",
]

Said = tuple[str, str, SeverityLevel]
"""A notification: title, message, severity."""


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
    said: Callable[[Any], Said] | None = None
    """How a success is told once its screen is closed (default: "<doing>: done")."""
    worker: Worker[Any] | None = field(default=None, repr=False)
    abandoned: bool = False
    """Its dialog was closed while it ran: whatever the outcome, the subject is read again."""


class WriteLanded(Message, bubble=False):
    """Sent to the screen in front when a write ends after the screen that sent it was
    closed: what it shows may have changed (a list row, a status)."""

    def __init__(self, subject: Subject, action: str, error: BaseException | None) -> None:
        super().__init__()
        self.subject = subject
        self.action = action
        self.error = error


WRITE_GROUP = "write-"
"""The worker group's prefix every write runs under (one group per subject and action)."""


def running_writes(app: Any) -> list[str]:
    """What the writes still on their way are doing ("Posting the comment"), in order."""
    return [
        worker.name
        for worker in app.workers
        if worker.group.startswith(WRITE_GROUP) and not worker.is_finished
    ]


class Writes:
    """The writes one screen sent; they run on as workers of the app (see the module)."""

    def __init__(self, owner: Widget, changed: Callable[[Subject], None]) -> None:
        self._owner = owner
        self._changed = changed
        """Called when a subject becomes busy or idle (to redraw its mark)."""
        self._running: dict[tuple[int, str], Write] = {}

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
        # exit_on_error: the request's own failure is caught and told; only a defect in
        # what handles its end gets past, and that ends the app as any defect does.
        write.worker = self._owner.app.run_worker(
            partial(self._carry, write),
            name=write.doing,
            group=f"{WRITE_GROUP}{key[0]}-{write.action}",
        )
        return True

    def abandon(self, write: Write) -> None:
        """Its dialog was closed: the request runs on; its end is reported as a notification."""
        write.dialog = None
        write.abandoned = True

    async def _carry(self, write: Write) -> None:
        try:
            result = await write.request()
        except Exception as error:  # a refusal, a lost connection: told, never raised
            self._ended(write, None, error)
        else:
            self._ended(write, result, None)

    def _shown(self) -> bool:
        """The screen that sent the writes is still open (in the stack, maybe covered)."""
        owner = self._owner
        try:
            return owner.is_attached and owner.screen in owner.app.screen_stack
        except Exception:  # removed with its screen
            return False

    def _ended(self, write: Write, result: Any, error: BaseException | None) -> None:
        self._running.pop((id(write.subject), write.action), None)
        write.subject.busy = max(0, write.subject.busy - 1)
        if not self._shown():
            self._landed(write, result, error)
            return
        self._changed(write.subject)
        if error is None:
            if write.applied is not None:
                write.applied(result)
            if write.dialog is not None:
                write.dialog.write_succeeded()
            if write.abandoned:
                self._reread(write)
            return
        if write.dialog is not None:
            write.dialog.write_failed(error)
        else:
            self._report(write, error)
        self._reread(write)

    def _landed(self, write: Write, result: Any, error: BaseException | None) -> None:
        """The write ended after its screen was closed: tell the user, and the screen in
        front, which may show what it changed."""
        app = self._owner.app
        if not app.is_running or not app.screen_stack:
            return  # quitting
        if error is not None:
            self._report(write, error)
        else:
            title, message, severity = (
                write.said(result)
                if write.said is not None
                else ("Done", f"{write.doing}: done.", "information")
            )
            app.notify(message, title=title, severity=severity, timeout=8)
        app.screen.post_message(WriteLanded(write.subject, write.action, error))

    def _report(self, write: Write, error: BaseException) -> None:
        report = getattr(self._owner.app, "report_error", None)
        if report is not None:
            report(error, write.doing)

    def _reread(self, write: Write) -> None:
        again = write.reread
        if again is None:
            return

        start(
            self._owner,
            again,
            name=f"Reading “{write.subject.title}” again",
            group=f"reread-{id(write.subject)}",
            exclusive=True,
        )
