"""Driving the thread views as a user does: the comments view (6), the composer, the picker."""

from __future__ import annotations

from collections.abc import Callable

from textual.pilot import Pilot

from docdeck.tui.space import SpaceScreen
from docdeck.tui.threads import Composer, ThreadItem, ThreadsPanel
from tui.helpers import type_text, wait_for_workers, wait_until
from tui.space.helpers import open_space, settle

ROTATE = "Should this step say how to"
"""Emeka's question on a block of the Webhooks Guide's "Setup" (two replies, reactions)."""


async def open_guide(pilot: Pilot[None]) -> SpaceScreen:
    return await open_space(pilot, "Webhooks Guide", under=("Engineering", "API"))


async def open_comments(pilot: Pilot[None], screen: SpaceScreen) -> ThreadsPanel:
    await pilot.press("6")
    panel = screen.query_one(ThreadsPanel)
    await wait_until(pilot, lambda: panel.loaded, "the threads are loaded")
    await settle(pilot)
    return panel


async def move_to(
    pilot: Pilot[None], panel: ThreadsPanel, wanted: Callable[[ThreadItem], bool], what: str
) -> ThreadItem:
    """Press j (from the top) until the cursor is on the item `wanted` picks."""
    await pilot.press("g")
    for _ in range(len(panel.thread_list.items) + 1):
        item = panel.item
        if item is not None and wanted(item):
            await pilot.pause()
            return item
        await pilot.press("j")
    raise AssertionError(f"no thread item is {what}")


def is_comment(text: str) -> Callable[[ThreadItem], bool]:
    return lambda item: item.reply is None and text in (item.thread.comment.body.markdown or "")


def is_reply(text: str) -> Callable[[ThreadItem], bool]:
    return lambda item: item.reply is not None and text in (item.reply.body.markdown or "")


async def composer_open(pilot: Pilot[None]) -> Composer:
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, Composer), "the composer is open")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, Composer)
    return screen


async def write_and_post(pilot: Pilot[None], text: str) -> None:
    composer = await composer_open(pilot)
    await type_text(pilot, text)
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: pilot.app.screen is not composer, "the composer closed")
    await wait_for_workers(pilot)
    await settle(pilot)
