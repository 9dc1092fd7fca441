"""`KeyHold` follows a key's way exactly, however long a widget on it is busy.

A key that waits in a busy widget's queue (a big page rendering on a loaded machine, a
slow handler) is not lost: the keys after it wait until its bindings have run, so a key
that opens a screen still gets the next keys to that screen. `HOLD_LIMIT` only gives up on
a path kept busy without the key on it.
"""

from __future__ import annotations

import asyncio
from typing import ClassVar, TypeVar

import pytest
from textual import events, messages
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input

from docdeck.tui.kit import typeahead
from tui.helpers import AppFactory, burst, wait_until

BUSY = 0.8
"""Seconds the widget is busy: several times the shortened `HOLD_LIMIT`."""


W = TypeVar("W", bound=Widget)


async def _in_front(pilot: Pilot[None], screen: Screen[None], kind: type[W]) -> W:
    """`screen` pushed, once its widget of `kind` has focus: that widget."""
    await pilot.app.push_screen(screen)
    await wait_until(
        pilot, lambda: isinstance(pilot.app.screen.focused, kind), f"focus on {kind.__name__}"
    )
    return screen.query_one(kind)


class Busy(Message):
    """Keeps the widget's queue busy: it is handled slowly."""


class Slow(Widget, can_focus=True):
    """Handles `a` by setting off a slow message; records the keys it is given."""

    def __init__(self) -> None:
        super().__init__()
        self.keys: list[str] = []

    def on_key(self, event: events.Key) -> None:
        self.keys.append(event.key)
        if event.key == "a":
            self.post_message(Busy())

    async def on_busy(self, message: Busy) -> None:
        await asyncio.sleep(BUSY)


class Target(Screen[None]):
    """The screen `b` opens: records the keys it is given."""

    def __init__(self) -> None:
        super().__init__()
        self.keys: list[str] = []

    def compose(self) -> ComposeResult:
        yield Widget()

    def on_key(self, event: events.Key) -> None:
        self.keys.append(event.key)


class Front(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("b", "open_target", "Open")]

    def __init__(self) -> None:
        super().__init__()
        self.target = Target()

    def compose(self) -> ComposeResult:
        yield Slow()

    def on_mount(self) -> None:
        self.query_one(Slow).focus()

    def action_open_target(self) -> None:
        self.app.push_screen(self.target)


