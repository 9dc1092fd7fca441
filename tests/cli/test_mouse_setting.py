"""`[ui] mouse = false` reaches the app: Textual then leaves the mouse to the terminal."""

from __future__ import annotations

from typing import Any

import pytest

from docdeck._cli import tui as launcher


def test_the_setting_reaches_app_run(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def fake_run(self: object, **kwargs: Any) -> None:
        seen.update(kwargs)

    from docdeck.tui.app import DocdeckApp

    monkeypatch.setattr(launcher, "_has_terminal", lambda: True)
    monkeypatch.setattr(DocdeckApp, "run", fake_run)

    async def connect() -> None:
        raise AssertionError("not called: the app does not run")

    launch = launcher._Launch("x", mouse=False)
    launcher._run_app(connect, launch)  # type: ignore[arg-type]
    assert seen == {"mouse": False}
