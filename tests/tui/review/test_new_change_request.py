"""N on the space screen creates a change request of that space and opens it."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList

from docdeck.gateway import Client
from docdeck.tui.kit.dialogs.choose import ChooseDialog
from docdeck.tui.review import ReviewScreen
from tui.helpers import AppFactory, type_text, wait_for_workers, wait_until
from tui.review.editor import use_test_editor
from tui.space.helpers import open_api_reference


async def test_create_a_change_request_from_the_space_screen(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        space = await open_api_reference(pilot)
        await pilot.press("N")
        await wait_for_workers(pilot)
        await type_text(pilot, "Explain pagination cursors")
        await pilot.press("enter")
        await wait_until(
            pilot, lambda: isinstance(pilot.app.screen, ReviewScreen), "the pane opens"
        )
        pane = pilot.app.screen
        assert isinstance(pane, ReviewScreen)
        assert pane.change_request.subject == "Explain pagination cursors"
        client: Client = app.client  # type: ignore[attr-defined]
        newest = (await client.change_requests.list(space.space.id)).items[0]
        assert newest.id == pane.change_request.id and newest.status == "open"
        await wait_for_workers(pilot)
        await pilot.press("escape")
        await wait_until(pilot, lambda: pilot.app.screen is space, "back on the space")


async def test_a_reader_is_told_why_not(make_app: AppFactory, token_for) -> None:  # type: ignore[no-untyped-def]
    app = make_app(token_for("kofi@northwind.dev"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_api_reference(pilot)
        await pilot.press("N")
        await wait_for_workers(pilot)
        assert pilot.app.screen is screen
        assert any("needs the edit role" in n.message for n in app._notifications)


async def test_edit_the_page_shown_in_a_new_change_request(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """E on the space screen: "New change request…", a subject, then the page shown opens in
    $EDITOR inside the new change request's pane; the edit is saved there, main untouched."""
    use_test_editor(monkeypatch, "\\n\\n=>\\n\\nEdited from the space screen.\\n\\n")
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        space = await open_api_reference(pilot)
        page = space.current_page
        assert page is not None
        await pilot.press("E")
        await wait_until(
            pilot, lambda: isinstance(pilot.app.screen, ChooseDialog), "the change requests"
        )
        options = pilot.app.screen.query_one(OptionList)
        assert str(options.get_option_at_index(0).prompt) == "New change request…"
        assert option_count_with(options, "#4 Document partial refunds · open")
        await pilot.press("enter")
        await wait_for_workers(pilot)
        await type_text(pilot, "Edit from the space")
        await pilot.press("enter")
        await wait_until(
            pilot, lambda: isinstance(pilot.app.screen, ReviewScreen), "the pane opens"
        )
        pane = pilot.app.screen
        assert isinstance(pane, ReviewScreen)
        await wait_until(
            pilot, lambda: pane.current_page_id() == page.id, "the edited page is shown"
        )
        client: Client = app.client  # type: ignore[attr-defined]
        number = pane.change_request.number
        edited = await client.change_requests.content.page(
            space.space.id, number, page.id, format="markdown"
        )
        assert "Edited from the space screen." in (getattr(edited, "markdown", "") or "")
        main = await client.content.page(space.space.id, page.id, format="markdown")
        assert "Edited from the space screen." not in (getattr(main, "markdown", "") or "")


def option_count_with(options: OptionList, label: str) -> int:
    return sum(
        1
        for i in range(options.option_count)
        if str(options.get_option_at_index(i).prompt) == label
    )


async def test_e_offers_every_open_change_request_of_a_busy_space(make_app: AppFactory) -> None:
    """E offered the first page of open change requests only (50 by the API's default): in
    a space with more, the one to edit in could not be chosen."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        space = await open_api_reference(pilot)
        client: Client = app.client  # type: ignore[attr-defined]
        for index in range(101):  # past one page of 100
            await client.change_requests.create(space.space.id, subject=f"Busy {index:03}")
        await pilot.press("E")
        await wait_until(
            pilot, lambda: isinstance(pilot.app.screen, ChooseDialog), "the change requests"
        )
        options = pilot.app.screen.query_one(OptionList)
        labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert {f"Busy {index:03}" for index in range(101)} <= {
            label.split(" ", 1)[1].rsplit(" · ", 1)[0] for label in labels[1:]
        }
        assert len(labels) == len(set(labels))
