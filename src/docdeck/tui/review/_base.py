"""The review pane's writes on its change request: an invisible part of the pane
(`WriteRunner`) that holds them, what each action checks first (the role, an open or draft
change request), and the pane it acts for (`ReviewSource`), which the pane itself is.

The pane composes two of these parts: `ChangeRequestActions` (review, merge, the change
request itself) and `PageAuthoring` (its pages); both follow the one subject of the pane,
so a write still running after a reload is still the same write."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from docdeck.gateway import Client
from docdeck.tui.kit.in_flight import Said, Write, Writes
from docdeck.tui.kit.workers import client_of
from docdeck.tui.kit.write_runner import WriteRunner
from docdeck.tui.review.change_request_subject import ChangeRequestSubject

if TYPE_CHECKING:
    from docdeck.models import ChangeRequest, Space
    from docdeck.tui.kit.dialogs.request import RequestDialog
    from docdeck.tui.review.changes import ReviewChanges

__all__ = ["ChangeRequestWrites", "ReviewSource"]

T = TypeVar("T")


class ReviewSource(Protocol):
    """What the pane's parts read from the pane: the change request as last read (a reload
    replaces it, so a part asks at each action) and the page shown."""

    space: Space
    change_request: ChangeRequest
    changes: ReviewChanges | None
    show_next: str | None
    """The page the pane's next load shows (the page just edited)."""

    def reload(self) -> None: ...

    def current_page_id(self) -> str | None: ...


class ChangeRequestWrites(WriteRunner):
    """Writes on the pane's change request, and the reads its actions run (failures
    reported once, here)."""

    def __init__(self, source: ReviewSource, subject: ChangeRequestSubject) -> None:
        super().__init__()
        self.source = source
        self._cr_subject = subject

    @property
    def space(self) -> Space:
        return self.source.space

    @property
    def change_request(self) -> ChangeRequest:
        return self.source.change_request

    def reload(self) -> None:
        self.source.reload()

    def current_page_id(self) -> str | None:
        return self.source.current_page_id()

    @property
    def client(self) -> Client:
        return client_of(self)

    @property
    def cr_subject(self) -> ChangeRequestSubject:
        """The pane's one subject, following the latest fetched change request."""
        self._cr_subject.change_request = self.change_request
        return self._cr_subject

    @property
    def cr_ref(self) -> tuple[str, int]:
        """What the gateway needs to address the change request."""
        return self.space.id, self.change_request.number

    def allowed(self, permission: str, doing: str) -> bool:
        """Say why not (and do nothing) when the space's `permissions` refuse it."""
        if getattr(self.space.permissions, permission, False):
            return True
        role = {"edit": "edit", "merge": "edit", "review": "review"}.get(permission, permission)
        self.notify(
            f"Your role on “{self.space.title}” does not allow {doing}: it needs the "
            f"{role} role or above. Ask a space or organization admin.",
            title="Not allowed",
            severity="warning",
            timeout=8,
        )
        return False

    def writable(self, doing: str) -> bool:
        """Authoring and changing the change request need it open or draft."""
        status = self.change_request.status
        if status in ("open", "draft"):
            return True
        self.notify(
            f"#{self.change_request.number} is {status}: {doing} needs an open or draft "
            "change request.",
            title=f"#{self.change_request.number} is {status}",
            severity="warning",
        )
        return False

    def may_write(self, permission: str, doing: str) -> bool:
        """What a write on the change request checks first: the caller's role, then that
        the change request is open or draft (each says why not)."""
        return self.allowed(permission, doing) and self.writable(doing)

    async def _reload_after(self) -> None:
        self.reload()

    def open_cr_write(self, dialog: RequestDialog[T], action: str) -> None:
        """A dialog whose request is a write on the change request; the pane reloads after it
        (success or not), so it shows what the server has."""
        writes: Writes = self.writes
        if writes.running(self.cr_subject, action):
            self.app.bell()
            return
        self.app.push_screen(
            dialog.follow(
                writes,
                self.cr_subject,
                action,
                applied=lambda _: self.reload(),
                reread=self._reload_after,
            )
        )

    def send_cr_write(
        self,
        action: str,
        doing: str,
        request: Callable[[], Awaitable[Any]],
        *,
        applied: Callable[[Any], None] | None = None,
        said: Callable[[Any], Said] | None = None,
    ) -> None:
        """A write a key does at once; a second press while it runs is ignored. `said` tells
        its result when it ends after the pane was closed."""

        def done(result: Any) -> None:
            if applied is not None:
                applied(result)
            self.reload()

        write = Write(
            self.cr_subject,
            action,
            doing,
            request,
            applied=done,
            reread=self._reload_after,
            said=said,
        )
        if not self.writes.start(write):
            self.app.bell()
