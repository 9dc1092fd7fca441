"""Keys typed ahead reach what the keys before them opened, in order: the screen stack's rule.

Textual routes a key the moment the app reads it: to the focused widget's queue, from
where it bubbles up to the screen and back to the app, which runs the bindings. The next
key is routed meanwhile, before the first one's binding has run. So "nDocs" arriving in
one burst (fast typing, or a laggy SSH link delivering keys together) sent "Docs" to the
tree behind the dialog that `n` opened, and Enter then `c` on a space ran the tree's `c`:
the space screen it opened was pushed only once the tree's message reached the app.

The app hands every key it reads to `KeyHold.route`. A key is delivered only when

- the key before it has finished its way: its bindings have run (`returned`), or a node
  on its path handled it and it went no further (a field took it: each node's message
  signal says when it has handled a message). Until then it waits in a queue (a busy
  widget's, the app's) or is being handled, however long that takes on a loaded machine.
  And what it set off is handled: the messages waiting on its path when it ended (a
  table's "row selected"), and what their handlers posted on the path in answer (the
  tree's "space opened" after its "node selected"), each followed the same way. A clock's
  tick or a refresh (Textual's own `messages`, timer events) is never followed: they come
  on their own, and would hold the next key as long as they keep coming. A stopped key is not a
  finished one: Textual stops a key at the screen and still hands it to the app;
- no screen is on its way: a navigation message (`kit/navigation.py`) posted to the app
  holds every key until the app has pushed its screen (`expect_screen`, `screen_opened`),
  and so does an action whose worker reads something before it opens a dialog (`c` reads
  the page's blocks, then opens the composer): `opens_a_screen(worker)`;
- the screen in front is set up: composed and resumed (Textual's `Screen.stack_updates`),
  so every part an action looks for is there and its first field has focus; and its first
  load is done, when it says what that is (`KEYS_WAIT_FOR`): the worker groups that fill
  it, and every `ViewSlot` settled. "Enter G c text ctrl+s" then moves to the end of the
  page shown, comments on its last block, and posts every character.

Keys that must wait are kept in order and delivered as soon as all hold, from the app's
own message loop, to the screen in front at that moment: never to the screen below, never
dropped. A key whose way is lost (its widget removed meanwhile) holds the others back
`HOLD_LIMIT` seconds at most (a key seen waiting in a queue, `LOAD_LIMIT`); a first load
`LOAD_LIMIT` seconds at most (then the keys go, and an action that cannot run yet says
so); Escape waiting behind a load lets the keys before it go at once (the user chose to
stop waiting). A screen is never given keys before
it is composed. `KeyHold.trace` keeps the last steps (each key, where it went, each limit
reached), for a report of a key that went astray.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from textual import events
from textual import messages as textual_messages
from textual.app import App
from textual.dom import DOMNode
from textual.screen import Screen
from textual.timer import Timer
from textual.worker import Worker

__all__ = ["HOLD_LIMIT", "LOAD_LIMIT", "KeyHold", "first_load_done", "opens_a_screen"]

HOLD_LIMIT = 2.0
"""Seconds a key's way holds the next keys back at most (a key lost with its widget, a
widget kept busy). A key's way is followed exactly, so this is a bound, not a guess."""

LOAD_LIMIT = 15.0
"""Seconds a screen's first load (or a screen on its way) holds keys back at most."""

POLL = 0.004
"""How often held keys look again when nothing else happens."""

TRACE_LENGTH = 200
"""How many of the hold's last steps `KeyHold.trace` keeps (for a report of a lost key)."""

_READY = "_docdeck_keys_ready"
"""Set on a screen once its first load is done: later loads (a refresh) hold no keys."""


