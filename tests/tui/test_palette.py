"""The palette lists the actions of the screen in front, on every screen, from the same
declaration the footer and `?` help read (`kit/actions.py`)."""

from __future__ import annotations

from textual.command import CommandPalette
from textual.pilot import Pilot

from docdeck.tui.kit.dialogs.form import FormDialog
from docdeck.tui.kit.help import HelpScreen
from docdeck.tui.orgs import MainScreen
from docdeck.tui.space import SpaceScreen
from tui.helpers import AppFactory, open_northwind, wait_for_workers, wait_until
from tui.review.helpers import open_review


async def palette_entries(pilot: Pilot[None]) -> list[str]:
    """The palette's entries before anything is typed, each "Name  keys"; closes it again."""
    await pilot.press("ctrl+p")
    await wait_until(pilot, lambda: CommandPalette.is_open(pilot.app), "the palette opens")
    await wait_for_workers(pilot)
    options = pilot.app.screen.query_one("CommandList")
    entries = [
        str(options.get_option_at_index(i).prompt).splitlines()[0]  # type: ignore[attr-defined]
        for i in range(options.option_count)  # type: ignore[attr-defined]
    ]
    await pilot.press("escape")
    await wait_until(pilot, lambda: not CommandPalette.is_open(pilot.app), "the palette closes")
    return entries


async def test_the_palette_lists_the_actions_of_each_screen(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_review(pilot, 4)
        review = await palette_entries(pilot)
        assert "Next hunk  ]" in review, review
        assert "Merge  M" in review or any(e.startswith("Merge") for e in review), review
        assert any(e.startswith("Reply  R") for e in review), review  # the thread keys
        await pilot.press("question_mark")  # help reads the same declaration
        assert isinstance(app.screen, HelpScreen)
        assert {"Next hunk", "Reply"} <= {row.description for row in app.screen.rows}
        await pilot.press("escape")

        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, SpaceScreen), "the space")
        await wait_for_workers(pilot)
        space = await palette_entries(pilot)
        assert "Links  2" in space and "History  4" in space, space

        for _ in range(3):  # the change requests view, then the pages view, then the tree
            if not isinstance(app.screen, MainScreen):
                await pilot.press("escape")
                await wait_for_workers(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, MainScreen), "the tree")
        await open_northwind(pilot)
        home = await palette_entries(pilot)
        assert "New space  n" in home and "Inbox  i" in home, home
        assert not any(e.startswith("Down") for e in home), home  # list moves are not commands

        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, FormDialog), "the dialog")
        dialog = await palette_entries(pilot)
        assert any(e.startswith("Cancel") for e in dialog), dialog
        assert "New space  n" not in dialog, dialog  # the screen below is not in front
        assert isinstance(app.screen, FormDialog)
