"""Helpers for driving the real TUI against the in-process sandbox."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import httpx
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, Tree
from textual.worker import WorkerCancelled, WorkerFailed

from docdeck.gateway import Client
from docdeck.models import Space
from docdeck.tui.app import DocdeckApp
from docdeck.tui.kit.entries import Entry
from docdeck.tui.kit.view_slot import ViewSlot
from docdeck.tui.orgs import OrgTree

AppFactory = Callable[..., DocdeckApp]


async def wait_until(pilot: Pilot[None], condition: Callable[[], bool], what: str) -> None:
    """Until `condition` holds, handling messages meanwhile; a real condition, not a fixed
    pause, so a loaded machine only makes it take longer. Gives up (failing the test and
    naming `what`) only after a generous bound, so a test never hangs."""
    for _ in range(1000):
        if condition():
            return
        await pilot.pause()
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"gave up waiting until {what}")


def _settled(pilot: Pilot[None]) -> bool:
    """The detail pane shows the view last asked for (no swap waiting or running)."""
    screen = pilot.app.screen_stack[0] if pilot.app.screen_stack else None
    slots = screen.query(ViewSlot) if screen is not None else []
    return all(slot.settled for slot in slots)


def _keys_handled(pilot: Pilot[None]) -> bool:
    """Every key typed has been delivered and has gone its way (see `KeyHold.idle`)."""
    hold = getattr(pilot.app, "_key_hold", None)
    return hold is None or hold.idle


async def wait_for_workers(pilot: Pilot[None]) -> None:
    """Let every key typed be handled, every worker finish and every message it posted be
    handled, and the views they caused be mounted. (A storm of keys is delivered one by
    one, each after the one before has gone its way: on a loaded machine, long after the
    last was typed.)"""
    for _ in range(20):
        await wait_until(pilot, lambda: _keys_handled(pilot), "every key typed is handled")
        await _wait_for_quiet_workers(pilot)
        await wait_until(pilot, lambda: _settled(pilot), "the detail pane has its view")
        await pilot.wait_for_scheduled_animations()
        await _wait_for_quiet_workers(pilot)  # a view mounted may have started its own load
        if _keys_handled(pilot) and _settled(pilot):
            return


async def _wait_for_quiet_workers(pilot: Pilot[None]) -> None:
    quiet = 0
    for _ in range(50):
        # A failed worker is reported by the app; tests assert on what the user sees. A
        # cancelled one (an exclusive load replaced by a newer key) is over too: the wait
        # goes on for the one that replaced it.
        with contextlib.suppress(WorkerFailed, WorkerCancelled):
            await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        # Pending counts too: a worker started by a message handler (the first load, after
        # connecting) is pending until its task runs. Two quiet rounds in a row, because a
        # worker's end is a message whose handler may start the next one.
        if any(not worker.is_finished for worker in pilot.app.workers):
            quiet = 0
            continue
        quiet += 1
        if quiet == 2:
            return


def tree_of(pilot: Pilot[None]) -> OrgTree:
    return pilot.app.screen_stack[0].query_one(OrgTree)


def visible_labels(tree: Tree[Entry]) -> list[str]:
    """The labels of the lines the tree shows, top to bottom (expanded nodes only)."""
    labels: list[str] = []

    def walk(node: object, depth: int) -> None:
        for child in node.children:  # type: ignore[attr-defined]
            labels.append("  " * depth + str(child.label.plain))
            if child.is_expanded:
                walk(child, depth + 1)

    walk(tree.root, 0)
    return labels


def find_node(tree: Tree[Entry], title: str):  # type: ignore[no-untyped-def]
    """The first shown node whose label contains `title`."""
    stack = list(tree.root.children)
    while stack:
        node = stack.pop(0)
        if title in node.label.plain:
            return node
        stack[0:0] = list(node.children)
    raise AssertionError(f"no node labelled {title!r} in {visible_labels(tree)}")


async def open_node(pilot: Pilot[None], title: str) -> None:
    """Move the cursor to a node by its title and expand it, waiting for its children."""
    tree = tree_of(pilot)
    node = find_node(tree, title)
    entry = node.data
    tree.select_entry(entry)
    await pilot.pause()
    if node.allow_expand and not node.is_expanded:
        node.expand()
    if entry is not None and entry.expandable:
        await wait_until(
            pilot,
            lambda: entry.children is not None or entry.failed,
            f"{title} has loaded its children (or failed to)",
        )
    await wait_for_workers(pilot)


async def open_northwind(pilot: Pilot[None]) -> None:
    """Wait for the organizations, then expand the demo's first one."""
    await wait_for_organizations(pilot)
    await open_node(pilot, "Northwind Labs")


async def wait_for_organizations(pilot: Pilot[None]) -> None:
    """Until the tree has its organizations (or failed to get them).

    Between the connection and the tree's first load there can be a moment with
    no worker running, when `wait_for_workers` alone returns on a busy machine.
    """
    for _ in range(200):
        await wait_for_workers(pilot)
        trees = pilot.app.screen_stack[0].query(OrgTree)
        model = trees.first().model if trees else None
        if model is not None and (model.children is not None or model.failed):
            return
        await pilot.pause(0.01)


async def select(pilot: Pilot[None], title: str) -> None:
    tree = tree_of(pilot)
    tree.focus()
    entry = find_node(tree, title).data
    tree.select_entry(entry)
    await wait_until(pilot, lambda: tree.current is entry, f"the cursor is on {title}")
    await wait_for_workers(pilot)


def labels_under(tree: Tree[Entry], title: str) -> list[str]:
    """The labels of a shown node's direct children."""
    return [str(child.label.plain) for child in find_node(tree, title).children]


async def type_text(pilot: Pilot[None], text: str) -> None:
    await pilot.press(*[char if char != " " else "space" for char in text])


def dialog_input(pilot: Pilot[None], name: str) -> Input:
    return pilot.app.screen.query_one(f"#field-{name}", Input)


def screen_lines(pilot: Pilot[None]) -> list[str]:
    """The text the terminal shows, one string per row (what a user reads)."""
    return [strip.text for strip in pilot.app.screen._compositor.render_strips()]


def footer_text(pilot: Pilot[None]) -> str:
    return screen_lines(pilot)[-1]


async def burst(pilot: Pilot[None], keys: list[str]) -> None:
    """Send keys as a terminal does when typing fast: all queued before any is handled."""
    driver = pilot.app._driver
    assert driver is not None
    for key in keys:
        character = " " if key == "space" else ("/" if key == "slash" else key)
        event = events.Key(key, character if len(character) == 1 else None)
        event.set_sender(pilot.app)
        driver.send_message(event)
    await pilot.pause()


async def every_space(
    transport: httpx.AsyncBaseTransport, token: str
) -> AsyncIterator[tuple[Client, Callable[..., Awaitable[Any]], Space]]:
    """Every space of the demo, with the gateway's client and a GET of an answer's raw JSON
    (`await get_json(path, **params)`): what the launcher reads, beside what the app reads."""
    headers = {"Authorization": f"Bearer {token}"}
    async with (
        Client("http://sandbox", token, transport=transport) as client,
        httpx.AsyncClient(transport=transport, base_url="http://sandbox") as raw,
    ):

        async def get_json(path: str, **params: Any) -> Any:
            return (await raw.get(path, params=params or None, headers=headers)).json()

        for org in (await client.orgs.list(limit=100)).items:
            for space in (await client.spaces.list(org.id, limit=100)).items:
                yield client, get_json, space
