"""`y` copies (OSC 52, or through tmux), `Y` chooses what, `o` opens the app URL or copies it."""

from __future__ import annotations

import base64
import os
import stat
from pathlib import Path

import pytest

from docdeck.tui.kit.clipboard import copy_text, osc52, tmux_passthrough
from docdeck.tui.kit.dialogs.choose import ChooseDialog
from docdeck.tui.kit.entries import SpaceEntry
from docdeck.tui.kit.opening import browser_problem
from tui.helpers import AppFactory, open_northwind, select, tree_of, wait_for_workers


class TerminalRecorder:
    """Stands between the app and its (headless) driver, keeping what is sent to the terminal."""

    def __init__(self) -> None:
        self.written: list[str] = []

    def attach(self, app: object) -> None:
        driver = app._driver  # type: ignore[attr-defined]
        original = driver.write

        def write(data: str) -> None:
            self.written.append(data)
            original(data)

        driver.write = write

    @property
    def osc52(self) -> list[str]:
        return [data for data in self.written if "]52;" in data]


def notifications(app: object) -> list[str]:
    return [f"{n.title}: {n.message}" for n in app._notifications]  # type: ignore[attr-defined]


def _fake_tmux(tmp_path: Path, *, fail_w: bool = False) -> Path:
    """A `tmux` on PATH that records its arguments and stdin (fails `-w` when asked)."""
    log = tmp_path / "tmux.log"
    script = tmp_path / "bin" / "tmux"
    script.parent.mkdir()
    failing = (
        'case " $* " in *" -w "*) echo "unknown flag -w" >&2; exit 1;; esac\n' if fail_w else ""
    )
    script.write_text(
        "#!/bin/sh\n"
        f"{failing}"
        f'echo "ARGS $*" >> "{log}"\n'
        f'printf "STDIN " >> "{log}"; cat >> "{log}"; echo >> "{log}"\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return log


def test_osc52_and_passthrough_bytes() -> None:
    assert osc52("héllo") == "\x1b]52;c;" + base64.b64encode("héllo".encode()).decode() + "\a"
    wrapped = tmux_passthrough(osc52("x"))
    assert wrapped == "\x1bPtmux;\x1b\x1b]52;c;eA==\a\x1b\\"


async def test_plain_terminal_gets_osc52() -> None:
    written: list[str] = []
    result = await copy_text("sp_1", written.append, environ={})
    assert written == [osc52("sp_1")]
    assert "OSC 52" in result.route


async def test_inside_tmux_the_text_goes_to_load_buffer(tmp_path: Path) -> None:
    log = _fake_tmux(tmp_path)
    environ = {
        "TMUX": "/tmp/tmux-1/default,1,0",
        "PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}",
    }
    written: list[str] = []
    old_path = os.environ["PATH"]
    os.environ["PATH"] = environ["PATH"]
    try:
        result = await copy_text("https://app.example/o/1", written.append, environ=environ)
    finally:
        os.environ["PATH"] = old_path
    assert log.read_text() == "ARGS load-buffer -w -\nSTDIN https://app.example/o/1\n"
    assert written == []  # tmux sets the outer clipboard itself
    assert result.route == "tmux buffer and clipboard"


async def test_old_tmux_without_w_falls_back_to_buffer_and_passthrough(tmp_path: Path) -> None:
    log = _fake_tmux(tmp_path, fail_w=True)
    written: list[str] = []
    old_path = os.environ["PATH"]
    os.environ["PATH"] = f"{tmp_path / 'bin'}:{old_path}"
    try:
        result = await copy_text("id_9", written.append, environ={"TMUX": "x"})
    finally:
        os.environ["PATH"] = old_path
    assert log.read_text() == "ARGS load-buffer -\nSTDIN id_9\n"
    assert written == [tmux_passthrough(osc52("id_9"))]
    assert "unknown flag -w" in result.problem


async def test_y_copies_the_selected_space_id_and_shows_it(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TMUX", raising=False)
    app = make_app()
    recorder = TerminalRecorder()
    async with app.run_test(size=(120, 40)) as pilot:
        recorder.attach(app)
        await open_northwind(pilot)
        await select(pilot, "Release Notes")
        entry = tree_of(pilot).current
        assert isinstance(entry, SpaceEntry)
        copied: list[str] = []
        textuals_copy = app.copy_to_clipboard

        def copy_to_clipboard(text: str) -> None:
            copied.append(text)
            textuals_copy(text)

        app.copy_to_clipboard = copy_to_clipboard  # type: ignore[method-assign]
        await pilot.press("y")
        await wait_for_workers(pilot)
        assert copied == [entry.value.id]  # Textual's own copy, not a re-implementation
        assert recorder.osc52 == [osc52(entry.value.id)]
        assert app.clipboard == entry.value.id
        assert any(entry.value.id in text for text in notifications(app))
        # Duplicating moved to D: y made no copy of the space.
        assert sum("Release Notes" in t for t in map(str, _titles(pilot))) == 1


def _titles(pilot: object) -> list[str]:
    tree = tree_of(pilot)  # type: ignore[arg-type]
    org = tree.model.children[0]  # type: ignore[index]
    return [child.title for child in org.children or ()]


async def test_y_in_the_members_table_copies_the_highlighted_row(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TMUX", raising=False)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Members")
        await wait_for_workers(pilot)
        table = app.screen.query_one("#members")
        table.focus()
        await pilot.press("down")
        member = app.screen.detail.highlighted_member
        assert member is not None
        await pilot.press("y")
        await wait_for_workers(pilot)
        assert app.clipboard == member.id


async def test_Y_offers_a_chooser_of_values(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TMUX", raising=False)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Engineering")
        await pilot.press("Y")
        assert isinstance(app.screen, ChooseDialog)
        labels = [label for label, _ in app.screen.choices]
        assert labels[0].startswith("Collection id: ")
        assert labels[1].startswith("App URL: http")
        await pilot.press("down", "enter")
        await wait_for_workers(pilot)
        entry = tree_of(pilot).current
        assert app.clipboard == entry.value.urls.app  # type: ignore[union-attr]


def test_no_display_or_ssh_means_no_browser() -> None:
    assert browser_problem({}, "linux")
    assert browser_problem({"DISPLAY": ":0", "SSH_CONNECTION": "1 2 3 4"}, "linux")
    assert browser_problem({"DISPLAY": ":0"}, "linux") == ""
    assert browser_problem({"WAYLAND_DISPLAY": "wayland-0"}, "linux") == ""
    assert browser_problem({}, "darwin") == ""


async def test_o_without_a_browser_copies_the_app_url_and_says_so(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "TMUX"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SSH_CONNECTION", "10.0.0.1 5000 10.0.0.2 22")
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Release Notes")
        entry = tree_of(pilot).current
        assert isinstance(entry, SpaceEntry)
        await pilot.press("o")
        await wait_for_workers(pilot)
        assert app.clipboard == entry.value.urls.app
        said = "\n".join(notifications(app))
        assert "SSH" in said and "copied instead" in said and entry.value.urls.app in said


async def test_o_with_a_display_opens_the_browser(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import webbrowser

    log = tmp_path / "opened"
    browser = tmp_path / "browser"
    browser.write_text(f'#!/bin/sh\necho "$1" > "{log}"\n')
    browser.chmod(0o755)
    for name in ("SSH_CONNECTION", "SSH_TTY", "TMUX"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setenv("BROWSER", str(browser))
    # webbrowser reads $BROWSER once per process: make it look again.
    monkeypatch.setattr(webbrowser, "_tryorder", None)
    monkeypatch.setattr(webbrowser, "_browsers", {})
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Northwind Labs")
        await pilot.press("o")
        await wait_for_workers(pilot)
        for _ in range(50):
            if log.exists():
                break
            await pilot.pause(0.05)
        url = app.browser.org_tree.current.organization.urls.app  # type: ignore[union-attr]
        assert log.read_text().strip() == url
        assert any("Opened in the browser" in text for text in notifications(app))


async def test_Y_then_escape_copies_nothing_and_sends_nothing(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TMUX", raising=False)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Engineering")
        await pilot.press("Y")
        assert isinstance(app.screen, ChooseDialog)
        await pilot.press("q")
        await wait_for_workers(pilot)
        assert not isinstance(app.screen, ChooseDialog)
        assert app.clipboard == ""
        assert app.is_running
