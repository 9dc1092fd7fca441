"""Keys at full speed over every kind of tree line: the app never crashes and ends consistent.

A terminal delivers a held key as a burst of events; the views in the detail pane
must swap safely however fast they come (see `ViewSlot`). The keys here are sent
straight to the driver, all of them before the app has handled the first, with
the requests slowed down so loads finish in the middle of the storm.
"""

from __future__ import annotations

import asyncio
import random

from textual import events

from docdeck.gateway import Client
from docdeck.tui.kit.dialogs.pick import PickDialog
from docdeck.tui.orgs import DetailPane, FieldList, MemberTable, TeamDetail
from tui.conftest import RecordingTransport
from tui.helpers import (
    AppFactory,
    labels_under,
    open_node,
    open_northwind,
    select,
    tree_of,
    wait_for_workers,
)

NAVIGATION = [
    "down",
    "down",
    "down",
    "up",
    "up",
    "right",
    "left",
    "enter",
    "space",
    "pagedown",
    "pageup",
    "home",
    "end",
    "tab",
    "shift+tab",
]


async def _storm(app: object, keys: list[str], rng: random.Random, *, gap: float) -> None:
    """Send keys as a terminal does: a key every `gap` seconds or so (0: one burst)."""
    driver = app._driver  # type: ignore[attr-defined]
    for key in keys:
        event = events.Key(key, " " if key == "space" else None)
        event.set_sender(app)  # type: ignore[arg-type]
        driver.send_message(event)
        if gap:
            await asyncio.sleep(gap * rng.uniform(0.2, 1.5))
        elif rng.random() < 0.2:
            await asyncio.sleep(0)


async def test_a_key_storm_over_every_kind_of_line_never_crashes(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    client = Client("http://sandbox", admin_token, transport=transport, max_retries=0)
    orgs = await client.orgs.list()
    northwind = next(org for org in orgs.items if org.title == "Northwind Labs")
    await client.collections.create(northwind.id, title="Empty shelf")
    await client.aclose()

    app = make_app()
    rng = random.Random(6)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_northwind(pilot)
        for title in ("Engineering", "Empty shelf", "Teams", "Recently deleted"):
            await open_node(pilot, title)
        tree = tree_of(pilot)
        tree.focus()
        # Every kind: org, collection, space, Members, Teams, a team, Recently deleted, a
        # deleted space, "(empty)" and, while requests are slow, "loading…" lines.
        transport.delay = 0.02
        tree.move_cursor(tree.get_node_at_line(0))
        # A held arrow key (key repeat: 30 and 100 a second), down and up over every line.
        for gap in (0.03, 0.01):
            await _storm(app, (["down"] * 25 + ["up"] * 25) * 2, rng, gap=gap)
        # Mixed navigation keys, paced and then in bursts.
        for gap in (0.005, 0.0, 0.002, 0.0):
            keys = [rng.choice(NAVIGATION) for _ in range(120)]
            await _storm(app, keys, rng, gap=gap)
            await pilot.pause(0.05)
        transport.delay = 0
        await wait_for_workers(pilot)  # every key handled, every load done, views shown

        assert app.is_running
        detail = app.screen_stack[0].query_one(DetailPane)
        assert detail.body.settled
        # The pane shows what the cursor is on, and only that.
        assert detail.entry is tree.current
        shown = list(detail.body.children)
        assert len(shown) <= 1
        if shown and isinstance(shown[0], MemberTable | TeamDetail):
            assert shown[0].entry is tree.current


async def test_moving_a_space_beside_members_into_a_loaded_nested_collection(
    make_app: AppFactory,
) -> None:
    """The issue's deterministic crash: the move puts the cursor on Members (a table starts
    mounting), then on the moved space (the table is removed while it mounts)."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Engineering")
        await open_node(pilot, "API")
        await select(pilot, "Members")
        await pilot.press("up")
        await wait_for_workers(pilot)
        assert tree_of(pilot).current is not None
        assert tree_of(pilot).current.title == "Design System"
        await pilot.press("m")
        assert isinstance(app.screen, PickDialog)
        await pilot.press("down", "down", "enter")  # Engineering / API
        await wait_for_workers(pilot)
        assert app.is_running
        assert "🎨 Design System" in labels_under(tree_of(pilot), "API")
        fields = app.screen.query_one(DetailPane).query_one(FieldList)
        assert fields.value_of("Collection") == "API"
