"""What the launcher hands the app: a keymap, a theme, and the benchmark's ready file."""

from __future__ import annotations

from pathlib import Path

import pytest

from docdeck.tui.app import BENCH_READY_ENV
from docdeck.tui.kit.dialogs.form import FormDialog
from docdeck.tui.orgs import MainScreen
from tui.helpers import AppFactory, open_northwind, wait_for_workers


async def test_keymap_rebinds_an_action_by_its_id(make_app: AppFactory) -> None:
    app = make_app(keymap={"browser.new_space": "ctrl+n"})
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await pilot.press("n")
        assert isinstance(app.screen, MainScreen)
        await pilot.press("ctrl+n")
        assert isinstance(app.screen, FormDialog)


async def test_a_keymap_key_that_cannot_be_pressed_is_reported_and_the_default_kept(
    make_app: AppFactory,
) -> None:
    app = make_app(keymap={"browser.new_space": "ctrl+"})
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert any(
            "'browser.new_space'" in n.message and "no key after" in n.message
            for n in app._notifications
        )
        await open_northwind(pilot)
        await pilot.press("n")  # the default key still works
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


async def test_a_theme_picked_in_the_palette_is_saved_and_restored(
    make_app: AppFactory, config_dir: Path
) -> None:
    from docdeck.config import load_settings

    (config_dir).mkdir(parents=True, exist_ok=True)
    users_file = (
        '# my settings\n\n[ui]\ntheme = "textual-dark"   # until I pick one\nmouse = true\n\n'
        '[keymap]\n"browser.new_space" = "ctrl+n"  # like my editor\n'
    )
    (config_dir / "config.toml").write_text(users_file)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        app.screen.query_one("CommandInput").value = "theme"  # type: ignore[attr-defined]
        await wait_for_workers(pilot)
        await pilot.pause(0.3)
        await pilot.press("enter")  # Textual's "Change theme" opens the theme list
        await wait_for_workers(pilot)
        app.screen.query_one("CommandInput").value = "nord"  # type: ignore[attr-defined]
        await wait_for_workers(pilot)
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_for_workers(pilot)
        await pilot.pause()
        assert app.theme == "nord"
        assert any("saved" in n.title.lower() for n in app._notifications)
    settings = load_settings(config_dir / "config.toml")
    assert settings.ui.theme == "nord"
    assert settings.keymap == {"browser.new_space": "ctrl+n"}
    # Only the theme's value changed: comments and the explicit `mouse = true` stay.
    assert (config_dir / "config.toml").read_text() == users_file.replace(
        '"textual-dark"', '"nord"'
    )

    restored = make_app(theme=settings.ui.theme)
    async with restored.run_test(size=(80, 24)) as pilot:
        await wait_for_workers(pilot)
        assert restored.theme == "nord"


async def test_the_palette_lists_docdecks_commands_first_with_their_keys(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await pilot.press("ctrl+p")
        await pilot.press("down")  # the list of every command, before anything is typed
        await wait_for_workers(pilot)
        await pilot.pause(0.4)
        options = app.screen.query_one("CommandList")
        prompts = [
            str(options.get_option_at_index(i).prompt).splitlines()[0]  # type: ignore[attr-defined]
            for i in range(options.option_count)  # type: ignore[attr-defined]
        ]
        assert prompts[0] == "Help  ?"
        assert "New space  n" in prompts[:5]
        themes = next(i for i, p in enumerate(prompts) if "theme" in p.lower())
        ours = max(i for i, p in enumerate(prompts) if p.startswith("Refresh"))
        assert ours < themes


async def test_an_unknown_keymap_id_is_a_warning(make_app: AppFactory) -> None:
    app = make_app(keymap={"browser.new_spaec": "ctrl+n", "browser.new_space": "ctrl+n"})
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert any(
            "browser.new_spaec" in n.message and n.severity == "warning" for n in app._notifications
        )
        await open_northwind(pilot)
        await pilot.press("ctrl+n")
        assert isinstance(app.screen, FormDialog)
