"""A chooser of any length: the first 200 that match are listed, the others counted until
the filter narrows them; a filter that matches nothing says so, and Enter then chooses
nothing."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.widgets import OptionList

from docdeck.tui.kit.chooser import SHOWN_AT_MOST, Chooser

ITEMS = [(f"Member {index:04d}", index) for index in range(1, 1251)]


def _labels(app: App[Any]) -> list[str]:
    options = app.screen.query_one(OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def test_the_first_matches_are_listed_and_the_others_counted() -> None:
    chosen: list[Any] = []
    app: App[Any] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(Chooser("Ask to review", ITEMS), chosen.append)
        await pilot.pause()
        labels = _labels(app)
        assert len(labels) == SHOWN_AT_MOST + 1
        assert labels[0] == "Member 0001" and labels[-2] == f"Member {SHOWN_AT_MOST:04d}"
        assert labels[-1] == f"… {len(ITEMS) - SHOWN_AT_MOST:,} more: type to narrow the list"
        await pilot.press(*"member 12")  # 1200 to 1250: 51 of them, all listed
        await pilot.pause()
        labels = _labels(app)
        assert len(labels) == 51 and "Member 1250" in labels
        await pilot.press(*"50", "enter")
        await pilot.pause()
        assert chosen == [1250]


async def test_a_filter_matching_nothing_says_so_and_chooses_nothing() -> None:
    chosen: list[Any] = []
    app: App[Any] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        chooser = Chooser("Ask to review", ITEMS)
        app.push_screen(chooser, chosen.append)
        await pilot.pause()
        await pilot.press(*"nobody", "enter")
        await pilot.pause()
        assert _labels(app) == ["Nothing matches “nobody”."]
        assert app.screen is chooser and chosen == []
