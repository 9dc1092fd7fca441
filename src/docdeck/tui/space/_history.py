"""The space screen's history: revisions newest first (following `parents`), what each
changed, and the space as it was at one of them (a screen of its own)."""

from __future__ import annotations

from textual import on

from docdeck.models import Revision, Space
from docdeck.tui.content.revision_cache import content_cache
from docdeck.tui.kit.errors import describe
from docdeck.tui.space._history_view import HistoryView
from docdeck.tui.space._reading import SpaceReading

__all__ = ["HISTORY_STEP", "SpaceHistory"]

HISTORY_STEP = 10
"""Revisions read at a time while walking `parents` (each read is a whole revision)."""


class SpaceHistory(SpaceReading):
    space: Space
    _history_next: str | None = None

    # ----- history ---------------------------------------------------------------------------

    @property
    def history_view(self) -> HistoryView:
        return self.query_one(HistoryView)

    def enter_history(self) -> None:
        view = self.history_view
        view.table.focus()
        if not view.loaded:
            self._history_next = None
            self.load_history()

    def load_history(self) -> None:
        self.run_worker(
            self._load_history(),
            name="Reading the space's revisions",
            group="history",
            exclusive=True,
            exit_on_error=False,
        )

    async def _load_history(self) -> None:
        view = self.history_view
        cache = content_cache(self)
        client = self.content.client
        for _ in range(HISTORY_STEP):
            if not view.revisions:
                revision = await self.content.revision()
            elif self._history_next is not None:
                content = cache.get(client, self.space.id, self._history_next)
                revision = await content.revision()
            else:
                view.complete = True
                return
            view.add_revision(revision)
            self._history_next = revision.parents[0] if revision.parents else None
        view.complete = self._history_next is None

    @on(HistoryView.RevisionHighlighted)
    def _revision_highlighted(self, message: HistoryView.RevisionHighlighted) -> None:
        view = self.history_view
        revision = message.revision
        if revision is view.revisions[-1] and not view.complete:
            self.load_history()
        self.run_worker(
            self._load_changes(revision),
            name=f"Reading what revision {revision.id} changed",
            group="changes",
            exclusive=True,
            exit_on_error=False,
        )

    async def _load_changes(self, revision: Revision) -> None:
        content = content_cache(self).get(self.content.client, self.space.id, revision.id)
        try:
            changes = await content.changes()
        except Exception as error:
            problem = describe(error, "Reading what the revision changed")
            self.history_view.show_changes(
                revision,
                None,
                f"{problem.title}: {problem.brief or problem.message}{problem.retry_note}",
            )
            return
        self.history_view.show_changes(revision, changes)

    @on(HistoryView.RevisionChosen)
    def _revision_chosen(self, message: HistoryView.RevisionChosen) -> None:
        revision = message.revision
        content = content_cache(self).get(self.content.client, self.space.id, revision.id)
        changes = content.cached("changes")
        page_id = self.location.page_id if self.location else None
        for change in getattr(changes, "changes", []):
            changed = getattr(change, "page", None)
            if changed is not None and getattr(change, "type", "") != "page_deleted":
                page_id = changed.id
                break
        self.open_revision(revision.id, page_id)

    def open_revision(self, revision_id: str, page_id: str | None) -> None:
        """The space as it was at a revision, on a screen of its own (Escape comes back)."""
