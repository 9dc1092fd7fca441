"""SVG snapshots of views whose content is fixed by the demo workspace (no ids, no dates).

Update after an intended change with `pytest tests/tui/test_snapshots.py --snapshot-update`,
then look at the report before committing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from textual.pilot import Pilot
from textual.widgets import Input

from tui.helpers import AppFactory, open_node, open_northwind, select, wait_for_workers

Steps = Callable[[Pilot[None]], Awaitable[None]]


async def _steady(pilot: Pilot[None]) -> None:
    """A blinking cursor is caught on or off depending on when the picture is taken."""
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await pilot.pause()


async def _collection(pilot: Pilot[None]) -> None:
    await open_northwind(pilot)
    await open_node(pilot, "Engineering")
    await open_node(pilot, "API")
    await open_node(pilot, "Teams")
    await select(pilot, "API")


async def _new_space_dialog(pilot: Pilot[None]) -> None:
    await _collection(pilot)
    await pilot.press("n")
    await wait_for_workers(pilot)
    await _steady(pilot)


async def _filtered(pilot: Pilot[None]) -> None:
    await _collection(pilot)
    await pilot.press("slash", "a", "p", "i")
    await wait_for_workers(pilot)
    await _steady(pilot)


def test_collection_at_80x24(snap_compare, make_app: AppFactory) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=_collection)


def test_collection_at_160x50(snap_compare, make_app: AppFactory) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(), terminal_size=(160, 50), run_before=_collection)


def test_new_space_dialog_at_80x24(snap_compare, make_app: AppFactory) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=_new_space_dialog)


def test_filtered_tree_at_120x40(snap_compare, make_app: AppFactory) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(), terminal_size=(120, 40), run_before=_filtered)
