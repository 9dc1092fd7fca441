"""The first view at once: the last session's organizations painted, then replaced by live data;
keys pressed meanwhile kept; an embedded sandbox that died offered a restart."""

from __future__ import annotations

import asyncio
import json
import stat
from pathlib import Path

import pytest
from textual.widgets import Static

import docdeck.tui.app
from docdeck.gateway import Client
from docdeck.tui.app import DocdeckApp
from docdeck.tui.kit.connect_error import ConnectErrorScreen
from docdeck.tui.kit.entries import OrgEntry
from docdeck.tui.orgs import MainScreen
from docdeck.tui.orgs.first_view import FirstView, ViewItem, load_first_view, save_first_view
from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, open_northwind, tree_of, visible_labels, wait_for_workers

CACHED = FirstView(
    [
        ViewItem(
            "org:gone",
            "🏢 Cached Org",
            expandable=True,
            expanded=True,
            children=[ViewItem("space:old", "· Old Space")],
        ),
        ViewItem("org:other", "🏢 Another Cached Org", expandable=True),
    ]
)


@pytest.fixture
def cache_file(tmp_path: Path) -> Path:
    path = tmp_path / "cache" / "first-view" / "sandbox.json"
    save_first_view(path, CACHED)
    return path


def _text(pilot) -> str:  # type: ignore[no-untyped-def]
    return " | ".join(visible_labels(tree_of(pilot)))


async def test_the_cached_view_shows_at_once_marked_then_live_data_replaces_it(
    make_app: AppFactory, transport: RecordingTransport, cache_file: Path
) -> None:
    release = asyncio.Event()
    transport.held = ("/v1/orgs", release)
    app = make_app(first_view=str(cache_file))
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(50):
            await pilot.pause()
            if isinstance(app.screen, MainScreen) and app.client is not None:
                break
        shown = _text(pilot)
        assert "Cached Org" in shown and "Old Space" in shown
        assert "refreshing" in shown

        release.set()
        await wait_for_workers(pilot)
        shown = _text(pilot)
        assert "Northwind Labs" in shown
        assert "Cached Org" not in shown and "refreshing" not in shown


async def test_a_failed_refresh_keeps_the_cached_view_marked_stale(
    make_app: AppFactory, transport: RecordingTransport, cache_file: Path
) -> None:
    transport.offline = True
    app = make_app(first_view=str(cache_file))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_workers(pilot)
        shown = _text(pilot)
        assert "Cached Org" in shown and "Another Cached Org" in shown
        assert "not refreshed" in shown and "refreshing" not in shown

        transport.offline = False  # r retries, and the live data replaces it
        await pilot.press("r")
        await wait_for_workers(pilot)
        shown = _text(pilot)
        assert "Northwind Labs" in shown and "Cached Org" not in shown


async def test_without_a_cache_the_shell_shows_loading(
    make_app: AppFactory, tmp_path: Path
) -> None:
    app = make_app(first_view=str(tmp_path / "none-yet.json"))
    assert app.first_view is None
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_workers(pilot)
        assert "Northwind Labs" in _text(pilot)


