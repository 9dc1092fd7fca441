"""The TUI over a real loopback port behind a slow link (0.3 s a request): a repeated key
sends one write, and a dialog closed while its request runs still shows what landed."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from docdeck.gateway import Client
from docdeck.tui.app import DocdeckApp
from docdeck.tui.orgs import MainScreen
from slow_link import SlowLink
from tui.helpers import (
    dialog_input,
    labels_under,
    open_northwind,
    select,
    tree_of,
    wait_for_workers,
)


@pytest.mark.loopback
async def test_double_press_and_escape_over_a_slow_link(
    live_server: str, token_for: Callable[[str], str]
) -> None:
    link = SlowLink(live_server, 0.3)
    url = await link.start()
    token = token_for("ada@northwind.dev")

    async def connect() -> Client:
        return Client(url, token, max_retries=0)

    app = DocdeckApp(connect=connect, account_label="slow", account_source="flags")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await open_northwind(pilot)
            await select(pilot, "Release Notes")
            await pilot.press("D", "D")
            await wait_for_workers(pilot)
            copies = labels_under(tree_of(pilot), "Northwind Labs").count("📣 Release Notes (copy)")
            assert copies == 1

            await select(pilot, "Design System")
            await pilot.press("e")
            dialog_input(pilot, "title").value = "Design Kit"
            await pilot.press("enter")
            await asyncio.sleep(0.05)
            await pilot.press("escape")
            assert isinstance(app.screen, MainScreen)
            await wait_for_workers(pilot)
            assert "🎨 Design Kit" in labels_under(tree_of(pilot), "Northwind Labs")
    finally:
        await link.stop()

    async with Client(live_server, token, max_retries=0) as client:
        org = next(o for o in (await client.orgs.list()).items if o.title == "Northwind Labs")
        titles = [s.title for s in await client.spaces.list(org.id, limit=100).all()]
    assert titles.count("Release Notes (copy)") == 1
    assert "Design Kit" in titles
