"""Full garbage-collector passes wait for idle input while the app runs (`docdeck.tui.kit.heap`):
they stopped the event loop for 0.1-2 s at random while a big page was read."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

from docdeck.tui.kit.heap import (
    FULL_PASS_EVERY,
    IDLE_SECONDS,
    IdleCollector,
    hold_collections,
    release_collections,
)
from tui.helpers import AppFactory, open_northwind


def _full_passes() -> tuple[list[int], Any]:
    passes: list[int] = []

    def record(phase: str, info: dict[str, Any]) -> None:
        if phase == "stop" and info.get("generation") == 2:
            passes.append(1)

    gc.callbacks.append(record)
    return passes, record


async def test_full_passes_wait_for_idle_input_and_the_schedule_comes_back(
    make_app: AppFactory,
) -> None:
    before = gc.get_threshold()
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_northwind(pilot)
        assert gc.get_threshold()[2] == FULL_PASS_EVERY, "full passes no longer every 10"
        heap = app._heap
        assert isinstance(heap, IdleCollector)
        passes, record = _full_passes()
        try:
            gc.collect(1)  # something new since the last full pass
            await pilot.press("down")  # input: not idle
            heap.tick()
            assert passes == []
            heap.last_input -= IDLE_SECONDS + 1  # as if nothing was typed since
            heap.tick()
            assert passes == [1]
            heap.tick()  # nothing new since: no second pass
            assert passes == [1]

            # Idle input, but a worker running (a page loading or rendering): no pass.
            release = asyncio.Event()
            app.run_worker(release.wait(), name="a page loading")
            await pilot.pause()
            gc.collect(1)
            heap.tick()
            assert passes == [1]
            release.set()
            await app.workers.wait_for_complete()
            heap.tick()
            assert passes == [1, 1]
        finally:
            gc.callbacks.remove(record)
    assert gc.get_threshold() == before


def test_start_up_holds_collections_until_released() -> None:
    assert gc.isenabled()
    release_collections()  # nothing held: nothing changes
    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    hold_collections()
    try:
        assert not gc.isenabled()
        release_collections()
        assert gc.isenabled()
        assert gc.get_freeze_count() >= frozen  # what start-up built is kept out of passes
    finally:
        gc.enable()


async def test_the_first_live_view_ends_the_start_up_hold(make_app: AppFactory) -> None:
    """`docdeck` holds collections from its launch (`run_tui`); the app ends the hold once the
    organizations are shown, so a long session collects as usual."""
    hold_collections()
    try:
        app = make_app()
        async with app.run_test(size=(100, 30)) as pilot:
            await open_northwind(pilot)
            assert gc.isenabled()
    finally:
        gc.enable()
