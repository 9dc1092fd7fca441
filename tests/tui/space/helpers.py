"""Opening a space from the organization tree, as a user does: Enter on it."""

from __future__ import annotations

from textual.pilot import Pilot

from docdeck.tui.content import PagePreview
from docdeck.tui.space import PageTree, SpaceScreen
from tui.helpers import find_node, open_node, open_northwind, select, tree_of, wait_for_workers


async def open_space(pilot: Pilot[None], title: str, *, under: tuple[str, ...] = ()) -> SpaceScreen:
    await open_northwind(pilot)
    for parent in under:
        await open_node(pilot, parent)
    await select(pilot, title)
    tree = tree_of(pilot)
    assert find_node(tree, title).data is tree.current
    await pilot.press("enter")
    await wait_for_workers(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, SpaceScreen), screen
    await settle(pilot)
    return screen


async def open_api_reference(pilot: Pilot[None]) -> SpaceScreen:
    return await open_space(pilot, "Public API Reference", under=("Engineering", "API"))


async def settle(pilot: Pilot[None]) -> None:
    """Workers done, preview swaps applied, rendered pieces mounted."""
    for _ in range(10):
        await wait_for_workers(pilot)
        await pilot.pause(0.05)
        screen = pilot.app.screen
        previews = screen.query(PagePreview)
        if not previews or previews.first().slot.settled:
            await wait_for_workers(pilot)
            return


def preview_text(pilot: Pilot[None]) -> str:
    """Every line the screen shows, joined (what a reader sees)."""
    from tui.helpers import screen_lines

    return "\n".join(screen_lines(pilot))


def page_tree(pilot: Pilot[None]) -> PageTree:
    return pilot.app.screen.query_one(PageTree)
