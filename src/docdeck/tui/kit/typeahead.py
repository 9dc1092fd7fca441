"""Keys typed ahead reach what the keys before them opened, in order.

Textual routes a key the moment the app reads it: to the focused widget's queue, from
where it bubbles up to the screen and back to the app, which runs the bindings. The next
key is routed meanwhile, before the first one's binding has run. So "nDocs" arriving in
one burst (fast typing, or a laggy SSH link delivering keys together) sent "Docs" to the
tree behind the dialog that `n` opened, not to the dialog's title field: the title stayed
empty and `o`, `c`, `s` ran the tree's own bindings.

The app hands every key it reads to `KeyHold.route`. A key is delivered only when

- the key before it has finished its way: a widget consumed it (stopped it), a priority
  binding ran, or it came back to the app, whose bindings then ran (`returned`); and
- the active screen is set up: it has resumed (Textual's `Screen.stack_updates`), so it
  has focused its first field.

Keys that must wait are kept in order and delivered as soon as both hold, from the app's
own message loop. A key whose way is lost (its widget removed meanwhile) or a screen
that never finishes setting up holds the others back `HOLD_LIMIT` seconds at most.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from textual import events
from textual.app import App
from textual.timer import Timer

__all__ = ["KeyHold"]

HOLD_LIMIT = 0.5
"""Seconds a key is held back at most (a lost key's way, a screen that never resumes)."""

POLL = 0.004
"""How often held keys look again when nothing else happens."""


class KeyHold:
    def __init__(self, app: App[Any], deliver: Callable[[events.Key], Awaitable[None]]) -> None:
        self._app = app
        self._deliver = deliver
        self._held: list[events.Key] = []
        self._in_flight: events.Key | None = None
        self._since = 0.0
        """When the key in flight was delivered, or the screen began to be waited for."""
        self._timer: Timer | None = None

    @property
    def holding(self) -> int:
        """Keys waiting (for tests)."""
        return len(self._held)

    async def route(self, event: events.Key) -> None:
        """Deliver a key the app has read, now or once the keys before it are through."""
        self._held.append(event)
        await self._flush()

    async def returned(self, event: events.Key) -> None:
        """A key came back to the app and its bindings have run: the next one may go."""
        if event is self._in_flight:
            self._in_flight = None
            self._since = time.monotonic()
            await self._flush()

    def _ready(self) -> bool:
        now = time.monotonic()
        key = self._in_flight
        if key is not None and not key._stop_propagation and now - self._since < HOLD_LIMIT:
            return False  # still on its way
        self._in_flight = None
        try:
            screen = self._app.screen
        except Exception:  # no screen (starting, quitting): nothing to wait for
            return True
        return screen.stack_updates > 0 or now - self._since > HOLD_LIMIT

    async def _flush(self) -> None:
        while self._held and self._ready():
            event = self._held.pop(0)
            self._since = time.monotonic()
            await self._deliver(event)
            if event.is_forwarded:
                self._in_flight = event  # on its way through the widgets
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
