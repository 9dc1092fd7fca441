"""Authoring from the review pane: edit a page in $EDITOR, add, delete and revert pages; each
is one new revision of the change request, and a failed save never loses the edit."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, OptionList, Select

from docdeck.gateway import Client
from docdeck.tui.kit.dialogs.choose import ChooseDialog
from tui.helpers import (
    AppFactory,
    screen_lines,
    type_text,
    wait_for_organizations,
    wait_for_workers,
    wait_until,
)
from tui.review.actions_helpers import find_space, open_host, page_id, reloaded
from tui.review.editor import use_test_editor

NEW_LINE = "Pin the version with the `Api-Version` request header."


async def _markdown(client: Client, space: str, number: int, page: str) -> str:
    found = await client.change_requests.content.page(space, number, page, format="markdown")
    return getattr(found, "markdown", "") or ""


async def test_edit_a_page_in_the_editor(make_app: AppFactory, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    use_test_editor(monkeypatch, "# Versioning\\n=>" + f"# Versioning\\n\\n{NEW_LINE}\\n")
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        host = await open_host(pilot, 2, page="Versioning")
        client: Client = app.client  # type: ignore[attr-defined]
        revision = host.change_request.revision
        before = host.reloads
        await pilot.press("E")
        await reloaded(pilot, host, before)
        assert host.change_request.revision != revision  # one new revision
        assert NEW_LINE in await _markdown(client, host.space.id, 2, host.page_id or "")
        assert any("saved in #2" in n.message for n in app._notifications)


async def test_a_failed_save_keeps_the_edit(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """#2 is archived meanwhile: the save is refused (400) and says why; the edit is kept:
    re-opening the editor starts from it, and once #2 is open again it saves."""
    use_test_editor(monkeypatch, "# Versioning\\n=>" + f"# Versioning\\n\\n{NEW_LINE}\\n")
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        host = await open_host(pilot, 2, page="Versioning")
        client: Client = app.client  # type: ignore[attr-defined]
        await client.change_requests.update(host.space.id, 2, status="archived")
        await pilot.press("E")
        await wait_until(
            pilot, lambda: isinstance(pilot.app.screen, ChooseDialog), "the failure is shown"
        )
        await wait_until(
            pilot,
            lambda: "Saving “Versioning” failed" in "\n".join(screen_lines(pilot)),
            "the dialog is drawn",
        )
        assert "archived" in "\n".join(screen_lines(pilot))
        # Escape is not "discard": the question comes back
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ChooseDialog), "asked again")
        # Edit again: the editor gets the edit, not the server's page
        log = tmp_path / "seen.md"
        monkeypatch.setenv("DOCDECK_TEST_EDIT_LOG", str(log))
        monkeypatch.setenv("DOCDECK_TEST_EDIT", "")
        pilot.app.screen.query_one(OptionList).highlighted = 1
        await pilot.press("enter")
        await wait_until(pilot, lambda: log.exists(), "the editor ran again")
        assert NEW_LINE in log.read_text(encoding="utf-8")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ChooseDialog), "still refused")
        await client.change_requests.update(host.space.id, 2, status="open")
        pilot.app.screen.query_one(OptionList).highlighted = 0  # save it again
        before = host.reloads
        await pilot.press("enter")
        await reloaded(pilot, host, before)
        assert NEW_LINE in await _markdown(client, host.space.id, 2, host.page_id or "")


async def test_add_a_page_under_another(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        host = await open_host(pilot, 2, page="Versioning")
        client: Client = app.client  # type: ignore[attr-defined]
        await pilot.press("N")
        await wait_for_workers(pilot)
        parent = pilot.app.screen.query_one("#field-parent", Select)
        assert parent.value == "Reference › Versioning"  # the page shown
        pilot.app.screen.query_one("#field-title", Input).focus()
        await type_text(pilot, "Deprecations")
        before = host.reloads
        await pilot.press("enter")
        await reloaded(pilot, host, before)
        versioning = await client.change_requests.content.page(
            host.space.id, 2, host.page_id or "", format=None
        )
        children = [p.title for p in getattr(versioning, "pages", [])]
        assert children == ["Deprecations"]


async def test_delete_then_revert_a_page(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        host = await open_host(pilot, 2, page="Versioning")
        client: Client = app.client  # type: ignore[attr-defined]
        await pilot.press("K")
        await wait_for_workers(pilot)
        assert "Delete this page" in "\n".join(screen_lines(pilot)) or "Delete" in "\n".join(
            screen_lines(pilot)
        )
        before = host.reloads
        await pilot.press("y")
        await reloaded(pilot, host, before)
        titles = [p.title async for p in _walk(client, host.space.id, 2)]
        assert "Versioning" not in titles
        await pilot.press("U")
        await wait_for_workers(pilot)
        before = host.reloads
        await pilot.press("y")
        await reloaded(pilot, host, before)
        assert "Versioning" in [p.title async for p in _walk(client, host.space.id, 2)]
        # reverted to the base: #2's own edit of the page is gone too
        main = await client.content.page(host.space.id, host.page_id or "", format="markdown")
        assert await _markdown(client, host.space.id, 2, host.page_id or "") == getattr(
            main, "markdown", None
        )


async def _walk(client: Client, space: str, number: int):  # type: ignore[no-untyped-def]
    listed = await client.change_requests.content.pages(space, number)
    for page in listed.walk():
        yield page


async def test_a_reader_cannot_author(make_app: AppFactory, token_for, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    use_test_editor(monkeypatch, "a=>b")
    app = make_app(token_for("kofi@northwind.dev"))
    async with app.run_test(size=(120, 40)) as pilot:
        host = await open_host(pilot, 2, page="Versioning")
        await pilot.press("E")
        await wait_for_workers(pilot)
        assert pilot.app.screen is host
        [note] = [n for n in app._notifications if n.title == "Not allowed"]
        assert "does not allow editing a page: it needs the edit role" in note.message


async def test_a_new_change_request_edits_a_page_picked_from_its_tree(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing is changed yet, so no page is shown: E offers the change request's pages."""
    use_test_editor(monkeypatch, "# Versioning\\n=>" + f"# Versioning\\n\\n{NEW_LINE}\\n")
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_organizations(pilot)
        client: Client = app.client  # type: ignore[attr-defined]
        space = await find_space(client)
        created = await client.change_requests.create(space.id, subject="Fresh")
        host = await open_host(pilot, created.number)
        assert host.current_page_id() is None
        await pilot.press("E")
        await wait_until(
            pilot, lambda: isinstance(pilot.app.screen, ChooseDialog), "the pages are offered"
        )
        options = pilot.app.screen.query_one(OptionList)
        labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        options.highlighted = labels.index("Reference › Versioning")
        before = host.reloads  # type: ignore[attr-defined]
        await pilot.press("enter")
        await reloaded(pilot, host, before)
        versioning = await page_id(client, space, created.number, "Versioning")
        assert NEW_LINE in await _markdown(client, space.id, created.number, versioning)
        await wait_until(
            pilot, lambda: host.current_page_id() == versioning, "the pane shows the edit"
        )
