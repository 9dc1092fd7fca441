"""The shared embedded sandbox: reused, replaced, cleaned up, shared, stopped when idle."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from pydantic import SecretStr

import docdeck.launcher
from docdeck._cli import sandbox_state as files
from docdeck._cli.locations import nothing_configured
from docdeck.cli import main
from docdeck.config import Account, load_settings, sandbox_db_path
from docdeck.launcher import EmbeddedSandbox, SandboxError, open_account, stop_sandbox

pytestmark = pytest.mark.loopback


def _gone(pid: int, within: float = 20.0) -> bool:
    """True once no process has that pid (reaped or not ours to reap)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                return True
        except ChildProcessError:
            pass
        if not files.pid_alive(pid):
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def data_dir(isolated_dirs: tuple[Path, Path]) -> Path:
    """The data directory (the autouse fixture stops any sandbox left running there)."""
    return isolated_dirs[1]


def _sandbox(data_dir: Path, **kwargs: float) -> EmbeddedSandbox:
    return EmbeddedSandbox(data_dir / "sandbox.db", **kwargs)


async def test_a_running_sandbox_is_reused_and_answers(data_dir: Path) -> None:
    from docdeck.gateway import Client

    first = _sandbox(data_dir).ensure()
    second = _sandbox(data_dir).ensure()

    assert not first.reused
    assert second.reused
    assert second.pid == first.pid and second.base_url == first.base_url
    assert first.base_url.startswith("http://127.0.0.1:")
    assert first.token not in repr(first)
    async with Client(second.base_url, second.token) as client:
        page = await client.orgs.list()
    assert len(page.items) >= 2


def test_state_and_token_files_are_private(data_dir: Path) -> None:
    connection = _sandbox(data_dir).ensure()

    for name in ("sandbox.json", "sandbox.token"):
        assert stat.S_IMODE((data_dir / name).stat().st_mode) == 0o600, name
    state = json.loads((data_dir / "sandbox.json").read_text())
    assert state["pid"] == connection.pid
    assert state["version"] == docdeck.__version__
    assert isinstance(state["schema"], int) and state["schema"] >= 1
    assert connection.token not in json.dumps(state)
    assert (data_dir / "sandbox.token").read_text().strip() == connection.token


