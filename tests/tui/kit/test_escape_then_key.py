"""Escape then a key, arriving together as tmux sends them, are the two keys they were.

The keys are made from the bytes a terminal sends, by Textual's own parser: tmux (before
3.5, `escape-time` 500 ms) sends Escape and the next key typed within half a second as
one "\\x1bj", which Textual reads as Alt+J.
"""

from __future__ import annotations

from textual._xterm_parser import XTermParser
from textual.pilot import Pilot
from textual.widgets import Input

from docdeck.tui.orgs import OrgTree
from tui.helpers import AppFactory, open_northwind, select, tree_of, wait_for_workers


async def typed(pilot: Pilot[None], sent: str) -> None:
    """`sent` as the terminal's bytes: parsed as Textual parses them, then queued at once."""
    parser = XTermParser()
    keys = [*parser.feed(sent), *parser.feed("")]
    driver = pilot.app._driver
    assert driver is not None
    for key in keys:
        key.set_sender(pilot.app)
        driver.send_message(key)
    await wait_for_workers(pilot)


def test_the_bytes_are_read_as_alt_keys() -> None:
    """What the app is given: no Escape, one Alt+key (the case this mechanism is for)."""
    parser = XTermParser()
    keys = [*parser.feed("\x1bj"), *parser.feed("")]
    assert [(key.key, key.character) for key in keys] == [("alt+j", "j")]


async def in_the_members_table(pilot: Pilot[None]) -> None:
    """The tree's cursor on Members, the focus in its table (Escape goes back to the tree)."""
    await open_northwind(pilot)
    await select(pilot, "Members")
    await pilot.press("enter")
    await wait_for_workers(pilot)
    focused = pilot.app.focused
    assert focused is not None and focused.id == "members"


async def test_escape_then_j_leaves_the_table_and_moves_the_tree(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await in_the_members_table(pilot)
        await typed(pilot, "\x1bj")
        assert isinstance(app.focused, OrgTree)  # Escape: back to the tree
        assert tree_of(pilot).current.title == "Teams"  # type: ignore[union-attr]  # then j


async def test_escape_then_a_capital_is_the_capital(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await in_the_members_table(pilot)
        await typed(pilot, "\x1bG")
        assert isinstance(app.focused, OrgTree)
        assert tree_of(pilot).current.title == "Lumen"  # type: ignore[union-attr]  # G: last


async def test_in_a_field_it_stays_the_character_textual_types(make_app: AppFactory) -> None:
    """In a field, Escape would close its dialog and take what is typed along: the key is
    left as Textual takes it there, the character typed."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Members")
        field = app.screen.query_one("#member-search", Input)
        field.focus()
        await wait_for_workers(pilot)
        await typed(pilot, "ad\x1bj")
        assert app.focused is field
        assert field.value == "adj"
