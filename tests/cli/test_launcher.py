"""The embedded sandbox: started as a child, connected to, and never left running."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pydantic import SecretStr

from docdeck._cli.locations import nothing_configured
from docdeck.cli import main
from docdeck.config import Account, load_settings, sandbox_db_path
from docdeck.launcher import SandboxError, SandboxProcess, open_account

pytestmark = pytest.mark.loopback


def _gone(pid: int, within: float = 20.0) -> bool:
    """True once no process has that pid (reaped or not ours to reap)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


async def test_sandbox_starts_with_the_demo_answers_and_shuts_down(tmp_path: Path) -> None:
    from docdeck.gateway import Client

    sandbox = SandboxProcess(tmp_path / "sandbox.db")
    sandbox.start()
    pid = sandbox.pid
    assert pid is not None
    try:
        connection = await sandbox.wait_ready()
        assert connection.base_url.startswith("http://127.0.0.1:")
        assert connection.token not in repr(connection)
        assert await sandbox.wait_ready() is connection
        async with Client(connection.base_url, connection.token) as client:
            page = await client.orgs.list()
        assert len(page.items) >= 2
    finally:
        sandbox.stop()

    assert sandbox.exit_code == 0  # it left on its own when its stdin closed
    assert _gone(pid)
    assert (tmp_path / "sandbox.db").is_file()


async def test_a_sandbox_that_dies_is_a_clear_error(tmp_path: Path) -> None:
    not_a_file = tmp_path / "db-dir"
    not_a_file.mkdir()
    sandbox = SandboxProcess(not_a_file)
    sandbox.start()

    with pytest.raises(SandboxError) as caught:
        await sandbox.wait_ready()

    message = str(caught.value)
    assert message.startswith("the sandbox server exited with code 2: docdeck: error: --db")
    assert "is a directory" in message
    sandbox.stop()


async def test_a_sandbox_that_does_not_start_in_time_is_stopped(tmp_path: Path) -> None:
    # No Python process can start, import the server and bind within a millisecond.
    sandbox = SandboxProcess(tmp_path / "sandbox.db", startup_timeout=0.001)
    sandbox.start()
    pid = sandbox.pid
    assert pid is not None

    with pytest.raises(
        SandboxError, match=r"did not start within 0\.001 s \(log: .*sandbox\.log\)"
    ):
        await sandbox.wait_ready()

    assert sandbox.pid is None
    assert _gone(pid)


def test_the_sandbox_exits_when_its_parent_dies(tmp_path: Path) -> None:
    parent_code = (
        "import asyncio, os, sys\n"
        "from pathlib import Path\n"
        "from docdeck.launcher import SandboxProcess\n"
        "sandbox = SandboxProcess(Path(sys.argv[1]))\n"
        "sandbox.start()\n"
        "asyncio.run(sandbox.wait_ready())\n"
        "print(sandbox.pid, flush=True)\n"
        "os._exit(0)  # no atexit, no stop(): a crash\n"
    )
    parent = subprocess.run(
        [sys.executable, "-c", parent_code, str(tmp_path / "sandbox.db")],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert _gone(int(parent.stdout.strip()))


async def test_remote_accounts_connect_without_a_sandbox(tmp_path: Path) -> None:
    account = Account("work", "profile", "https://docs.example.com", SecretStr("tok"))

    with open_account(account) as connect:
        client = await connect()
    try:
        assert client.base_url.startswith("https://docs.example.com")
    finally:
        await client.aclose()
    assert not sandbox_db_path().exists()


def test_docdeck_hands_the_app_a_working_sandbox_and_stops_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`docdeck` wiring: label, connect() to the demo, keymap and theme from the config."""
    import asyncio

    seen: dict[str, object] = {}

    class RecordingApp:
        def __init__(self, connect, account_label, *, keymap, theme) -> None:  # type: ignore[no-untyped-def]
            seen.update(label=account_label, keymap=keymap, theme=theme)
            self.connect = connect
            self.return_code = 0

        def run(self) -> None:
            async def browse() -> None:
                client = await self.connect()
                async with client:
                    seen["orgs"] = [org.title for org in (await client.orgs.list()).items]

            asyncio.run(browse())

    started: list[int] = []
    real_start = SandboxProcess.start

    def recording_start(self: SandboxProcess) -> None:
        real_start(self)
        assert self.pid is not None
        started.append(self.pid)

    monkeypatch.setattr(SandboxProcess, "start", recording_start)
    monkeypatch.setattr("docdeck.tui.app.DocdeckApp", RecordingApp)
    monkeypatch.setattr("docdeck._cli.tui._has_terminal", lambda: True)
    monkeypatch.setenv("DOCDECK_UI__THEME", "nord")

    assert main(["tui"]) == 0

    assert seen["label"] == "sandbox"
    assert seen["theme"] == "nord"
    assert seen["keymap"] == {}
    assert len(seen["orgs"]) >= 2  # type: ignore[arg-type]
    assert sandbox_db_path().is_file()
    assert len(set(started)) == 1  # one child, however often start() was asked
    assert _gone(started[0])


def test_a_config_error_after_the_early_start_stops_the_sandbox(
    monkeypatch: pytest.MonkeyPatch, config_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config_file.parent.mkdir(parents=True)
    config_file.write_text('[ui]\ncolour = "red"\n')  # valid TOML, so the sandbox starts early
    started: list[SandboxProcess] = []
    real_start = SandboxProcess.start

    def recording_start(self: SandboxProcess) -> None:
        real_start(self)
        started.append(self)

    monkeypatch.setattr(SandboxProcess, "start", recording_start)

    assert main([]) == 2

    assert "ui.colour: unknown setting" in capsys.readouterr().err
    assert len(started) == 1
    assert started[0].pid is None  # stopped and forgotten
    assert started[0].exit_code is not None


def test_with_nothing_configured_the_app_gets_the_defaults(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fast path (no config file, no DOCDECK_ settings) hands what the full one would."""
    seen: dict[str, object] = {}

    class RecordingApp:
        def __init__(self, connect, account_label, *, keymap, theme) -> None:  # type: ignore[no-untyped-def]
            seen.update(label=account_label, keymap=keymap, theme=theme)
            self.return_code = 0

        def run(self) -> None:
            pass

    monkeypatch.setattr("docdeck.tui.app.DocdeckApp", RecordingApp)
    monkeypatch.setattr("docdeck._cli.tui._has_terminal", lambda: True)
    assert nothing_configured(os.environ)

    assert main([]) == 0

    defaults = load_settings()
    assert seen == {"label": "sandbox", "keymap": dict(defaults.keymap), "theme": None}
    assert defaults.ui.theme == "textual-dark"  # Textual's own default: leaving it unset is equal


@pytest.mark.parametrize(
    ("env", "write_file", "expected"),
    [
        ({}, False, True),
        ({"DOCDECK_DATA_DIR": "/elsewhere", "DOCDECK_DEBUG": "1"}, False, True),
        ({}, True, False),
        ({"DOCDECK_UI__THEME": "nord"}, False, False),
        ({"docdeck_keymap": '{"app.quit": "ctrl+q"}'}, False, False),
        ({"DOCDECK_DEFAULT_PROFILE": "work"}, False, False),
    ],
)
def test_nothing_configured_means_no_file_and_no_setting_variables(
    config_file: Path, env: dict[str, str], write_file: bool, expected: bool
) -> None:
    if write_file:
        config_file.parent.mkdir(parents=True)
        config_file.write_text("[ui]\n")
    assert nothing_configured(env) is expected
