"""`docdeck` for real: in a pseudo-terminal, on the embedded sandbox, quit with `q`."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.loopback,
    pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs a pty and /proc"),
]


def _sandboxes_on(db: Path) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--background" in command and str(db).encode() in command:
            found.append(int(entry.name))
    return found


def _pump(fd: int, until: float) -> bytes:
    ready, _, _ = select.select([fd], [], [], max(0.0, min(0.05, until - time.monotonic())))
    if not ready:
        return b""
    try:
        return os.read(fd, 65536)
    except OSError:
        return b""


def _run_docdeck_once(
    tmp_path: Path, command: list[str] | None = None, *, hang_up: bool = False
) -> bytes:
    """`docdeck` in a pty until its organizations show, then `q` (or the terminal hangs
    up); returns what it drew."""
    import fcntl
    import struct
    import termios

    ready_file = tmp_path / "ready"
    ready_file.unlink(missing_ok=True)
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "DOCDECK_BENCH_READY_FILE": str(ready_file)}
    process = subprocess.Popen(
        command or [sys.executable, "-m", "docdeck"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,
    )
    os.close(slave)
    screen = b""
    try:
        deadline = time.monotonic() + 60
        while not ready_file.exists() and process.poll() is None and time.monotonic() < deadline:
            screen += _pump(master, deadline)
        assert ready_file.exists(), screen[-800:].decode("utf-8", "replace")

        if hang_up:
            os.close(master)  # the terminal goes away (an SSH connection dropped)
            master = -1
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pytest.fail("docdeck kept running after its terminal hung up")
            return screen
        os.write(master, b"q")
        deadline = time.monotonic() + 30
        while process.poll() is None and time.monotonic() < deadline:
            screen += _pump(master, deadline)
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        if master >= 0:
            os.close(master)
    assert process.returncode == 0
    assert b"Traceback" not in screen
    assert b"sandbox" in screen  # the header names the account
    return screen


def test_docdeck_opens_the_shared_sandbox_quits_and_the_next_one_reuses_it(
    isolated_dirs: tuple[Path, Path], tmp_path: Path
) -> None:
    db = isolated_dirs[1] / "sandbox.db"

    first = _run_docdeck_once(tmp_path)

    servers = _sandboxes_on(db)
    assert len(servers) == 1  # left running for the next docdeck, which is the point
    assert db.is_file()
    assert b"refreshing" not in first  # no cache yet: the shell shows loading…

    second = _run_docdeck_once(tmp_path)

    assert _sandboxes_on(db) == servers
    # The first view of the last session was painted, marked, before the live one.
    assert b"refreshing" in second


def test_docdeck_ends_when_its_terminal_hangs_up_without_a_sighup(
    isolated_dirs: tuple[Path, Path], tmp_path: Path
) -> None:
    """A dropped SSH connection or a closed tmux server ends the terminal; a process that is
    not sent SIGHUP (started by make, or in a session of its own as here) read end-of-file
    forever and spun a core, holding its sandbox lease, until killed."""
    screen = _run_docdeck_once(tmp_path, hang_up=True)
    assert b"Traceback" not in screen


_HTTPX_PROBE = """
import os, sys
from docdeck.tui.app import DocdeckApp

shown = DocdeckApp.organizations_shown

def probe(self):
    if not self._ready_reported and self.browser.org_tree.model.children is not None:
        found = [m for m in ("textual", "httpx", "httpcore", "anyio") if m in sys.modules]
        with open(os.environ["PROBE_FILE"], "a") as file:
            file.write(",".join(found) + "\\n")
    shown(self)

DocdeckApp.organizations_shown = probe
from docdeck.cli import run
run()
"""


def test_with_a_sandbox_running_the_live_tree_shows_before_httpx_is_imported(
    isolated_dirs: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tree's first answer comes from the launcher (`gateway.Prefetched`): httpx, httpcore
    and anyio are imported after the live tree is shown, not before. (On a first run the
    server's start usually leaves the time to build httpx's transport while the UI waits.)"""
    probe_file = tmp_path / "probe"
    monkeypatch.setenv("PROBE_FILE", str(probe_file))
    command = [sys.executable, "-c", _HTTPX_PROBE]

    _run_docdeck_once(tmp_path, command)  # starts the sandbox
    _run_docdeck_once(tmp_path, command)  # reuses it

    _first_run, running = probe_file.read_text().splitlines()
    assert running == "textual"


