"""Dialogs keep what was typed and say precisely what is wrong, without covering themselves."""

from __future__ import annotations

from textual.widgets import Static

from docdeck.tui.kit.dialogs.discard import DiscardDraft
from docdeck.tui.kit.dialogs.form import FormDialog
from tui.conftest import RecordingTransport
from tui.helpers import (
    AppFactory,
    dialog_input,
    open_node,
    open_northwind,
    select,
    wait_for_workers,
)

LONG_TITLE = "A very long collection title that goes past fifty characters"


def _error(pilot) -> str:  # type: ignore[no-untyped-def]
    error = pilot.app.screen.query_one("#dialog-error", Static)
    return str(error.render()) if error.display else ""


async def test_a_title_over_the_limit_is_kept_and_explained(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Northwind Labs")
        await pilot.press("c")
        title = dialog_input(pilot, "title")
        title.insert_text_at_cursor(LONG_TITLE)  # a paste: nothing may be cut off silently
        await pilot.pause()
        assert title.value == LONG_TITLE
        assert "at most 50 characters" in _error(pilot)
        assert f"this is {len(LONG_TITLE)}" in _error(pilot)

        transport.requests.clear()
        await pilot.press("enter")
        await wait_for_workers(pilot)
        assert isinstance(app.screen, FormDialog)
        assert transport.requests == []
        assert title.value == LONG_TITLE

        title.value = LONG_TITLE[:50]
        await pilot.pause()
        assert _error(pilot) == ""
        await pilot.press("enter")
        await wait_for_workers(pilot)
        assert not isinstance(app.screen, FormDialog)


async def test_a_collection_description_is_edited_with_its_limit(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Engineering")
        await pilot.press("e")
        description = dialog_input(pilot, "description")
        assert description.value == "How we build and run the platform"
        description.value = "x" * 101
        await pilot.pause()
        assert "Description (optional): at most 100 characters" in _error(pilot)
        description.value = "Services, tooling and the on-call rota"
        await pilot.press("enter", "enter")
        await wait_for_workers(pilot)
        assert not isinstance(app.screen, FormDialog)
        fields = app.screen.query_one("#fields")
        assert fields.value_of("Description") == "Services, tooling and the on-call rota"  # type: ignore[attr-defined]


async def test_a_refused_request_is_explained_in_the_dialog_not_over_it(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Teams")
        await select(pilot, "Platform")
        await pilot.press("a")
        dialog_input(pilot, "user").value = "nobody@example.com"
        await pilot.press("enter", "enter")
        await wait_for_workers(pilot)
        assert isinstance(app.screen, FormDialog)
        assert dialog_input(pilot, "user").value == "nobody@example.com"
        assert "nobody@example.com" in _error(pilot)
        # A toast would cover the dialog's reason and buttons at 80x24.
        assert not [n for n in app._notifications if n.severity == "error"]


async def test_a_lost_connection_in_a_dialog_says_to_send_again(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Release Notes")
        await pilot.press("e")
        dialog_input(pilot, "title").value = "Changelog"
        transport.offline = True
        await pilot.press("enter")
        await wait_for_workers(pilot)
        assert isinstance(app.screen, FormDialog)
        assert "send again" in _error(pilot)
        assert "press r" not in _error(pilot)  # r would only type a letter here

        transport.offline = False
        await pilot.press("enter")
        await wait_for_workers(pilot)
        assert not isinstance(app.screen, FormDialog)


async def test_escape_on_a_filled_form_asks_before_throwing_it_away(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    """A stray Escape closed a half-filled form (a SAML provider: five fields) and lost it."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Northwind Labs")
        await pilot.press("c")
        title = dialog_input(pilot, "title")
        await pilot.press("escape")  # nothing typed: closes at once
        await wait_for_workers(pilot)
        assert not isinstance(app.screen, FormDialog)

        await pilot.press("c")
        title = dialog_input(pilot, "title")
        title.insert_text_at_cursor("Runbooks")
        await pilot.pause()
        await pilot.press("escape")
        await wait_for_workers(pilot)
        assert isinstance(app.screen, DiscardDraft)
        await pilot.press("n")  # keep writing: the form, as typed
        await wait_for_workers(pilot)
        assert isinstance(app.screen, FormDialog)
        assert dialog_input(pilot, "title").value == "Runbooks"

        transport.requests.clear()
        await pilot.press("escape", "y")
        await wait_for_workers(pilot)
        assert not isinstance(app.screen, FormDialog | DiscardDraft)
        assert transport.requests == []  # nothing was sent


async def test_a_problem_found_at_sending_goes_once_its_field_is_edited(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    """ "Emoji: “x” is not an emoji" stayed on the dialog after the emoji was put right, as if
    it were still wrong: it goes when that field is edited (another field's edit keeps it),
    and the next send checks again."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Northwind Labs")
        await pilot.press("n")
        dialog_input(pilot, "title").value = "Runbooks"
        dialog_input(pilot, "emoji").value = "x"
        transport.requests.clear()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "Emoji: “x” is not an emoji" in _error(pilot)
        assert app.focused is dialog_input(pilot, "emoji")

        dialog_input(pilot, "title").value = "Run books"
        await pilot.pause()
        assert "is not an emoji" in _error(pilot)  # another field: still wrong
        dialog_input(pilot, "emoji").value = "xy"
        await pilot.pause()
        assert _error(pilot) == ""
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "Emoji: “x” is not an emoji" in _error(pilot)  # checked again at sending
        assert transport.requests == []
        dialog_input(pilot, "emoji").value = "📘"
        await pilot.press("ctrl+s")
        await wait_for_workers(pilot)
        assert not isinstance(app.screen, FormDialog)
        assert any(r.startswith("POST") for r in transport.requests)
