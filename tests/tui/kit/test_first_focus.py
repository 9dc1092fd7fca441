"""A chooser or a question takes the keys typed as it opens where they are meant to go.

Keys typed in one burst with the key that opens it (fast typing, a laggy SSH link) reach
it while its focus is being set. The chooser focused its list in `on_mount`, after
Textual had focused its first field: a letter that reached the field stayed there, the
next went to the list (and was put in the field), and one that reached the list just as
the focus moved on to the field was dropped ("On" for "Onb"). A question keeps Enter
from pressing its first button (Delete) however fast it follows.
"""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, Static

from docdeck.tui.kit.chooser import Chooser
from docdeck.tui.kit.dialogs.confirm import ConfirmDialog
from tui.helpers import AppFactory, burst, wait_until

SPACES = [("Onboarding", 1), ("Ontology", 2), ("Operations", 3), ("Release notes", 4)]


class Opener(Screen[None]):
    """`n` opens a chooser of spaces, as the site editor's "add a space" does."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("n", "choose", "Choose")]

    def __init__(self) -> None:
        super().__init__()
        self.chosen: list[Any] = []

    def compose(self) -> ComposeResult:
        yield Static("below", markup=False)

    def action_choose(self) -> None:
        self.app.push_screen(Chooser("Add a space", SPACES), self.chosen.append)


async def _opener(pilot: Pilot[None]) -> Opener:
    opener = Opener()
    await pilot.app.push_screen(opener)
    await wait_until(pilot, lambda: pilot.app.screen is opener, "the opener in front")
    return opener


async def _chooser(pilot: Pilot[None]) -> Chooser[Any]:
    app = pilot.app
    await wait_until(pilot, lambda: app._key_hold.holding == 0, "every key is delivered")  # type: ignore[attr-defined]
    await wait_until(pilot, lambda: isinstance(app.screen, Chooser), "the chooser in front")
    screen = app.screen
    assert isinstance(screen, Chooser)
    return screen


@pytest.mark.parametrize("typed", ["Onb", "Ont", "Rel", "onboard"])
async def test_letters_typed_with_the_opening_key_all_reach_the_filter(
    make_app: AppFactory, typed: str
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _opener(pilot)
        await burst(pilot, ["n", *typed])
        screen = await _chooser(pilot)
        field = screen.query_one("#chooser-filter", Input)
        await wait_until(
            pilot, lambda: field.value == typed or not app._key_hold.holding, "the letters land"
        )
        await pilot.pause()
        assert field.value == typed, list(app._key_hold.trace)
        assert screen.highlighted is not None
        assert (
            typed.casefold()
            in next(label for label, value in SPACES if value == screen.highlighted).casefold()
        )


async def test_letters_typed_one_by_one_reach_the_filter_and_enter_chooses(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        opener = await _opener(pilot)
        await pilot.press("n")
        await _chooser(pilot)
        await pilot.press("O", "p", "enter")
        await wait_until(pilot, lambda: app.screen is opener, "the chooser closed")
        assert opener.chosen == [3]


class CountingQuestion(ConfirmDialog[None]):
    """The question as every delete asks it; what it would send is counted, not sent."""

    def __init__(self, asker: Asker) -> None:
        async def delete() -> None:
            pass

        super().__init__("Delete", "Delete the space “Docs”?", delete, doing="Deleting…")
        self.asker = asker

    def send(self, *args: Any) -> None:
        self.asker.sent += 1
        self.dismiss(None)


class Asker(Screen[None]):
    """`d` asks before deleting, as every delete does; `sent` counts the deletes sent."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("d", "delete", "Delete")]

    def __init__(self) -> None:
        super().__init__()
        self.sent = 0

    def compose(self) -> ComposeResult:
        yield Static("below", markup=False)

    def action_delete(self) -> None:
        self.app.push_screen(CountingQuestion(self))


async def test_enter_typed_with_the_key_that_asks_before_a_delete_cancels(
    make_app: AppFactory,
) -> None:
    """The question's focus is on Cancel: an Enter typed with `d` (to get past a dialog, or
    by a slip) keeps things as they are, however fast it follows. The Delete button is the
    first in the dialog, so Textual's own first focus was on it until the dialog moved it."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        asker = Asker()
        await app.push_screen(asker)
        await wait_until(pilot, lambda: app.screen is asker, "the asker in front")
        await burst(pilot, ["d", "enter"])
        await wait_until(pilot, lambda: app._key_hold.holding == 0, "every key is delivered")
        await wait_until(pilot, lambda: app.screen is asker, "the question closed")
        await pilot.pause()
        assert asker.sent == 0, list(app._key_hold.trace)


async def test_a_space_typed_in_the_list_goes_on_with_the_filter(make_app: AppFactory) -> None:
    """ "release", down into the list, then " n": the space went nowhere ("releasen"); once
    the filter holds text, a space typed in the list is the filter's as the letters are."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        opener = await _opener(pilot)
        await pilot.press("n")
        screen = await _chooser(pilot)
        await pilot.press(*"release", "down", "space", "n")
        field = screen.query_one("#chooser-filter", Input)
        await wait_until(pilot, lambda: field.value == "release n", "the space in the filter")
        await pilot.press("enter")
        await wait_until(pilot, lambda: opener.chosen == [4], "Release notes chosen")
