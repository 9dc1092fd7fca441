"""`Beneath` (what `docdeck open` puts beneath its target once the target is drawn) when the
app closes before that: its timer found no screen and raised `ScreenStackError` out of the
app's shutdown (seen in a clean-clone `make test`, a test leaving `docdeck open` early)."""

from __future__ import annotations

from typing import Any

from textual.app import ScreenStackError

from docdeck.tui.kit.beneath import Beneath


class _Timer:
    def __init__(self) -> None:
        self.stopped = False

    def stop(self) -> None:
        self.stopped = True


class _ClosingApp:
    """An app whose screens are gone (it is closing): `screen` raises, as Textual's does."""

    def __init__(self) -> None:
        self.timer = _Timer()

    def set_interval(self, *args: Any, **kwargs: Any) -> _Timer:
        return self.timer

    @property
    def screen(self) -> Any:
        raise ScreenStackError("No screens on stack")


def test_a_look_while_the_app_closes_installs_nothing_and_stops() -> None:
    app = _ClosingApp()
    installed: list[str] = []
    beneath = Beneath(app, opening=lambda: False)  # type: ignore[arg-type]
    beneath.later(lambda: installed.append("the tree"))
    beneath._look()
    assert installed == []
    assert not beneath.waiting
    assert app.timer.stopped
