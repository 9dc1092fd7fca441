"""What the review pane's action mixins rely on: the change request as a write subject, the
writes runner, and the pane's contract (`space`, `change_request`, `reload`,
`current_page_id`), which the review pane itself provides."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, TypeVar

from textual.screen import Screen

from docdeck.gateway import Client
from docdeck.tui.kit.dialogs.request import RequestDialog
from docdeck.tui.kit.in_flight import Said, Write, Writes
from docdeck.tui.kit.workers import client_of
from docdeck.tui.kit.write_runner import WriteRunner
from docdeck.tui.review.change_request_subject import ChangeRequestSubject

if TYPE_CHECKING:
    from docdeck.models import ChangeRequest, Space

__all__ = ["ReviewActionsBase"]

T = TypeVar("T")


class ReviewActionsBase(Screen[None]):
    if TYPE_CHECKING:
        space: Space
        change_request: ChangeRequest

        def reload(self) -> None: ...

        def current_page_id(self) -> str | None: ...

    _cr_subject: ChangeRequestSubject | None = None
    show_next: str | None = None
    """The page the pane's next load shows (`ReviewLoading.show_next`)."""

    def on_mount(self) -> None:
        self.cr_runner  # noqa: B018 - mounts the runner before the first write

    @property
    def client(self) -> Client:
        return client_of(self)

    @property
    def cr_runner(self) -> WriteRunner:
        runners = self.query(WriteRunner)
        if runners:
            return runners.first()
        runner = WriteRunner()
        self.mount(runner)
        return runner

    @property
    def cr_writes(self) -> Writes:
        return self.cr_runner.writes

    def run_cr_worker(self, work: Coroutine[Any, Any, Any], name: str, group: str) -> None:
        """A read or an editor session of these actions: exclusive per group, a failure
        reported once by the runner (not by the pane's own handler as well)."""
        self.cr_runner.run_worker(work, name=name, group=group, exclusive=True, exit_on_error=False)

    @property
    def cr_subject(self) -> ChangeRequestSubject:
        """One subject per pane, following the latest fetched change request: a write still
        running after a reload is still the same write."""
        if self._cr_subject is None:
            self._cr_subject = ChangeRequestSubject(self.change_request)
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

    async def _reload_after(self) -> None:
        self.reload()

    def open_cr_write(self, dialog: RequestDialog[T], action: str) -> None:
        """A dialog whose request is a write on the change request; the pane reloads after it
        (success or not), so it shows what the server has."""
        writes = self.cr_writes
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
        if not self.cr_writes.start(write):
            self.app.bell()
