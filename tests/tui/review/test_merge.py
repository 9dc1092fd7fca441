"""Update from main and merge, with the readiness checklist and the conflict view; every
result is read from the answer's `result`."""

from __future__ import annotations

from textual.widgets import Button, OptionList

from docdeck.gateway import Client
from docdeck.tui.review import ConflictScreen, MergeScreen
from tui.helpers import AppFactory, screen_lines, wait_for_workers, wait_until
from tui.review.actions_helpers import open_host, page_id, reloaded

CONFLICTING_CR_TEXT = "Errors come back as JSON with a stable `code`"


def _text(pilot) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(screen_lines(pilot))


async def test_update_from_main_on_its_own(make_app: AppFactory) -> None:
    """#2 is outdated and merges cleanly: u updates it and says so."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        host = await open_host(pilot, 2)
        assert host.change_request.outdated
        before = host.reloads
        await pilot.press("u")
        await reloaded(pilot, host, before)
        assert not host.change_request.outdated
        notes = [n.message for n in app._notifications]
        assert any("now has main's latest changes" in note for note in notes)


async def test_a_reader_sees_merge_disabled_with_the_reason(
    make_app: AppFactory, token_for
) -> None:  # type: ignore[no-untyped-def]
    app = make_app(token_for("kofi@northwind.dev"))
    async with app.run_test(size=(120, 40)) as pilot:
        await open_host(pilot, 4)
        await pilot.press("m")
        await wait_for_workers(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, MergeScreen)
        await wait_until(pilot, lambda: screen.state is not None, "the checklist is shown")
        assert screen.query_one("#merge-ok", Button).disabled
        text = _text(pilot)
        assert "Merge is disabled: Your role on this space does not allow merging" in text
        assert "Approved by Inês Duarte" in text and "Changes requested by Dana" in text
        await pilot.press("m")
        await wait_for_workers(pilot)
        client: Client = app.client  # type: ignore[attr-defined]
        assert (await client.change_requests.get(screen.space.id, 4)).status == "open"


async def test_a_draft_cannot_merge_until_it_is_ready(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_host(pilot, 5)
        await pilot.press("m")
        await wait_for_workers(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, MergeScreen)
        await wait_until(pilot, lambda: screen.state is not None, "the checklist is shown")
        assert screen.query_one("#merge-ok", Button).disabled
        assert "mark it ready (D) first" in _text(pilot)


async def test_merge_of_an_up_to_date_change_request(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        host = await open_host(pilot, 4)
        await pilot.press("m")
        await wait_for_workers(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, MergeScreen)
        await wait_until(pilot, lambda: screen.state is not None, "the checklist is shown")
        assert not screen.query_one("#merge-ok", Button).disabled
        before = host.reloads
        await pilot.press("m")
        await reloaded(pilot, host, before)
        assert pilot.app.screen is host
        assert host.change_request.status == "merged"
        assert any("is merged into main" in n.message for n in app._notifications)


async def test_a_conflicting_change_request_is_resolved_and_merged(make_app: AppFactory) -> None:
    """#3 edits the paragraph #1 changed on main: merging updates first, the update answers
    `conflicts`, the conflict view opens; keeping the change request's side and merging
    leaves main with that paragraph and no markers."""
    app = make_app()
    async with app.run_test(size=(140, 45)) as pilot:
        host = await open_host(pilot, 3)
        client: Client = app.client  # type: ignore[attr-defined]
        await pilot.press("m")
        await wait_for_workers(pilot)
        merge = pilot.app.screen
        assert isinstance(merge, MergeScreen)
        await wait_until(pilot, lambda: merge.state is not None, "the checklist is shown")
        assert "Outdated" in _text(pilot)
        await pilot.press("m")
        await wait_until(
            pilot, lambda: isinstance(pilot.app.screen, ConflictScreen), "the conflict view"
        )
        conflicts = pilot.app.screen
        assert isinstance(conflicts, ConflictScreen)
        await wait_for_workers(pilot)
        await wait_until(pilot, lambda: bool(conflicts.entries), "the conflicts are listed")
        assert any("Update found conflicts" in n.title for n in app._notifications)
        text = _text(pilot)
        assert "“Errors” conflict 1 of 1: unresolved" in text
        assert CONFLICTING_CR_TEXT in text  # the change request's side, beside main's
        [(page, conflict)] = conflicts.entries
        assert conflict.main.strip() and conflict.main != conflict.change
        # merging with a conflict unresolved is refused in place
        await pilot.press("m")
        await pilot.pause()
        assert "Resolve every conflict of a page first" in _text(pilot)
        await pilot.press("2")
        assert "conflict 1 of 1: keeps the change request" in _text(pilot)
        before = host.reloads
        await pilot.press("m")
        await reloaded(pilot, host, before)
        assert pilot.app.screen is host
        merged = await client.change_requests.get(host.space.id, 3)
        assert merged.status == "merged"
        errors = await client.content.page(host.space.id, page.page_id, format="markdown")
        markdown = getattr(errors, "markdown", "") or ""
        assert CONFLICTING_CR_TEXT in markdown and "<<<<<<<" not in markdown


async def test_conflicts_edited_in_the_editor(make_app: AppFactory, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """u on #3 writes markers and opens the view; e resolves in $EDITOR; s saves it as
    one authoring revision, and the page no longer holds markers."""
    from tui.review.editor import use_test_editor

    use_test_editor(
        monkeypatch,
        "<<<<<<< main\\n=>Both sides agree now.\\n<<<<<<< main\\n",
    )
    app = make_app()
    async with app.run_test(size=(140, 45)) as pilot:
        host = await open_host(pilot, 3)
        client: Client = app.client  # type: ignore[attr-defined]
        await pilot.press("u")
        await wait_until(
            pilot, lambda: isinstance(pilot.app.screen, ConflictScreen), "the conflict view"
        )
        conflicts = pilot.app.screen
        assert isinstance(conflicts, ConflictScreen)
        await wait_until(pilot, lambda: bool(conflicts.entries), "the conflicts are listed")
        await pilot.press("e")
        await wait_for_workers(pilot)
        # the script left markers in: refused, nothing resolved
        assert "still has conflict markers" in _text(pilot)
        monkeypatch.setenv("DOCDECK_TEST_EDIT_WRITE", "Both sides agree now.\n")
        await pilot.press("e")
        await wait_for_workers(pilot)
        assert "conflict 1 of 1: edited" in _text(pilot)
        assert conflicts.query_one(OptionList).option_count == 1
        await pilot.press("s")
        await wait_until(pilot, lambda: pilot.app.screen is host, "the view closed")
        errors = await page_id(client, host.space, 3, "Errors")
        page = await client.change_requests.content.page(
            host.space.id, 3, errors, format="markdown"
        )
        markdown = getattr(page, "markdown", "") or ""
        assert "Both sides agree now." in markdown and "<<<<<<<" not in markdown


async def test_enter_in_the_merge_checklist_closes_it_and_writes_nothing(
    make_app: AppFactory,
) -> None:
    """#2 is outdated: Enter, as the first key in the checklist (typed with `m`, or to get
    past it), closes it. The first focus was Textual's, on the first enabled button, Update
    from main, so Enter brought main's changes into the change request unasked."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        host = await open_host(pilot, 2)
        assert host.change_request.outdated
        await pilot.press("m")
        await wait_for_workers(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, MergeScreen)
        await wait_until(pilot, lambda: screen.state is not None, "the checklist is shown")
        await pilot.press("enter")
        await wait_until(pilot, lambda: pilot.app.screen is not screen, "the checklist closed")
        await wait_for_workers(pilot)
        client: Client = app.client  # type: ignore[attr-defined]
        assert (await client.change_requests.get(screen.space.id, 2)).outdated
