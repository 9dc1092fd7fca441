"""ViewSlot swaps views safely: at any speed, before it is mounted, and while it is leaving."""

from __future__ import annotations

import asyncio

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from docdeck.tui.kit.view_slot import ViewSlot


class _SlotApp(App[None]):
    def compose(self) -> ComposeResult:
        with Vertical(id="holder"):
            yield ViewSlot(Static("first", id="first"), id="slot")


async def test_a_swap_while_the_slot_is_being_removed_is_dropped_not_an_error() -> None:
    app = _SlotApp()
    async with app.run_test() as pilot:
        slot = app.query_one(ViewSlot)
        for index in range(5):
            slot.swap(Static(f"view {index}"))
        app.query_one("#holder").remove()  # its screen changes while the swap runs
        for _ in range(5):
            await pilot.pause()
        assert not app.query(ViewSlot)
    assert app._exception is None  # a MountError would have ended the app


async def test_a_swap_while_the_app_quits_is_dropped_not_a_mount_error() -> None:
    # Once the app is exiting, Textual counts no widget as attached, so a mount after the
    # old view left would raise MountError ("Can't mount widget(s) before ViewSlot(...) is
    # mounted"), as seen once in a flaky run. The slot checks again after the removal;
    # this drives that moment (Textual may also stop the swap earlier, on its own).
    gate = asyncio.Event()

    class SlowToLeave(Static):
        async def on_unmount(self) -> None:
            await gate.wait()

    app = _SlotApp()
    async with app.run_test():
        slot = app.query_one(ViewSlot)
        await slot.mount(SlowToLeave("leaving"))
        slot.swap(Static("next"))
        for _ in range(50):  # until the swap waits for the old views to leave
            if slot._swapping and not slot._pending:
                break
            await asyncio.sleep(0.01)
        assert not slot.settled
        app.exit()
        gate.set()
    assert app._exception is None
    assert app.return_code == 0


async def test_a_swap_asked_for_before_the_slot_is_mounted_is_shown() -> None:
    app = _SlotApp()
    async with app.run_test() as pilot:
        slot = ViewSlot(id="late")
        slot.swap(Static("shown", id="shown"))
        await app.query_one("#holder").mount(slot)
        for _ in range(5):
            await pilot.pause()
        assert slot.settled
        assert slot.query_one("#shown", Static).is_mounted


async def test_holding_a_key_mounts_only_the_last_view() -> None:
    app = _SlotApp()
    async with app.run_test() as pilot:
        slot = app.query_one(ViewSlot)
        views = [Static(f"view {index}", id=f"v{index}") for index in range(50)]
        for view in views:
            slot.swap(view)
            if view.id in ("v10", "v30"):
                await pilot.pause()
        while not slot.settled:
            await pilot.pause()
        assert [child.id for child in slot.children] == ["v49"]
        assert slot.view is views[-1]