def test_a_sandbox_of_another_version_is_replaced(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = _sandbox(data_dir).ensure()
    monkeypatch.setattr(docdeck.launcher, "__version__", "99.0.0")

    new = _sandbox(data_dir).ensure()

    assert not new.reused
    assert new.pid != old.pid
    assert _gone(old.pid)
    assert files.read_state(data_dir).version == docdeck.__version__  # what the server says


def test_a_sandbox_of_another_schema_is_replaced(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = _sandbox(data_dir).ensure()
    monkeypatch.setattr(docdeck.launcher, "_schema", lambda: 10_000)

    new = _sandbox(data_dir).ensure()

    assert new.pid != old.pid and not new.reused
    assert _gone(old.pid)


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _write_state(data_dir: Path, pid: int, port: int) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    state = files.SandboxState(pid, port, "x.db", docdeck.__version__, 1, 60.0, time.time())
    files.write_state(data_dir, state, "stale-token")


def test_a_stale_state_file_is_cleaned_up_without_a_word(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write_state(data_dir, _dead_pid(), 9)

    connection = _sandbox(data_dir).ensure()

    assert not connection.reused
    assert connection.token != "stale-token"
    assert files.read_state(data_dir).pid == connection.pid
    assert capsys.readouterr() == ("", "")


def test_a_port_now_used_by_another_program_is_left_to_it(data_dir: Path) -> None:
    """The recorded pid is alive (it is ours, the test's) and its port answers, but not as a
    sandbox: the state is forgotten, nothing is killed, a new sandbox starts elsewhere."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    answered: list[bytes] = []

    def serve() -> None:
        conn, _ = listener.accept()
        with conn:
            answered.append(conn.recv(1024))
            conn.sendall(b'HTTP/1.0 200 OK\r\n\r\n{"hello": "world"}')

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    _write_state(data_dir, os.getpid(), port)
    try:
        connection = _sandbox(data_dir).ensure()
    finally:
        listener.close()

    assert answered and answered[0].startswith(b"GET /_docdeck/sandbox")
    assert connection.pid != os.getpid() and not connection.reused
    assert connection.base_url != f"http://127.0.0.1:{port}"


def test_two_docdecks_started_at_once_share_one_sandbox(data_dir: Path) -> None:
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from docdeck.launcher import EmbeddedSandbox\n"
        "print(EmbeddedSandbox(Path(sys.argv[1])).ensure().pid, flush=True)\n"
    )
    command = [sys.executable, "-c", code, str(data_dir / "sandbox.db")]
    starts = [subprocess.Popen(command, stdout=subprocess.PIPE, text=True) for _ in range(2)]
    pids = [int(start.communicate(timeout=60)[0]) for start in starts]

    assert pids[0] == pids[1]
    assert files.read_state(data_dir).pid == pids[0]


def test_the_sandbox_stops_after_its_idle_time_but_not_while_a_docdeck_uses_it(
    data_dir: Path,
) -> None:
    user = _sandbox(data_dir, idle_timeout=0.4)
    connection = user.ensure()
    time.sleep(1.5)  # well past the idle time, but a docdeck holds a lease
    assert files.pid_alive(connection.pid)
    assert files.probe(int(connection.base_url.rsplit(":", 1)[1])) is not None

    user.release()  # that docdeck quits

    assert _gone(connection.pid, within=10)
    assert files.read_state(data_dir) is None
    assert not (data_dir / "sandbox.token").exists()


async def test_a_sandbox_that_cannot_start_is_a_clear_error(data_dir: Path) -> None:
    not_a_file = data_dir / "db-dir"
    not_a_file.mkdir(parents=True)
    sandbox = EmbeddedSandbox(not_a_file)

    with pytest.raises(SandboxError) as caught:
        await sandbox.wait_ready()

    message = str(caught.value)
    assert message.startswith("the sandbox server exited with code 2: docdeck: error: --db")
    assert "is a directory" in message


async def test_a_sandbox_that_does_not_start_in_time_is_stopped(data_dir: Path) -> None:
    # No Python process can start, import the server and bind within a millisecond.
    sandbox = _sandbox(data_dir, startup_timeout=0.001)

    with pytest.raises(
        SandboxError, match=r"did not start within 0\.001 s \(log: .*sandbox\.log\)"
    ):
        await sandbox.wait_ready()
    assert files.read_state(data_dir) is None


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_sandbox_ended_by_a_signal_leaves_no_state(data_dir: Path, sig: int) -> None:
    # uvicorn re-raises SIGTERM and SIGINT after its graceful shutdown; the
    # server's own cleanup after `serve()` never runs then. Nothing may be left
    # behind naming a dead process, whoever sent the signal.
    connection = _sandbox(data_dir).ensure()
    assert files.read_state(data_dir) is not None

    os.kill(connection.pid, sig)

    assert _gone(connection.pid, within=10)
    assert files.read_state(data_dir) is None
    assert not (data_dir / "sandbox.token").exists()


def test_sandbox_status_and_stop(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sandbox", "status"]) == 3
    assert "no sandbox server is running" in capsys.readouterr().out

    user = _sandbox(data_dir)  # holds its lease while it lives
    connection = user.ensure()
    assert main(["sandbox", "status"]) == 0
    out = capsys.readouterr().out
    assert f"pid       {connection.pid}" in out
    assert f"url       {connection.base_url}/v1" in out
    assert str((data_dir / "sandbox.db").resolve()) in out
    assert f"docdeck {docdeck.__version__} (schema " in out
    assert "idle" in out and "in use by a running docdeck" in out
    assert connection.token not in out
    user.release()
    assert main(["sandbox", "status"]) == 0
    # 15 min by default; a second may or may not have passed since the release.
    assert re.search(r"stops in 1[45] min", capsys.readouterr().out)

    assert main(["sandbox", "stop"]) == 0
    assert f"sandbox server stopped (pid {connection.pid}" in capsys.readouterr().out
    assert _gone(connection.pid)
    assert main(["sandbox", "stop"]) == 0
    assert "no sandbox server was running" in capsys.readouterr().out


async def test_after_the_sandbox_died_connect_starts_a_new_one(data_dir: Path) -> None:
    sandbox = _sandbox(data_dir)
    with open_account(Account("sandbox", "sandbox"), sandbox=sandbox) as connect:
        client = await connect()
        first = files.read_state(data_dir)
        await client.aclose()
        stop_sandbox(data_dir)

        client = await connect()  # what the TUI's "restart" does
        async with client:
            assert (await client.orgs.list()).items
    assert files.read_state(data_dir).pid != first.pid


async def test_remote_accounts_connect_without_a_sandbox() -> None:
    account = Account("work", "profile", "https://docs.example.com", SecretStr("tok"))

    with open_account(account) as connect:
        client = await connect()
    try:
        assert client.base_url.startswith("https://docs.example.com")
    finally:
        await client.aclose()
    assert not sandbox_db_path().exists()


class RecordingApp:
    seen: dict[str, object]

    def __init__(self, connect, account_label, **options) -> None:  # type: ignore[no-untyped-def]
        RecordingApp.seen = {"label": account_label, **options}
        self.connect = connect
        self.return_code = 0

    def run(self) -> None:
        import asyncio

        async def browse() -> None:
            client = await self.connect()
            async with client:
                RecordingApp.seen["orgs"] = [o.title for o in (await client.orgs.list()).items]

        asyncio.run(browse())


def test_docdeck_hands_the_app_plain_data_and_leaves_the_sandbox_running(
    monkeypatch: pytest.MonkeyPatch, data_dir: Path
) -> None:
    monkeypatch.setattr("docdeck.tui.app.DocdeckApp", RecordingApp)
    monkeypatch.setattr("docdeck._cli.tui._has_terminal", lambda: True)
    monkeypatch.setenv("DOCDECK_UI__THEME", "nord")

    assert main(["tui"]) == 0

    seen = RecordingApp.seen
    assert seen["label"] == "sandbox"
    assert seen["account_source"] == "sandbox"
    assert seen["theme"] == "nord"
    assert seen["keymap"] == {}
    assert seen["sandbox_log"] == str(data_dir / "sandbox.log")
    assert str(seen["first_view"]).endswith(".json")
    assert len(seen["orgs"]) >= 2  # type: ignore[arg-type]
    state = files.read_state(data_dir)
    assert state is not None and files.pid_alive(state.pid)  # still there for the next docdeck


def test_a_profile_that_asks_keeps_no_first_view(
    monkeypatch: pytest.MonkeyPatch, config_file: Path, data_dir: Path
) -> None:
    config_file.parent.mkdir(parents=True)
    config_file.write_text(
        'default_profile = "work"\n[profiles.work]\nbase_url = "http://127.0.0.1:9"\n'
        'token = "tok"\nremember_first_view = false\n'
    )

    class QuietApp(RecordingApp):
        def run(self) -> None:
            pass

    monkeypatch.setattr("docdeck.tui.app.DocdeckApp", QuietApp)
    monkeypatch.setattr("docdeck._cli.tui._has_terminal", lambda: True)

    assert main([]) == 0

    assert RecordingApp.seen["first_view"] is None
    assert RecordingApp.seen["sandbox_log"] is None
    assert files.read_state(data_dir) is None  # a profile starts no sandbox


def test_the_idle_time_is_a_setting(
    monkeypatch: pytest.MonkeyPatch, config_file: Path, data_dir: Path
) -> None:
    config_file.parent.mkdir(parents=True)
    config_file.write_text("[sandbox]\nidle_minutes = 2.5\n")

    class QuietApp(RecordingApp):
        def run(self) -> None:
            pass

    monkeypatch.setattr("docdeck.tui.app.DocdeckApp", QuietApp)
    monkeypatch.setattr("docdeck._cli.tui._has_terminal", lambda: True)
    assert main([]) == 0

    deadline = time.monotonic() + 30
    while files.read_state(data_dir) is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert files.read_state(data_dir).idle_timeout_s == 150


def test_a_bad_idle_time_is_one_line(
    config_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    config_file.parent.mkdir(parents=True)
    config_file.write_text("[sandbox]\nidle_minutes = 0\n")
    monkeypatch.setattr("docdeck._cli.tui._has_terminal", lambda: True)

    assert main([]) == 2
    assert "sandbox.idle_minutes" in capsys.readouterr().err


def test_with_nothing_configured_the_app_gets_the_defaults(
    monkeypatch: pytest.MonkeyPatch, data_dir: Path
) -> None:
    """The fast path (no config file, no DOCDECK_ settings) hands what the full one would."""

    class QuietApp(RecordingApp):
        def run(self) -> None:
            pass

    monkeypatch.setattr("docdeck.tui.app.DocdeckApp", QuietApp)
    monkeypatch.setattr("docdeck._cli.tui._has_terminal", lambda: True)
    assert nothing_configured(os.environ)

    assert main([]) == 0

    fast = dict(RecordingApp.seen)
    defaults = load_settings()
    assert fast["keymap"] == dict(defaults.keymap) and fast["theme"] is None
    assert defaults.ui.theme == "textual-dark"  # Textual's own default: leaving it unset is equal
    monkeypatch.setenv("DOCDECK_UI__THEME", "textual-dark")  # now through the full path
    assert main([]) == 0
    assert {**RecordingApp.seen, "theme": None} == fast


@pytest.mark.parametrize(
    ("env", "write_file", "expected"),
    [
        ({}, False, True),
        ({"DOCDECK_DATA_DIR": "/elsewhere", "DOCDECK_DEBUG": "1"}, False, True),
        ({}, True, False),
        ({"DOCDECK_UI__THEME": "nord"}, False, False),
        ({"docdeck_keymap": '{"app.quit": "ctrl+q"}'}, False, False),
        ({"DOCDECK_DEFAULT_PROFILE": "work"}, False, False),
        ({"DOCDECK_SANDBOX__IDLE_MINUTES": "5"}, False, False),
    ],
)
def test_nothing_configured_means_no_file_and_no_setting_variables(
    config_file: Path, env: dict[str, str], write_file: bool, expected: bool
) -> None:
    if write_file:
        config_file.parent.mkdir(parents=True)
        config_file.write_text("[ui]\n")
    assert nothing_configured(env) is expected
