"""Full garbage-collector passes kept off the moments someone is reading.

Python's full (generation 2) collection walks every tracked object and stops the event loop
while it does. After the browser's imports the heap holds hundreds of thousands of objects
(modules, classes, pydantic validators, Textual's styles) alive until exit, and a page being
read adds thousands of widgets; full passes took 0.1-2 s at random while a 1 MB page opened
and scrolled (`bench/space_screen.py` records them: they were every loop stall over 100 ms).

Two things, both set up once by `IdleCollector`:
- `keep_long_lived` freezes the heap right after the imports of a part of the app
  (`gc.freeze()`: what is alive then is nearly all long-lived, and full passes skip it;
  the little garbage present then is kept, once, the trade `docdeck serve` makes too);
- full passes no longer start by themselves on every few young collections (the third
  threshold is raised 1,000-fold, a safety net for memory); they run when no key or mouse
  event came for `IDLE_SECONDS` and no worker is running (a page chosen and still loading
  or rendering is a screen someone is waiting for), where a pause cannot drop a frame.
  Once settled (input idle, nothing in flight, nothing new), the ticks sleep until the next
  input (`kit.paced`): garbage made later without any input waits for it, or for the safety
  net.
Young collections (generations 0 and 1) stay automatic: they are short.

During start-up there is no collection at all (`hold_collections` ... `release_collections`):
nearly everything allocated from the launch to the first live view (modules, classes,
validators, styles, the first widgets) lives until exit, and the 200-odd young collections
that walked it took 60-90 ms of a start measured at ~900 ms. The hold ends when the first
view is live (or failed), or after `HOLD_AT_MOST_S` whatever happens; the heap is then frozen,
as above, and the interpreter collects as usual.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

__all__ = [
    "HOLD_AT_MOST_S",
    "IDLE_SECONDS",
    "IdleCollector",
    "hold_collections",
    "keep_long_lived",
    "release_collections",
]

IDLE_SECONDS = 3.0
"""No input for this long: a full pass may run."""

FULL_PASS_EVERY = 10_000
"""Young (generation 1) collections before a full pass runs anyway (Python's default: 10;
scrolling a big page makes about one every 20 ms)."""

HOLD_AT_MOST_S = 10.0
"""The longest the start-up goes without collections (a first view that never arrives)."""

_kept: set[str] = set()
_held: list[bool] = []


def hold_collections() -> None:
    """No garbage collection from now until `release_collections` (start-up)."""
    if gc.isenabled():
        gc.disable()
        _held.append(True)


def release_collections() -> None:
    """End a `hold_collections`: what start-up built is frozen, collections resume. Does
    nothing when nothing is held (so it can be called on every path that ends a start)."""
    if not _held:
        return
    _held.clear()
    keep_long_lived("start-up")
    gc.enable()


def keep_long_lived(after: str) -> None:
    """Freeze the heap once per `after` (a name for the imports just done)."""
    if after in _kept:
        return
    _kept.add(after)
    gc.freeze()


class IdleCollector:
    """Runs the full passes the interpreter no longer starts often, when input is idle."""

    def __init__(self, busy: Callable[[], bool] = lambda: False) -> None:
        self.busy = busy
        """True while work is in flight (a page loading or rendering): the screen is about
        to change, and a pass then is a frame frozen that someone is waiting for."""
        self.last_input = time.monotonic()
        self._young_at_last_pass = 0
        self._young = 0
        self._threshold = gc.get_threshold()
        gc.set_threshold(self._threshold[0], self._threshold[1], FULL_PASS_EVERY)
        gc.callbacks.append(self._count)

    def _count(self, phase: str, info: dict[str, Any]) -> None:
        if phase != "stop":
            return
        if info.get("generation") == 1:
            self._young += 1
        elif info.get("generation") == 2:
            self._young_at_last_pass = self._young

    def input_seen(self) -> None:
        self.last_input = time.monotonic()

    def quiet(self) -> bool:
        """No input for `IDLE_SECONDS` and no work in flight."""
        return time.monotonic() - self.last_input >= IDLE_SECONDS and not self.busy()

    def tick(self) -> bool:
        """Called every second or so: a full pass when input is idle and there was
        anything new to look at since the last one. True when settled: quiet and nothing
        new to collect (the pass just run, or none needed), so the ticks may stop until the
        next input (`kit.paced.InputPaced`)."""
        if not self.quiet():
            return False
        if self._young != self._young_at_last_pass:
            gc.collect()
        return True

    def close(self) -> None:
        """The interpreter's own schedule again (the app is leaving)."""
        gc.set_threshold(*self._threshold)
        if self._count in gc.callbacks:
            gc.callbacks.remove(self._count)