def test_without_a_terminal_docdeck_says_so_and_leaves_no_server(
    isolated_dirs: tuple[Path, Path],
) -> None:
    """Run from a script or cron, Textual would spin on stdin at EOF: one line, exit 2."""
    result = subprocess.run(
        [sys.executable, "-m", "docdeck"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=os.environ.copy(),
        timeout=60,
    )

    assert result.returncode == 2
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("docdeck: error: the terminal UI needs a terminal")
    assert result.stdout == b""
    assert _sandboxes_on(isolated_dirs[1] / "sandbox.db") == []


def _probe(code: str) -> subprocess.CompletedProcess[str]:
    """`code` run by a fresh interpreter (nothing imported before it), its output as text."""
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )


def test_the_first_frame_needs_no_gateway_models_or_settings() -> None:
    """What runs before the shell is painted stays light: the cold start depends on it."""
    probe = (
        "import sys, docdeck._cli.tui, docdeck.launcher, docdeck.tui.app;"
        "heavy = sorted(m for m in ('pydantic', 'pydantic_settings', 'httpx', 'docdeck.gateway',"
        " 'docdeck.models', 'docdeck.config', 'docdeck.server') if m in sys.modules);"
        "print(','.join(heavy))"
    )
    result = _probe(probe)
    assert result.stdout.strip() == ""


def test_the_browser_import_builds_no_response_validator() -> None:
    """Importing the browser (gateway, models, screens) builds no pydantic validator: each
    is built on the first response that needs it. Built eagerly, the content and site
    models and their unions were the largest part of the browser's import. (The generic
    `ListPage` is built by pydantic whatever its config: one small model.)"""
    probe = (
        "import sys, pydantic, docdeck.gateway, docdeck.models as m;"
        "from docdeck.tui.orgs import MainScreen;"
        "from pydantic._internal._mock_val_ser import MockValSer;"
        "from docdeck.gateway.resources import content, sites, site_parts;"
        "built = sorted(n for n in dir(m) if isinstance(getattr(m, n), type)"
        " and issubclass(getattr(m, n), m.Resource) and n != 'ListPage'"
        " and not isinstance(getattr(m, n).__pydantic_validator__, MockValSer));"
        "adapters = [a for mod in (content, sites, site_parts) for a in vars(mod).values()"
        " if isinstance(a, pydantic.TypeAdapter) and not isinstance(a.validator, MockValSer)];"
        "print(','.join(built), len(adapters))"
    )
    result = _probe(probe)
    assert result.stdout.strip() == "0"


def test_the_browser_imports_no_content_or_site_models() -> None:
    """The organization tree needs no model of space content, links or sites: they are
    imported on first use (`docdeck.models.__getattr__`, `Client.content`/`.sites`). A screen
    that needs them imports its module when it is first opened, not with the browser."""
    probe = (
        "import sys, docdeck.tui.app as app; app._import_browser();"
        "lazy = ('docdeck.models.content', 'docdeck.models.links', 'docdeck.models.sites',"
        " 'docdeck.models.site_structure', 'docdeck.gateway.resources.content',"
        " 'docdeck.gateway.resources.sites', 'docdeck.gateway.resources.change_requests',"
        " 'docdeck.models.change_request_content', 'docdeck.gateway.resources.comments',"
        " 'docdeck.models.comments');"
        "print(','.join(m for m in lazy if m in sys.modules))"
    )
    result = _probe(probe)
    assert result.stdout.strip() == ""


def test_lazily_imported_models_and_endpoints_are_all_there() -> None:
    """What is imported on first use is complete when asked for."""
    probe = (
        "import docdeck.models as m, docdeck.gateway as g;"
        "missing = [n for n in m.__all__ if getattr(m, n, None) is None];"
        "print(missing, 'GET /v1/spaces/{spaceId}/content/pages' in g.COVERED_ENDPOINTS,"
        " 'GET /v1/orgs/{organizationId}/sites/{siteId}' in g.COVERED_ENDPOINTS)"
    )
    result = _probe(probe)
    assert result.stdout.strip() == "[] True True"