async def test_a_key_waiting_behind_a_busy_widget_keeps_the_next_keys_for_its_screen(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Shortened so the widget stays busy for several times the limit, as a loaded machine
    # makes a page render outlast the real one.
    monkeypatch.setattr(typeahead, "HOLD_LIMIT", BUSY / 4)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        front = Front()
        slow = await _in_front(pilot, front, Slow)
        # `a` sets the widget busy; `b` waits in its queue behind that; `x` is for the
        # screen `b` opens.
        await burst(pilot, ["a", "b", "x"])
        await wait_until(pilot, lambda: app._key_hold.holding == 0, "every key is delivered")
        await wait_until(pilot, lambda: app.screen is front.target, "b opened its screen")
        await wait_until(pilot, lambda: "x" in front.target.keys or "x" in slow.keys, "x lands")
        trace = "\n".join(app._key_hold.trace)
        assert slow.keys == ["a", "b"], trace
        assert front.target.keys == ["x"], trace


class Field(Screen[None]):
    def compose(self) -> ComposeResult:
        yield Input(id="field")


async def test_keys_a_field_takes_end_there_and_hold_nothing_back(make_app: AppFactory) -> None:
    """Every letter typed into a field is known to end in it (no limit waited out)."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = Field()
        await app.push_screen(screen)
        await wait_until(pilot, lambda: isinstance(app.screen.focused, Input), "focus on field")
        text = "typed fast into a field"
        await burst(pilot, ["space" if c == " " else c for c in text])
        await wait_until(pilot, lambda: app._key_hold.holding == 0, "every key is delivered")
        field = screen.query_one(Input)
        await wait_until(pilot, lambda: field.value == text, "the field holds every letter")
        trace = list(app._key_hold.trace)
        assert not [step for step in trace if "gave up" in step], "\n".join(trace)
        assert sum("went no further" in step for step in trace) == len(text), "\n".join(trace)


async def test_a_key_back_from_the_widgets_while_the_app_closes_is_dropped(
    make_app: AppFactory,
) -> None:
    """A key still bubbling when the last screen is gone (quitting mid-storm) reaches the
    app's bindings with no screen to bind on: it is dropped, not an internal error."""
    app = make_app()
    async with app.run_test(size=(80, 24)):
        pass
    assert not app._screen_stack
    late = events.Key("down", None)
    late._set_forwarded()
    await app.on_event(late)  # raised ScreenStackError before


class First(Message):
    """What the key's action sets off (a tree's "node selected")."""


class Second(Message):
    """What the first message's handler posts in turn (the tree's "space opened")."""


class Chain(Widget, can_focus=True):
    """`c` sets off a message whose handler posts another, whose handler opens a screen."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("c", "start", "Start")]

    def __init__(self, target: Screen[None]) -> None:
        super().__init__()
        self.target = target
        self.keys: list[str] = []

    def on_key(self, event: events.Key) -> None:
        self.keys.append(event.key)

    def action_start(self) -> None:
        self.post_message(First())

    async def on_first(self, message: First) -> None:
        await asyncio.sleep(0.05)
        self.post_message(Second())

    async def on_second(self, message: Second) -> None:
        await asyncio.sleep(0.05)
        await self.app.push_screen(self.target)


class ChainFront(Screen[None]):
    def __init__(self) -> None:
        super().__init__()
        self.target = Target()

    def compose(self) -> ComposeResult:
        yield Chain(self.target)

    def on_mount(self) -> None:
        self.query_one(Chain).focus()


async def test_what_a_key_sets_off_includes_what_its_messages_handlers_post(
    make_app: AppFactory,
) -> None:
    """Enter on a space: the tree's "node selected" is handled by posting "space opened",
    whose handler opens the space screen. A key typed with the Enter waits for the whole
    chain, so it reaches the space screen, not the tree below it."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        front = ChainFront()
        chain = await _in_front(pilot, front, Chain)
        await burst(pilot, ["c", "x"])
        await wait_until(pilot, lambda: app._key_hold.holding == 0, "every key is delivered")
        await wait_until(pilot, lambda: app.screen is front.target, "c opened its screen")
        await wait_until(pilot, lambda: "x" in front.target.keys or "x" in chain.keys, "x lands")
        trace = "\n".join(app._key_hold.trace)
        assert chain.keys == ["c"], trace
        assert front.target.keys == ["x"], trace
        assert not [step for step in app._key_hold.trace if "gave up" in step], trace


class Relayout(Widget, can_focus=True):
    """Takes `a` and asks for two layouts, as a widget whose size changes with what was typed
    does: Textual runs the second and drops the first (a layout replaces the one before it in
    a queue), so the first is never handled."""

    def __init__(self) -> None:
        super().__init__()
        self.keys: list[str] = []

    def on_key(self, event: events.Key) -> None:
        self.keys.append(event.key)
        event.stop()
        if event.key == "a":
            self.post_message(messages.Layout(self))
            self.post_message(messages.Layout(self))


class RelayoutFront(Screen[None]):
    def compose(self) -> ComposeResult:
        yield Relayout()

    def on_mount(self) -> None:
        self.query_one(Relayout).focus()


async def test_textuals_own_messages_on_the_way_hold_no_key_back(make_app: AppFactory) -> None:
    """`/` and a filter typed at once: the field's first letter re-laid the tree out, and
    the letters after it waited `HOLD_LIMIT` (2 s) for a layout message Textual had dropped
    for a newer one. Like a refresh or a timer's tick, Textual's own messages are not what a
    key set off: only the messages handlers post are followed."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        widget = await _in_front(pilot, RelayoutFront(), Relayout)
        await burst(pilot, ["a", "x"])
        await wait_until(pilot, lambda: widget.keys == ["a", "x"], "both keys land")
        trace = list(app._key_hold.trace)
        assert not [step for step in trace if "gave up" in step], "\n".join(trace)
