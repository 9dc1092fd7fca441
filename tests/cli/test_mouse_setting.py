"""`[ui] mouse = false` reaches the app: Textual then leaves the mouse to the terminal."""

from __future__ import annotations

from typing import Any

import pytest

from docdeck._cli import tui as launcher


def test_the_setting_reaches_textual(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def textual_run(self: object, **kwargs: Any) -> None:
        seen.update(kwargs)

    from textual.app import App

    monkeypatch.setattr(launcher, "_has_terminal", lambda: True)
    monkeypatch.setattr(App, "run", textual_run)

    async def connect() -> None:
        raise AssertionError("not called: the app does not run")

    launcher._run_app(connect, launcher._Launch("x", mouse=False))  # type: ignore[arg-type]
    assert seen == {"mouse": False}
    launcher._run_app(connect, launcher._Launch("x"))  # type: ignore[arg-type]
    assert seen == {"mouse": True}