def first_load_done(screen: Screen[Any]) -> bool:
    """The screen's first load (`KEYS_WAIT_FOR` worker groups, view slots) has ended.

    Once true for a screen it stays true: a refresh's workers hold no keys.
    """
    if getattr(screen, _READY, False):
        return True
    groups: Iterable[str] = getattr(screen, "KEYS_WAIT_FOR", ())
    if groups:
        groups = frozenset(groups)
        for worker in screen.app.workers:
            if worker.group in groups and not worker.is_finished and _on(worker.node, screen):
                return False
        from docdeck.tui.kit.view_slot import ViewSlot

        if not all(slot.settled for slot in screen.query(ViewSlot)):
            return False
    setattr(screen, _READY, True)
    return True


def opens_a_screen(worker: Worker[Any]) -> Worker[Any]:
    """`worker` may end by pushing a screen (a dialog after a read): keys typed meanwhile
    wait for it to end, then go to what is in front (the dialog, or the screen if the
    worker said why not)."""
    hold = getattr(worker.node.app, "_key_hold", None)
    if isinstance(hold, KeyHold):
        hold.expect_worker(worker)
    return worker


def _gone(node: DOMNode) -> bool:
    return node._closed or node._closing


def _waiting(node: DOMNode) -> Iterable[object]:
    """The messages in `node`'s queue (Textual's own queue keeps them in `values`)."""
    queue: Any = node._message_queue
    return getattr(queue, "values", None) or getattr(queue, "_queue", None) or ()


def _waits_in(node: DOMNode, sent: object) -> bool:
    """`sent` (a key, a message) waits in `node`'s queue to be handled."""
    return any(message is sent for message in _waiting(node))


def _caused(message: object) -> bool:
    """`message` may be what a handler posted in answer (a message, a `call_later`), not
    what the clock or the compositor posts on its own (a timer's tick, a blink, a refresh:
    posted every few milliseconds, they would hold the next key as long as they come)."""
    if isinstance(message, events.Callback):
        return True
    if isinstance(message, events.Event):
        return False
    return type(message).__module__ != textual_messages.__name__


def _name(key: events.Key | None) -> str:
    return "no key" if key is None else repr(key.key)


def _on(node: DOMNode, screen: Screen[Any]) -> bool:
    if node is screen:
        return True
    try:
        return node.screen is screen
    except Exception:  # removed meanwhile
        return False