async def test_the_first_frame_paints_the_cached_titles(
    make_app: AppFactory, cache_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shell, before any of the browser's code is imported, already shows them."""
    app = make_app(first_view=str(cache_file))
    seen: list[str] = []
    real_import = docdeck.tui.app._import_browser

    def recording_import() -> type[MainScreen]:
        seen.append(str(app.screen.query_one("#shell-tree").render()))
        return real_import()

    monkeypatch.setattr(docdeck.tui.app, "_import_browser", recording_import)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_workers(pilot)
    assert "Cached Org" in seen[0] and "Old Space" in seen[0] and "refreshing" in seen[0]


async def test_the_view_is_saved_at_exit_private_and_without_the_token(
    make_app: AppFactory, tmp_path: Path, admin_token: str
) -> None:
    path = tmp_path / "cache" / "first-view" / "sandbox.json"
    app = make_app(first_view=str(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)

    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    text = path.read_text()
    assert admin_token not in text
    view = load_first_view(path)
    assert view is not None
    titles = [item.title for item in view.items]
    assert any("Northwind Labs" in title for title in titles)
    northwind = next(item for item in view.items if "Northwind" in item.title)
    assert northwind.expanded and any("Engineering" in c.title for c in northwind.children)
    assert json.loads(text)["format"] == 1


async def test_entries_expanded_last_time_open_again(
    make_app: AppFactory, tmp_path: Path, admin_token: str, transport: RecordingTransport
) -> None:
    async with Client("http://sandbox", admin_token, transport=transport) as client:
        orgs = (await client.orgs.list()).items
    lumen = next(org for org in orgs if org.title == "Lumen")
    path = tmp_path / "view.json"
    save_first_view(path, FirstView([ViewItem(f"org:{lumen.id}", "Lumen", True, True)]))

    app = make_app(first_view=str(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_workers(pilot)
        tree = tree_of(pilot)
        entry = next(
            e for e in tree.model.children or [] if isinstance(e, OrgEntry) and e.title == "Lumen"
        )
        assert entry.expanded and entry.children
        assert "User Guide" in _text(pilot)


async def test_keys_pressed_while_the_shell_starts_are_not_lost(
    make_app: AppFactory, transport: RecordingTransport, cache_file: Path
) -> None:
    release = asyncio.Event()
    transport.held = ("/v1/orgs", release)
    app = make_app(first_view=str(cache_file))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("down")  # on the shell or the cached view: nothing live yet
        for _ in range(20):
            await pilot.pause()
        release.set()
        await wait_for_workers(pilot)
        current = tree_of(pilot).current
        titles = [e.title for e in tree_of(pilot).model.children or []]
        assert titles == ["Northwind Labs", "Lumen"]
        assert current is not None and current.title == "Lumen"  # one row down, as pressed


async def test_a_dead_embedded_sandbox_is_named_with_its_log_and_restarted(
    transport: RecordingTransport, admin_token: str
) -> None:
    connects: list[int] = []

    async def connect() -> Client:
        connects.append(1)
        return Client("http://sandbox", admin_token, transport=transport, max_retries=0)

    app = DocdeckApp(connect, "sandbox", sandbox_log="/data/docdeck/sandbox.log")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_workers(pilot)
        transport.offline = True  # the server went away (docdeck sandbox stop, a crash)
        await pilot.press("r")
        await wait_for_workers(pilot)
        assert isinstance(app.screen, ConnectErrorScreen)
        message = str(app.screen.query_one("#connect-error-message").render())
        assert "sandbox" in message and "/data/docdeck/sandbox.log" in message
        assert "start it again" in message

        transport.offline = False
        await pilot.press("r")
        await wait_for_workers(pilot)
        assert len(connects) == 2  # connect() again: the launcher looks for or starts one
        assert isinstance(app.screen, MainScreen)
        assert "Northwind Labs" in _text(pilot)


@pytest.mark.parametrize("down", ["refused", "proxy 502"])
@pytest.mark.parametrize("keys", [[], ["r"], ["down", "right", "r"]])
async def test_a_cached_view_with_an_unreachable_server_is_the_connection_screen(
    make_app: AppFactory,
    transport: RecordingTransport,
    cache_file: Path,
    keys: list[str],
    down: str,
) -> None:
    release = asyncio.Event()
    transport.held = ("/v1/orgs", release)
    transport.offline = down == "refused"
    transport.proxy_down = down == "proxy 502"
    app = make_app(first_view=str(cache_file), account_source="flags")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Cached Org" in _text(pilot)
        await pilot.press(*keys)  # pressed while the first request waits
        release.set()
        transport.held = None
        await wait_for_workers(pilot)
        assert isinstance(app.screen, ConnectErrorScreen)
        assert not [n for n in app._notifications if n.severity == "error"]
        message = str(app.screen.query_one("#connect-error-message", Static).render())
        assert "--base-url" in message
