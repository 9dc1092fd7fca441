"""The app's own schedules sleep while nobody uses it (`docdeck.tui.kit.paced`): left open on
an organization, the idle collector and the place keeper woke the process up to three times
a second; a bare Textual app never wakes."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from textual.app import App, ComposeResult
from textual.widgets import Label

from docdeck.tui.kit.heap import IDLE_SECONDS
from docdeck.tui.kit.paced import InputPaced
from tui.helpers import AppFactory, open_northwind

INTERVAL = 0.02


class _Ticking(App[None]):
    def compose(self) -> ComposeResult:
        yield Label("ticking")


async def _until(condition: object, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "the condition never came"
        await asyncio.sleep(INTERVAL / 4)


async def test_a_settled_schedule_stops_ticking_until_woken() -> None:
    answers = [False, False, True]  # busy, busy, then settled
    app = _Ticking()
    async with app.run_test():
        paced = InputPaced(app, INTERVAL, lambda: answers.pop(0) if answers else True, "test")
        await _until(lambda: paced.asleep)
        assert paced.ticks == 3
        await asyncio.sleep(INTERVAL * 10)  # ten intervals asleep: not one tick
        assert paced.ticks == 3 and paced.asleep

        woken = time.monotonic()
        paced.wake()
        await _until(lambda: paced.ticks == 4)
        assert time.monotonic() - woken >= INTERVAL * 0.9, "a whole interval after the wake"
        assert paced.asleep  # settled again at once: asleep again

        paced.wake()
        paced.wake()  # awake already: the schedule is not pushed back
        await _until(lambda: paced.ticks == 5)


async def test_the_app_s_schedules_sleep_once_settled_and_wake_on_input(
    make_app: AppFactory, tmp_path: Path
) -> None:
    # A first view's path: the account then keeps its place (`last_place`), and the app
    # runs its place keeper.
    app = make_app(first_view=str(tmp_path / "cache" / "first-view" / "sandbox-x.json"))
    async with app.run_test(size=(100, 30)) as pilot:
        await open_northwind(pilot)
        names = sorted(paced._timer.name for paced in app._paced)
        assert names == ["idle collector", "place keeper"]
        heap = app._heap
        assert heap is not None

        await pilot.press("down")  # input just now: neither is settled
        for paced in app._paced:
            paced._tick()
        assert not any(paced.asleep for paced in app._paced)

        heap.last_input -= IDLE_SECONDS + 1  # as if nothing was typed since
        await app.workers.wait_for_complete()
        for paced in app._paced:
            paced._tick()
        assert all(paced.asleep for paced in app._paced)

        await pilot.press("down")  # a key wakes both
        assert not any(paced.asleep for paced in app._paced)

        heap.last_input -= IDLE_SECONDS + 1
        for paced in app._paced:
            paced._tick()
        assert all(paced.asleep for paced in app._paced)
        await pilot.hover(offset=(5, 5))  # so does the mouse
        assert not any(paced.asleep for paced in app._paced)
