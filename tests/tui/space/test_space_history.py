"""History: revisions newest first, what each changed, and a page as it was."""

from __future__ import annotations

from docdeck.tui.space import HistoryView, SpaceScreen, merged_name
from tui.helpers import AppFactory, screen_lines
from tui.space.helpers import open_api_reference, preview_text, settle


async def test_history_changes_and_a_page_at_a_revision(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_api_reference(pilot)
        await pilot.press("4")
        await settle(pilot)
        view = screen.query_one(HistoryView)
        # Newest first: what came with the demo's change requests (a merge of one, an edit
        # on main that outdates others), then a rename, a limit, the SDK pages, the import,
        # and the space's first (empty) one.
        later = view.revisions[:-5]
        merged = [r for r in later if r.type == "merge"]
        assert merged and merged_name(merged[0]).startswith("change request #1")
        assert view.revisions[-1].parents == []
        dates = [r.createdAt for r in view.revisions]
        assert dates == sorted(dates, reverse=True)
        for _ in later:
            await pilot.press("j")
        await settle(pilot)
        assert "page edited: Glossary of terms (title)" in preview_text(pilot)

        await pilot.press("j")
        await settle(pilot)
        assert "page edited: Rate limits (body)" in preview_text(pilot)
        older = view.revisions[len(later) + 2]  # before the limit was raised

        await pilot.press("j")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        at_revision = app.screen
        assert isinstance(at_revision, SpaceScreen) and at_revision is not screen
        assert at_revision.revision_id == older.id
        assert f"@ revision {older.id}" in screen_lines(pilot)[0]
        page = at_revision.current_page
        assert page is not None and page.title == "SDKs"  # the first page that revision added
        assert "Glossary of terms" not in preview_text(pilot)  # renamed later

        await pilot.press("f")
        await pilot.press(*"Rate")
        await pilot.press("enter")
        await settle(pilot)
        assert "600 requests" in preview_text(pilot) or "600 requests" in (
            at_revision.preview.markdown or ""
        )

        await pilot.press("escape", "escape")
        await settle(pilot)
        assert app.screen is screen
        assert screen.mode == "history"


async def test_a_merge_revision_names_its_change_request_on_screen(make_app: AppFactory) -> None:
    """The demo's merge of change request #1 (`mergedFrom`) is named in the list and in the
    details of the highlighted revision, at 80 columns too."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_api_reference(pilot)
        await pilot.press("4")
        await settle(pilot)
        view = screen.query_one(HistoryView)
        index = next(i for i, r in enumerate(view.revisions) if r.type == "merge")
        for _ in range(index):
            await pilot.press("j")
        await settle(pilot)
        text = " ".join(preview_text(pilot).split())  # the details pane wraps its lines
        assert "merged change request #1 “Tidy the" in text and "errors page”" in text, text
        assert "merge change req" in text  # the list's column, cut at 80 columns