def test_the_browser_imports_no_member_or_team_view() -> None:
    """The first view shows the tree and an organization's fields: the members table and
    the team view are imported when Members or a team is first selected."""
    probe = (
        "import sys, docdeck.tui.app as app; app._import_browser();"
        "from docdeck.tui import orgs;"
        "lazy = ('docdeck.tui.orgs._member_table', 'docdeck.tui.orgs._team_detail');"
        "print(','.join(m for m in lazy if m in sys.modules));"
        "print(orgs.MemberTable.pane_view, orgs.TeamDetail.pane_view)"
    )
    result = _probe(probe)
    assert result.stdout.splitlines() == ["", "members team"]


def test_the_review_pane_imports_nothing_its_first_diff_does_not_draw() -> None:
    """`docdeck open <change request URL>` imports the review pane before its first diff:
    the page renderer (`v`), the markdown parser (threads' block map, comment bodies),
    Pygments (a code block's colours come once the diff is on screen), the comment editor,
    the org tree's entries and the models of authoring are imported when first used; so is
    the page union's module (the diff's sides are read as `PageMarkdown`)."""
    probe = (
        "import sys; import docdeck.tui.open_at; from docdeck.tui.review import ReviewScreen;"
        "from docdeck.gateway import Client; from docdeck import models;"
        "Client('http://x', 't').change_requests.content; models.PageMarkdown;"
        "lazy = ('markdown_it', 'rich.markdown', 'rich.syntax', 'pygments',"
        " 'docdeck.tui.content._rendered_page', 'textual.widgets._text_area',"
        " 'docdeck.tui.threads._composer', 'docdeck.tui.kit.entries',"
        " 'docdeck.models.change_request_content', 'docdeck.models.content',"
        " 'docdeck.tui.kit.dialogs.request', 'docdeck.tui.content.block_map',"
        " 'docdeck.tui.content.markdown');"
        "print(','.join(m for m in lazy if m in sys.modules))"
    )
    result = _probe(probe)
    assert result.stdout.strip() == ""


def test_the_space_screen_imports_no_dialog_its_first_page_does_not_show() -> None:
    """`docdeck open <space URL>` imports the space screen before its first page: the new
    change request's form and the chooser of `E` are imported on use, the block map
    (comments on blocks) with the first comment shown, and a page's headings and links, their
    chooser and the links view's rows with `t`, `l`, an anchor or a link followed."""
    probe = (
        "import sys; from docdeck.tui.space import SpaceScreen;"
        "lazy = ('docdeck.tui.kit.dialogs.form', 'docdeck.tui.kit.dialogs.choose',"
        " 'docdeck.tui.content.block_map', 'docdeck.tui.content.page_text',"
        " 'docdeck.tui.space.link_rows', 'docdeck.tui.kit.chooser');"
        "print(','.join(m for m in lazy if m in sys.modules))"
    )
    result = _probe(probe)
    assert result.stdout.strip() == ""


def test_the_trees_draw_their_first_rows_without_rich_s_emoji_table() -> None:
    """A tree given a `str` label parses it as Rich markup, whose emoji codes load Rich's
    emoji table (~3.5 ms) on the way to the org tree's first view and a space's first page;
    both trees' hidden root labels are `Text`, so neither draws through that parser."""
    probe = (
        "import sys, asyncio\n"
        "from textual.app import App\n"
        "from docdeck.tui.orgs._tree_view import TreeView\n"
        "from docdeck.tui.space._page_tree import PageTree\n"
        "class Host(App[None]):\n"
        "    def compose(self):\n"
        "        yield TreeView(id='orgs')\n"
        "        yield PageTree(id='pages')\n"
        "async def main():\n"
        "    app = Host()\n"
        "    async with app.run_test(size=(80, 24)) as pilot:\n"
        "        await pilot.pause()\n"
        "        print(len(app.query(TreeView)), len(app.query(PageTree)))\n"
        "asyncio.run(main())\n"
        "print('rich._emoji_codes' in sys.modules)\n"
    )
    result = _probe(probe)
    assert result.stdout.split() == ["1", "1", "False"]
