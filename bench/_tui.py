"""Driving the real DocdeckApp headless against a loopback server, counting its requests."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx
from textual import events
from textual.pilot import Pilot
from textual.worker import WorkerFailed

from docdeck.gateway import Client
from docdeck.tui.app import DocdeckApp
from docdeck.tui.orgs import OrgTree


@dataclass
class Sent:
    method: str
    target: str
    started: float
    finished: float = 0.0


class CountingTransport(httpx.AsyncHTTPTransport):
    """A real HTTP transport that logs every request and the most ever in flight at once."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list[Sent] = []
        self.in_flight = 0
        self.most_in_flight = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        target = request.url.path + (f"?{request.url.query.decode()}" if request.url.query else "")
        sent = Sent(request.method, target, time.perf_counter())
        self.log.append(sent)
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            response = await super().handle_async_request(request)
            await response.aread()
            return response
        finally:
            self.in_flight -= 1
            sent.finished = time.perf_counter()

    def reset(self) -> None:
        self.log = []
        self.most_in_flight = self.in_flight


async def settle(pilot: Pilot[None]) -> None:
    """Let every worker finish and every message it posted be handled."""
    for _ in range(20):
        with contextlib.suppress(WorkerFailed):
            await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        if not any(worker.is_running for worker in pilot.app.workers):
            break
    await pilot.pause()


async def typed(pilot: Pilot[None], key: str, character: str | None = None) -> None:
    """`key` as a terminal sends it, then wait until it (and what it set off) has gone its
    way: the key hold says so. Not `pilot.press`, which also waits for every animation
    (a PageDown's smooth scroll, 0.8 s) and for the app to be idle, which it is not while a
    page renders in a thread: neither of those holds up a user's next key."""
    app = pilot.app
    event = events.Key(key, character)
    event.set_sender(app)
    app.post_message(event)  # into the app's queue, where the driver puts what it reads
    hold = app._key_hold  # type: ignore[attr-defined]  # DocdeckApp's; a Pilot names App
    began = time.perf_counter()
    while any(m is event for m in getattr(app._message_queue, "_queue", ())) or not hold.idle:
        if time.perf_counter() - began > 60:
            raise TimeoutError(f"{key!r} did not go its way")
        await asyncio.sleep(0.002)
    await asyncio.sleep(0)


def tree_of(pilot: Pilot[None]) -> OrgTree:
    return pilot.app.screen_stack[0].query_one(OrgTree)


def find_node(tree: OrgTree, title: str) -> Any:
    stack = list(tree.root.children)
    while stack:
        node = stack.pop(0)
        if title in str(node.label):
            return node
        stack[0:0] = list(node.children)
    raise LookupError(f"no node labelled {title!r}")


async def run_app(
    base_url: str,
    token: str,
    body: Callable[[Pilot[None], CountingTransport], Awaitable[dict[str, Any]]],
    *,
    size: tuple[int, int] = (120, 40),
) -> dict[str, Any]:
    transport = CountingTransport()

    async def connect() -> Client:
        return Client(base_url, token, transport=transport)

    app = DocdeckApp(connect, "bench")
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        return await body(pilot, transport)
