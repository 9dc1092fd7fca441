"""The first frame is a light shell; the browser replaces it once its code has loaded."""

from __future__ import annotations

import threading

import pytest

import docdeck.tui.app
from docdeck.tui.screens import MainScreen
from docdeck.tui.shell import ShellScreen
from tui.helpers import AppFactory, tree_of, visible_labels, wait_for_workers


async def test_the_shell_shows_first_then_the_browser_with_organizations(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    loaded = threading.Event()
    real_import = docdeck.tui.app._import_browser

    def slow_import() -> type[MainScreen]:
        loaded.wait(timeout=30)  # a slow disk: the browser's code is still loading
        return real_import()

    monkeypatch.setattr(docdeck.tui.app, "_import_browser", slow_import)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ShellScreen)
        assert not app.use_command_palette
        await pilot.press("question_mark")  # help lists the browser's keys: not yet
        await pilot.press("ctrl+p")
        assert isinstance(app.screen, ShellScreen)
        assert app.client is None  # connecting waits for the browser

        loaded.set()
        await wait_for_workers(pilot)

        assert isinstance(app.screen, MainScreen)
        assert app.screen_stack[0] is app.browser
        assert app.use_command_palette
        assert "Northwind Labs" in " ".join(visible_labels(tree_of(pilot)))


async def test_quit_works_while_the_browser_loads(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    loaded = threading.Event()
    monkeypatch.setattr(docdeck.tui.app, "_import_browser", lambda: loaded.wait(30) and MainScreen)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        assert app.return_code == 0
        assert not app.is_running
        loaded.set()
