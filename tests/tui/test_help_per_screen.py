"""`?` starts with the screen in front's own paragraph (never the tree's on another screen)
and gives each key its keymap id, the name a `[keymap]` entry remaps it by."""

from __future__ import annotations

from textual.widgets import Static

from docdeck.tui.kit.help import HelpScreen
from tui.helpers import AppFactory, open_northwind, wait_for_workers
from tui.space.helpers import open_space

TREE_WORDS = "The tree lists organizations"


def _help_text(app) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    screen = app.screen
    assert isinstance(screen, HelpScreen), screen
    intro = str(screen.query_one("#help-intro", Static).render())
    return intro, "\n".join(str(row) for row in screen.rows)


async def test_help_on_the_tree_is_the_tree_s(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await pilot.press("question_mark")
        intro, _ = _help_text(app)
        assert intro.startswith(TREE_WORDS)
        assert any(row.binding_id == "browser.refresh" for row in app.screen.rows), [
            row.binding_id for row in app.screen.rows
        ]


async def test_help_on_a_space_starts_with_the_space_and_names_key_ids(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_space(pilot, "Public API Reference", under=("Engineering", "API"))
        await wait_for_workers(pilot)
        await pilot.press("question_mark")
        intro, _ = _help_text(app)
        assert TREE_WORDS not in intro
        assert intro.startswith("A space:"), intro
        assert "[keymap]" in intro
        ids = {row.binding_id for row in app.screen.rows}
        assert "space.toc" in ids, ids
