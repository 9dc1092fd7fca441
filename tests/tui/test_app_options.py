"""What the launcher hands the app: a keymap, a theme, and the benchmark's ready file."""

from __future__ import annotations

from pathlib import Path

import pytest

from docdeck.tui.app import BENCH_READY_ENV
from docdeck.tui.screens import FormDialog, MainScreen
from tui.helpers import AppFactory, open_northwind, wait_for_workers


async def test_keymap_rebinds_an_action_by_its_id(make_app: AppFactory) -> None:
    app = make_app(keymap={"browser.new_space": "ctrl+n"})
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await pilot.press("n")
        assert isinstance(app.screen, MainScreen)
        await pilot.press("ctrl+n")
        assert isinstance(app.screen, FormDialog)


async def test_theme_from_the_config_is_applied(make_app: AppFactory) -> None:
    app = make_app(theme="gruvbox")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_workers(pilot)
        assert app.theme == "gruvbox"


async def test_an_unknown_theme_is_reported_not_fatal(make_app: AppFactory) -> None:
    app = make_app(theme="no-such-theme")
    async with app.run_test(size=(80, 24)) as pilot:
        # Looked at first: the warning expires after a few seconds, and a loaded machine
        # can take that long to connect and load the tree.
        await pilot.pause()
        assert any("no-such-theme" in n.message for n in app._notifications)
        await wait_for_workers(pilot)
        assert app.theme == "textual-dark"


async def test_ready_file_is_written_when_organizations_show(
    make_app: AppFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ready = tmp_path / "ready"
    monkeypatch.setenv(BENCH_READY_ENV, str(ready))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_workers(pilot)
        assert float(ready.read_text()) > 0
