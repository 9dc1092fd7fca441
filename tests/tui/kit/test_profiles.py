"""A profile switch from the command palette: "Switch profile…" lists the profiles of
config.toml and the embedded sandbox; choosing one ends the session with the account to
open next, which `docdeck` then opens (`_cli/tui.py`)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.command import CommandPalette
from textual.pilot import Pilot

from docdeck._cli import tui as cli_tui
from docdeck.config import Account
from docdeck.tui.kit.chooser import Chooser
from docdeck.tui.kit.in_flight import WRITE_GROUP
from docdeck.tui.kit.profiles import SwitchProfile, profile_choices
from tui.helpers import AppFactory, wait_for_organizations, wait_until

CONFIG = """
[profiles.work]
base_url = "https://docs.work.example"
token = "work-token"

[profiles.home]
base_url = "https://docs.home.example"
token = "home-token"
"""


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "config"
    directory.mkdir()
    (directory / "config.toml").write_text(CONFIG)
    monkeypatch.setenv("DOCDECK_CONFIG_DIR", str(directory))
    return directory / "config.toml"


async def _switch_profile(pilot: Pilot[None]) -> None:
    await pilot.press("ctrl+p")
    await wait_until(pilot, lambda: CommandPalette.is_open(pilot.app), "the palette opens")
    await pilot.press(*"switch profile")
    await pilot.pause()
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, Chooser), "the accounts")


def test_the_choices_are_the_profiles_then_the_sandbox_the_open_one_marked(
    config: Path,
) -> None:
    items = profile_choices("work", "profile")
    labels = [str(label) for label, _ in items]
    assert labels == [
        "home  docs.home.example",
        "work  docs.work.example  (open now)",
        "sandbox  the embedded sandbox on this machine",
    ]
    assert [value for _, value in items] == [SwitchProfile("home"), None, SwitchProfile(None)]
    on_sandbox = profile_choices("sandbox", "sandbox")
    assert on_sandbox[-1][1] is None and str(on_sandbox[-1][0]).endswith("(open now)")


async def test_choosing_a_profile_ends_the_session_with_it(
    make_app: AppFactory, config: Path
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_organizations(pilot)
        await _switch_profile(pilot)
        chooser = app.screen
        assert isinstance(chooser, Chooser)
        assert next(value for _, value in chooser.items) == SwitchProfile("home")
        await pilot.press(*"work", "enter")
        await wait_until(pilot, lambda: not app.is_running, "the app ends")
    assert app.return_value == SwitchProfile("work")


async def test_a_write_on_its_way_holds_the_switch_back(make_app: AppFactory, config: Path) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await wait_for_organizations(pilot)
        landed = asyncio.Event()
        app.run_worker(landed.wait(), name="Saving the page", group=f"{WRITE_GROUP}1-save")
        await _switch_profile(pilot)
        await pilot.press(*"home", "enter")
        await wait_until(pilot, lambda: not isinstance(app.screen, Chooser), "the choice")
        await pilot.pause()
        assert app.is_running
        messages = [n.message for n in app._notifications]
        assert any("“Saving the page” is still being saved" in m for m in messages), messages
        landed.set()


async def test_a_config_file_that_does_not_read_is_named_and_the_session_stays(
    make_app: AppFactory, config: Path
) -> None:
    config.write_text("[profiles.work\nbase_url = 1\n")
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await wait_for_organizations(pilot)
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: CommandPalette.is_open(pilot.app), "the palette opens")
        await pilot.press(*"switch profile")
        await pilot.pause()
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(app._notifications), "a notice")
        assert app.is_running and not isinstance(app.screen, Chooser)
        notice = list(app._notifications)[-1]
        assert notice.title == "config.toml does not read", notice


def test_docdeck_opens_the_chosen_account_next(
    config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loop in `docdeck`: the profile chosen, then the sandbox, each opened in turn; the
    environment's account no longer wins once the user has chosen."""
    monkeypatch.setenv("DOCDECK_BASE_URL", "https://env.example")
    monkeypatch.setenv("DOCDECK_TOKEN", "env-token")
    opened: list[Account] = []
    outcomes: list[Any] = [SwitchProfile("home"), SwitchProfile(None), 0]

    class _Opened:
        def __init__(self, account: Account, **_: object) -> None:
            opened.append(account)

        def __enter__(self) -> object:
            return object()

        def __exit__(self, *_: object) -> None:
            return None

    monkeypatch.setattr("docdeck.launcher.open_account", _Opened)
    monkeypatch.setattr(cli_tui, "_run_app", lambda connect, launch: outcomes.pop(0))
    monkeypatch.setattr(cli_tui, "_require_terminal", lambda: None)
    monkeypatch.setattr(cli_tui, "_has_terminal", lambda: False)
    args = type("Args", (), {"base_url": None, "token": None, "profile": None})()
    assert cli_tui.run_tui(args) == 0  # type: ignore[arg-type]
    assert [(a.label, a.source) for a in opened] == [
        ("env.example", "environment"),
        ("home", "profile"),
        ("sandbox", "sandbox"),
    ]
