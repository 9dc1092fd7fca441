"""Keys typed in the same breath as the key that opens a screen act on that screen.

Enter (or `i`) and the next key arrive in one burst, as from fast typing or a laggy SSH
link, with every request slowed down so the screen is still on its way and loading when
the key is read. For every binding of the screen: no exception, nothing run on the screen
below, and the key offered to the new screen. And a comment typed ahead of its composer is
stored whole.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.app import App
from textual.dom import DOMNode
from textual.pilot import Pilot
from textual.screen import Screen
from textual.worker import WorkerCancelled

from docdeck.gateway import Client
from docdeck.tui.orgs import MainScreen
from docdeck.tui.review import ReviewInboxScreen, ReviewScreen
from docdeck.tui.space import SpaceScreen
from tui.conftest import RecordingTransport
from tui.helpers import (
    AppFactory,
    burst,
    open_node,
    open_northwind,
    select,
    tree_of,
    wait_for_workers,
    wait_until,
)
from tui.review.helpers import open_change_requests

SLOW = 0.3
"""Seconds every request takes: the screen is still loading when the key arrives."""

NEVER_HELD = {"q", "ctrl+c", "ctrl+q"}
"""Quit is never held back (a different promise, tested with the app's options)."""


async def _quiet(pilot: Pilot[None]) -> None:
    """Every worker done; one cancelled by a popped screen is not a failure here."""
    for _ in range(20):
        try:
            await wait_for_workers(pilot)
        except WorkerCancelled:
            continue
        return


def _keys(screen_class: type[Screen[Any]], shard: int = 0, shards: int = 1) -> list[str]:
    """The screen's keys, every `shards`-th from `shard` on: each sweep runs as several
    tests, which the suite's workers run side by side (one sweep was up to 55 s)."""
    keys = sorted(k for k in screen_class._merged_bindings.key_to_bindings if k not in NEVER_HELD)  # type: ignore[union-attr]
    return keys[shard::shards]


SPACE_SHARDS, REVIEW_SHARDS, INBOX_SHARDS = 6, 9, 6


def test_the_shards_cover_every_key_once() -> None:
    for screen_class, shards in (
        (SpaceScreen, SPACE_SHARDS),
        (ReviewScreen, REVIEW_SHARDS),
        (ReviewInboxScreen, INBOX_SHARDS),
    ):
        swept = [k for shard in range(shards) for k in _keys(screen_class, shard, shards)]
        assert sorted(swept) == _keys(screen_class)
        assert all(_keys(screen_class, shard, shards) for shard in range(shards))


def _screen_of(node: DOMNode, app: App[Any]) -> Screen[Any] | None:
    if isinstance(node, Screen):
        return node
    if node is app:
        return app.screen
    try:
        return node.screen  # type: ignore[attr-defined,no-any-return]
    except Exception:
        return None


class ActionLog:
    """Every action a key asked for (allowed or not), with the screen it was asked on, and
    every notification posted meanwhile (a reason given is counted when it is given: on a
    loaded machine it may have timed out by the time the screen is quiet)."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self.asked: list[tuple[Screen[Any] | None, str]] = []
        self.notified: list[str] = []
        run_action = app.run_action
        notify = app.notify

        def notify_spy(message: str, **options: Any) -> None:
            self.notified.append(message)
            notify(message, **options)

        app.notify = notify_spy  # type: ignore[method-assign]

        async def spy(action: Any, default_namespace: Any = None, namespaces: Any = None) -> bool:
            node = default_namespace if default_namespace is not None else app
            self.asked.append((_screen_of(node, app), str(action)))
            return await run_action(action, default_namespace, namespaces)

        app.run_action = spy  # type: ignore[method-assign]


async def _each_key_after(
    pilot: Pilot[None],
    keys: list[str],
    base: Callable[[], Awaitable[Screen[Any]]],
    opener: str,
    opened: type[Screen[Any]],
) -> list[str]:
    """For each key: from `base()`, `opener` and the key in one burst; what went wrong."""
    app = pilot.app
    log = ActionLog(app)
    depth = len(app.screen_stack)
    failures: list[str] = []

    def said_why() -> bool:
        """A key whose action cannot run says why (the screen explains it)."""
        return bool(log.notified)

    for key in keys:
        below = await base()
        log.asked.clear()
        log.notified.clear()
        app._transport_delay(SLOW)  # type: ignore[attr-defined]
        await burst(pilot, [opener, key])
        await wait_until(
            pilot, lambda: app._key_hold.holding == 0, f"the keys after {opener} are delivered"
        )
        await _quiet(pilot)
        app._transport_delay(0)  # type: ignore[attr-defined]
        if app._exception is not None:
            failures.append(f"{key}: {type(app._exception).__name__}: {app._exception}")
            break
        on_new = [a for s, a in log.asked if isinstance(s, opened)]
        on_below = [a for s, a in log.asked if s is below][1:]  # the opener's own action first
        if on_below:
            failures.append(f"{key}: ran {on_below} on the screen below")
        if not on_new and not any(isinstance(s, opened) for s in app.screen_stack):
            failures.append(f"{key}: no {opened.__name__} was opened")
        elif not on_new and not said_why() and key not in _CONSUMED_BY_WIDGETS:
            failures.append(
                f"{key}: never offered to {opened.__name__} (asked: {log.asked}, "
                f"stack: {app.screen_stack}, focused: {app.screen.focused}; the key hold's "
                f"last steps: {list(app._key_hold.trace)[-12:]})"
            )
        while len(app.screen_stack) > depth:
            app.pop_screen()
            await pilot.pause()
        await _quiet(pilot)
    return failures


_CONSUMED_BY_WIDGETS = {"tab", "shift+tab", "enter"}
"""Keys the focused widget may take itself before any binding (focus moves, choosing)."""


@pytest.fixture
def slow_app(make_app: AppFactory, transport: RecordingTransport):  # type: ignore[no-untyped-def]
    app = make_app()

    def delay(seconds: float) -> None:
        transport.delay = seconds

    app._transport_delay = delay  # type: ignore[attr-defined]
    return app


@pytest.mark.parametrize("shard", range(SPACE_SHARDS))
async def test_every_space_screen_key_typed_with_enter_acts_on_the_space_screen(
    slow_app: Any, shard: int
) -> None:
    async with slow_app.run_test(size=(100, 30)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Engineering")
        await open_node(pilot, "API")

        async def on_the_space() -> Screen[Any]:
            await select(pilot, "Public API Reference")
            return pilot.app.screen

        failures = await _each_key_after(
            pilot, _keys(SpaceScreen, shard, SPACE_SHARDS), on_the_space, "enter", SpaceScreen
        )
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("shard", range(REVIEW_SHARDS))
async def test_every_review_pane_key_typed_with_enter_acts_on_the_pane(
    slow_app: Any, shard: int
) -> None:
    async with slow_app.run_test(size=(100, 30)) as pilot:
        view = await open_change_requests(pilot)
        space = pilot.app.screen

        async def on_the_change_request() -> Screen[Any]:
            assert pilot.app.screen is space
            view.table.focus()
            view.table.move_cursor(row=0, animate=False)
            await pilot.pause()
            return space

        failures = await _each_key_after(
            pilot,
            _keys(ReviewScreen, shard, REVIEW_SHARDS),
            on_the_change_request,
            "enter",
            ReviewScreen,
        )
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("shard", range(INBOX_SHARDS))
async def test_every_inbox_key_typed_with_i_acts_on_the_inbox(slow_app: Any, shard: int) -> None:
    async with slow_app.run_test(size=(100, 30)) as pilot:
        await open_northwind(pilot)

        async def on_the_organization() -> Screen[Any]:
            await select(pilot, "Northwind Labs")
            return pilot.app.screen

        failures = await _each_key_after(
            pilot,
            _keys(ReviewInboxScreen, shard, INBOX_SHARDS),
            on_the_organization,
            "i",
            ReviewInboxScreen,
        )
    assert not failures, "\n".join(failures)


async def test_a_comment_typed_ahead_of_its_composer_is_stored_whole(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Engineering")
        await open_node(pilot, "API")
        await select(pilot, "Public API Reference")
        assert isinstance(pilot.app.screen, MainScreen)
        transport.delay = SLOW
        text = "Typed before the composer"
        keys = ["enter", "G", "c", *[" " if c == " " else c for c in text], "ctrl+s"]
        await burst(pilot, ["space" if k == " " else k for k in keys])
        await wait_until(pilot, lambda: app._key_hold.holding == 0, "every key is delivered")
        await wait_for_workers(pilot)
        transport.delay = 0
        screen = pilot.app.screen
        assert isinstance(screen, SpaceScreen), screen
        async with Client("http://sandbox", admin_token, transport=transport) as api:
            posted = [c.body.markdown async for c in api.comments.list(screen.space.id)]
        assert text in posted, [*posted, *app._key_hold.trace]
        assert tree_of(pilot).cursor_node is not None  # the tree behind is untouched
