"""The first frame is a light shell; the browser replaces it once its code has loaded."""

from __future__ import annotations

import pytest

import docdeck.tui.app
from docdeck.tui.screens import MainScreen
from docdeck.tui.shell import ShellScreen
from tui.helpers import AppFactory, tree_of, visible_labels, wait_for_workers


async def test_the_shell_shows_first_then_the_browser_with_organizations(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app()
    while_loading: dict[str, object] = {}
    real_import = docdeck.tui.app._import_browser

    def recording_import() -> type[MainScreen]:
        while_loading.update(
            screen=type(app.screen),
            palette=app.use_command_palette,
            help=app.check_action("help", ()),
            client=app.client,
        )
        return real_import()

    monkeypatch.setattr(docdeck.tui.app, "_import_browser", recording_import)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_workers(pilot)

        # The first frame was the shell: no palette, no help, no connection yet.
        assert while_loading == {
            "screen": ShellScreen,
            "palette": False,
            "help": False,
            "client": None,
        }
        assert isinstance(app.screen, MainScreen)
        assert app.screen_stack[0] is app.browser
        assert app.use_command_palette
        assert app.check_action("help", ())
        assert "Northwind Labs" in " ".join(visible_labels(tree_of(pilot)))