class KeyHold:
    def __init__(self, app: App[Any], deliver: Callable[[events.Key], Awaitable[None]]) -> None:
        self._app = app
        self._deliver = deliver
        self._started = time.monotonic()
        self._held: list[events.Key] = []
        self._in_flight: events.Key | None = None
        self._path: list[DOMNode] = []
        """The nodes the key in flight was sent through: what it set off is handled there."""
        self._ended = False
        """The key in flight was handled by a node and went no further (a field took it)."""
        self._set_off: list[object] = []
        """What the key set off: the messages on its path's queues when it ended, each
        followed (like the key) until it is handled and goes no further."""
        self._watched: list[DOMNode] = []
        """The nodes whose message signal tells when they have handled the key in flight.
        (The app subscribes to them; nothing else in docdeck subscribes the app there.)"""
        self._since = 0.0
        """When the key in flight was delivered, or the screen began to be waited for."""
        self._expected = 0
        """Screens on their way (navigation messages posted, not yet handled)."""
        self._expected_since = 0.0
        self._workers: list[tuple[Worker[Any], float]] = []
        """Workers that may end by pushing a screen (`opens_a_screen`), and since when."""
        self._waiting: Screen[Any] | None = None
        self._waiting_since = 0.0
        """The screen in front whose first load is waited for, and since when."""
        self._timer: Timer | None = None
        self.trace: deque[str] = deque(maxlen=TRACE_LENGTH)
        """The last steps: each key delivered (to which screen and widget), each key back
        from its bindings, each screen or worker waited for, each limit reached."""

    def note(self, step: str) -> None:
        """Add a step to `trace`, with the time since the app started."""
        self.trace.append(f"{time.monotonic() - self._started:8.3f} {step}")

    @property
    def holding(self) -> int:
        """Keys waiting (for tests)."""
        return len(self._held)

    @property
    def idle(self) -> bool:
        """No key waits, and the last one delivered has gone its way with what it set off
        (or `HOLD_LIMIT` has passed since: its widget may have been removed with it). For
        tests: what was typed has been handled."""
        if self._held:
            return False
        if self._in_flight is None and not self._set_off:
            return True
        return time.monotonic() - self._since >= HOLD_LIMIT

    def expect_screen(self) -> None:
        """A screen is on its way (a navigation message was posted): hold keys for it."""
        self._expected += 1
        self._expected_since = time.monotonic()
        self.note(f"a screen is on its way ({self._expected})")

    def expect_worker(self, worker: Worker[Any]) -> None:
        """A screen may be pushed when `worker` ends: hold keys until it has ended."""
        self._workers.append((worker, time.monotonic()))
        self.note(f"worker {worker.name!r} may open a screen")

    def screen_opened(self) -> None:
        """The app has handled a navigation message (pushed its screen, or declined)."""
        self._expected = max(0, self._expected - 1)
        self.note(f"the screen on its way is handled ({self._expected} left)")
        if self._held:
            self._app.call_later(self._flush)

    async def route(self, event: events.Key) -> None:
        """Deliver a key the app has read, now or once the keys before it are through."""
        self._held.append(event)
        await self._flush()

    async def returned(self, event: events.Key) -> None:
        """A key came back to the app and its bindings have run: the next one may go."""
        if event is self._in_flight:
            self.note(f"{_name(event)} back from its bindings")
            self._in_flight = None
            self._take_set_off()
            self._since = time.monotonic()
            await self._flush()

    def _way_done(self, now: float) -> bool:
        """The key delivered last, and what it set off, have been handled.

        The key itself waits in no queue on its way (a widget's, behind a slow message it
        is handling, or the app's, for its bindings to run); and its path is idle (no node
        on it holds or handles a message: the key between two queues, or a message it set
        off, such as a table's "row selected"). Whether it was stopped says nothing here:
        Textual stops a key at the screen and still hands it to the app.

        A key seen waiting in a queue is not lost, however long its widget is busy (a big
        page rendering on a loaded machine): it holds the next keys up to `LOAD_LIMIT`.
        Only a path kept busy without the key on it is given up after `HOLD_LIMIT`.
        """
        key = self._in_flight
        elapsed = now - self._since
        if key is not None and not self._ended:
            if any(_waits_in(node, key) for node in (*self._path, self._app)):
                if elapsed < LOAD_LIMIT:
                    return False  # in a queue, behind what that node is doing
            elif all(_gone(node) for node in self._path):
                pass  # lost with its widgets
            elif elapsed < HOLD_LIMIT:
                return False  # a node is handling it
            self.note(f"gave up on the way of {_name(key)} after {elapsed:.2f}s")
        if self._set_off:
            if elapsed < HOLD_LIMIT:
                return False  # what it set off (a table's "row selected") is not handled yet
            self.note(f"gave up on {len(self._set_off)} messages set off after {elapsed:.2f}s")
        self._done()
        return True

    def _take_set_off(self) -> None:
        """The key has ended (back from its bindings, or taken by a field): what waits in
        the queues on its path now is what it set off, to be handled before the next key
        goes. Messages queued later (a refresh, a batch of lines) do not hold keys, nor do
        Textual's own (`_caused`), as in `_add_posted`: a layout waiting there may be
        dropped unhandled for a newer one (Textual combines them in a queue), and the next
        key waited `HOLD_LIMIT` for it: "/" and a filter typed at once showed the filter
        2 s late."""
        self._set_off += [
            message
            for message in self._on_path()
            if _caused(message) and not any(message is sent for sent in self._set_off)
        ]
        if not self._set_off:
            self._done()

    def _on_path(self) -> Iterable[object]:
        """The messages waiting in the queues on the key's path now."""
        for node in self._path:
            if not _gone(node):
                yield from (message for message in _waiting(node) if message is not None)

    def _done(self) -> None:
        """The key in flight has gone its way: stop following it."""
        self._in_flight = None
        self._ended = False
        self._set_off = []
        for node in self._watched:
            node.message_signal.unsubscribe(self._app)
        self._watched = []

    def _follow(self, event: events.Key) -> None:
        """Follow `event` along its path: each node that handles it says so (its message
        signal), so a key a field took is known to have ended there at once."""
        self._done()
        self._in_flight = event
        for node in (*self._path, self._app):
            if node.is_running and not _gone(node):
                node.message_signal.subscribe(self._app, self._handled, immediate=True)
                self._watched.append(node)

    def _handled(self, message: object) -> None:
        """A node on the path has handled `message` (the key in flight, or something it set
        off). What that node's handler posted on the path in answer (the tree's "space
        opened" after its "node selected") is set off by the key too, and followed the same
        way. A message that waits in no queue on the way now went no further."""
        key = self._in_flight
        if key is not None and message is key:
            self._add_posted()
            if not any(_waits_in(node, key) for node in (*self._path, self._app)):
                self._ended = True
                self.note(f"{_name(key)} went no further")
                self._in_flight = None
                self._take_set_off()
            return
        if self._set_off and any(sent is message for sent in self._set_off):
            self._add_posted()
            if not any(_waits_in(node, message) for node in (*self._path, self._app)):
                self._set_off = [sent for sent in self._set_off if sent is not message]

    def _add_posted(self) -> None:
        """Follow what handlers posted on the path in answer (not a timer's tick)."""
        key = self._in_flight
        self._set_off += [
            posted
            for posted in self._on_path()
            if posted is not key
            and _caused(posted)
            and not any(posted is sent for sent in self._set_off)
        ]

    def _ready(self) -> bool:
        now = time.monotonic()
        if not self._way_done(now):
            return False
        if self._expected:
            if now - self._expected_since < LOAD_LIMIT:
                return False  # a screen is on its way
            self.note("gave up waiting for the screen on its way")
            self._expected = 0
        if self._workers:
            for worker, since in self._workers:
                if not worker.is_finished and now - since >= LOAD_LIMIT:
                    self.note(f"gave up waiting for worker {worker.name!r}")
            self._workers = [
                (w, t) for w, t in self._workers if not w.is_finished and now - t < LOAD_LIMIT
            ]
            if self._workers:
                return False  # its worker may still push a screen
        screen = self._app.screen
        if screen.stack_updates == 0 or not screen.is_mounted:
            return False  # not composed yet: nothing an action looks for is there
        if first_load_done(screen):
            self._waiting = None
            return True
        if self._waiting is not screen:
            self._waiting, self._waiting_since = screen, now
        if now - self._waiting_since > LOAD_LIMIT:
            self.note(f"gave up waiting for the first load of {type(screen).__name__}")
            return True
        return any(key.key == "escape" for key in self._held)  # stop waiting

    def _path_of(self) -> list[DOMNode]:
        try:
            screen = self._app.screen
        except Exception:
            return []
        focused = screen.focused
        return list(focused.ancestors_with_self) if focused is not None else [screen, self._app]

    def _where(self) -> str:
        screen = self._app.screen
        focused = screen.focused
        shown = type(focused).__name__ if focused is not None else "no focus"
        return f"{type(screen).__name__} ({shown})"

    async def _flush(self) -> None:
        if not self._app.is_running or not self._app.screen_stack:
            return  # quitting: nothing to deliver to
        while self._held and self._ready():
            event = self._held.pop(0)
            self._path = [node for node in self._path_of() if node is not self._app]
            self._since = time.monotonic()
            self.note(f"{_name(event)} to {self._where()}")
            self._follow(event)
            await self._deliver(event)
            if not event.is_forwarded and self._in_flight is event:
                self._done()  # a priority binding ran it: not on its way through widgets
            self._since = time.monotonic()
        if self._held and self._timer is None:
            self._timer = self._app.set_interval(POLL, self._tick, name="typeahead")
        elif not self._held and self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _tick(self) -> None:
        # A timer's callback runs in the timer's own task: the flush is handed to the app's
        # message loop, where keys are read and come back, so deliveries stay in order.
        self._app.call_later(self._flush)
