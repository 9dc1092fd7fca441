"""Relaunching returns to where the user was: the space and page read, the change request's
pane, or the org tree's cursor; on the same account only; what is gone said once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docdeck.gateway import Client
from docdeck.tui.content import RenderedPage
from docdeck.tui.kit.entries import SiteEntry
from docdeck.tui.kit.open_target import OpenTarget, parse_target
from docdeck.tui.last_place import Place, load_place, place_path, save_place
from docdeck.tui.orgs import MainScreen
from docdeck.tui.review import ReviewScreen
from docdeck.tui.sites import SiteScreen
from docdeck.tui.space import PageTree, SpaceScreen
from tui.conftest import RecordingTransport
from tui.helpers import (
    AppFactory,
    open_node,
    open_northwind,
    select,
    tree_of,
    wait_for_organizations,
    wait_until,
)
from tui.review.helpers import review_settled, space_titled
from tui.sites.helpers import open_site
from tui.space.helpers import settle


@pytest.fixture
def first_view(tmp_path: Path) -> str:
    return str(tmp_path / "cache" / "first-view" / "sandbox-x.json")


async def _api_reference(admin_token: str, transport: RecordingTransport):  # type: ignore[no-untyped-def]
    async with Client("http://sandbox", admin_token, transport=transport) as client:
        space = await space_titled(client, "Public API Reference")
        pages = await client.content.pages(space.id)
        return space, pages


async def _wait_for_place(pilot, first_view: str, kind: str) -> Place:  # type: ignore[no-untyped-def]
    path = place_path(first_view)
    await wait_until(
        pilot,
        lambda: (p := load_place(path)) is not None and p.kind == kind,
        f"a {kind} place is written",
    )
    place = load_place(path)
    assert place is not None
    return place


async def test_the_space_and_page_read_come_back_on_the_next_start(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str, first_view: str
) -> None:
    space, pages = await _api_reference(admin_token, transport)
    webhooks = pages.by_path("guides/webhooks")
    assert webhooks is not None
    app = make_app(first_view=first_view, open_at=parse_target(webhooks.urls.app))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_organizations(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, SpaceScreen), "the space opens")
        await settle(pilot)
        # Written as the screen changed (a kill now keeps it), not only at exit.
        place = await _wait_for_place(pilot, first_view, "space")
        assert place.space == space.id
        await pilot.press("escape")  # to the page tree: the next start gives it the keys
        await settle(pilot)
        assert isinstance(app.focused, PageTree)

    again = make_app(first_view=first_view)
    async with again.run_test(size=(100, 30)) as pilot:
        await wait_for_organizations(pilot)
        await wait_until(pilot, lambda: isinstance(again.screen, SpaceScreen), "it reopens")
        await settle(pilot)
        screen = again.screen
        assert isinstance(screen, SpaceScreen)
        assert screen.current_page is not None and screen.current_page.id == webhooks.id
        assert isinstance(again.focused, PageTree)
        assert not [n for n in again._notifications if n.severity == "error"]
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(again.screen, MainScreen)  # the tree is underneath


async def test_a_page_read_with_the_keys_gets_them_again(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str, first_view: str
) -> None:
    space, pages = await _api_reference(admin_token, transport)
    webhooks = pages.by_path("guides/webhooks")
    assert webhooks is not None
    save_place(
        place_path(first_view),  # type: ignore[arg-type]
        Place("space", space=space.id, page=webhooks.id, reading=True),
    )
    app = make_app(first_view=first_view)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_organizations(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, SpaceScreen), "it reopens")
        await settle(pilot)
        assert isinstance(app.focused, RenderedPage)


async def test_the_change_request_pane_comes_back(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str, first_view: str
) -> None:
    space, _ = await _api_reference(admin_token, transport)
    app = make_app(first_view=first_view, open_at=OpenTarget(space=space.id, change_request="4"))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_organizations(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the pane opens")
        await review_settled(pilot)
        place = await _wait_for_place(pilot, first_view, "change_request")
        assert (place.space, place.change_request) == (space.id, "4")

    again = make_app(first_view=first_view)
    async with again.run_test(size=(120, 40)) as pilot:
        await wait_for_organizations(pilot)
        await wait_until(pilot, lambda: isinstance(again.screen, ReviewScreen), "it reopens")
        await review_settled(pilot)
        assert again.screen.change_request.number == 4  # type: ignore[attr-defined]
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(again.screen, SpaceScreen)  # its space is underneath


async def test_the_tree_cursor_comes_back(make_app: AppFactory, first_view: str) -> None:
    app = make_app(first_view=first_view)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Engineering")
        await select(pilot, "API")
        assert tree_of(pilot).current is not None
        assert tree_of(pilot).current.title == "API"  # type: ignore[union-attr]

    again = make_app(first_view=first_view)
    async with again.run_test(size=(100, 30)) as pilot:
        await wait_for_organizations(pilot)
        tree = tree_of(pilot)
        await wait_until(
            pilot,
            lambda: tree.current is not None and tree.current.title == "API",
            "the cursor is back on API",
        )
        assert isinstance(again.screen, MainScreen)


@pytest.mark.parametrize("gone", ["space", "page", "change_request"])
async def test_what_is_gone_is_said_once_and_the_tree_or_space_shows(
    make_app: AppFactory,
    transport: RecordingTransport,
    admin_token: str,
    first_view: str,
    gone: str,
) -> None:
    space, _ = await _api_reference(admin_token, transport)
    place = {
        "space": Place("space", space="noSuchSpace1", page="noSuchPage1"),
        "page": Place("space", space=space.id, page="noSuchPage1", reading=True),
        "change_request": Place("change_request", space=space.id, change_request="999"),
    }[gone]
    save_place(place_path(first_view), place)  # type: ignore[arg-type]
    app = make_app(first_view=first_view)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_organizations(pilot)
        await wait_until(
            pilot,
            lambda: (
                not app.workers
                or all(w.is_finished for w in app.workers if w.group == "open-target")
            ),
            "the return is over",
        )
        await settle(pilot)
        if gone == "space":
            assert isinstance(app.screen, MainScreen)
        else:
            assert isinstance(app.screen, SpaceScreen)  # the space is there; the rest is not
        notes = list(app._notifications)
        assert len(notes) == 1, [n.message for n in notes]
        assert notes[0].severity != "error"
        assert "gone" in notes[0].message or "not in" in notes[0].message
        if gone == "page":
            assert isinstance(app.focused, PageTree)  # no page to read: the tree has the keys


async def test_docdeck_open_wins_over_the_saved_place(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str, first_view: str
) -> None:
    space, _ = await _api_reference(admin_token, transport)
    save_place(
        place_path(first_view),  # type: ignore[arg-type]
        Place("change_request", space=space.id, change_request="4"),
    )
    app = make_app(first_view=first_view, open_at=OpenTarget(space=space.id))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_organizations(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, SpaceScreen), "the space opens")
        await settle(pilot)
        assert not any(isinstance(s, ReviewScreen) for s in app.screen_stack)


async def test_another_account_has_its_own_place(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str, tmp_path: Path
) -> None:
    space, _ = await _api_reference(admin_token, transport)
    mine = tmp_path / "first-view" / "profile-work-aaaa.json"
    save_place(place_path(mine), Place("space", space=space.id))  # type: ignore[arg-type]
    app = make_app(first_view=str(tmp_path / "first-view" / "profile-home-bbbb.json"))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_organizations(pilot)
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        json.dumps({"format": 99, "kind": "space", "space": "x"}),
        json.dumps({"format": 1, "kind": "space"}),
        json.dumps({"format": 1, "kind": "elsewhere"}),
        json.dumps({"format": 1, "kind": "space", "space": 7}),
        json.dumps([1, 2]),
    ],
)
def test_a_place_file_not_ours_is_ignored(tmp_path: Path, text: str) -> None:
    path = tmp_path / "x.place.json"
    path.write_text(text, encoding="utf-8")
    assert load_place(path) is None


def test_the_place_file_is_private_and_keeps_no_title(tmp_path: Path) -> None:
    path = place_path(tmp_path / "sandbox-x.json")
    assert path is not None and path.name == "sandbox-x.place.json"
    save_place(path, Place("space", node="space:abc", space="abc", page="p1", reading=True))
    assert path.stat().st_mode & 0o777 == 0o600
    assert load_place(path) == Place(
        "space", node="space:abc", space="abc", page="p1", reading=True
    )


async def _add_a_section(admin_token: str, transport: RecordingTransport, site_id: str) -> None:
    """What a user does in the site editor, done beside it: a section showing Onboarding."""
    async with Client("http://sandbox", admin_token, transport=transport) as client:
        org = next(o for o in (await client.orgs.list()).items if o.title == "Northwind Labs")
        onboarding = await space_titled(client, "Onboarding")
        await client.sites.sections.create(org.id, site_id, spaceId=onboarding.id)


async def test_back_from_a_restored_site_editor_the_site_is_read_again(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str, first_view: str
) -> None:
    """The tree reads a site (or a space) again when its screen is left, to show what was
    done there; a site editor restored from the last session was not read again (only an
    Enter on the tree said what was opened), so its site spaces' count stayed stale."""
    app = make_app(first_view=first_view)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await open_site(pilot)
        site_id = editor.site.id
        await _wait_for_place(pilot, first_view, "site")

    again = make_app(first_view=first_view)
    async with again.run_test(size=(120, 40)) as pilot:
        await wait_for_organizations(pilot)
        await wait_until(pilot, lambda: isinstance(again.screen, SiteScreen), "it reopens")
        tree = tree_of(pilot)
        await wait_until(
            pilot,
            lambda: isinstance(tree.current, SiteEntry) and tree.current.value.id == site_id,
            "the tree's cursor back on the site, beneath",
        )
        entry = tree.current
        assert isinstance(entry, SiteEntry)
        before = entry.value.siteSpaces
        await _add_a_section(admin_token, transport, site_id)
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(again.screen, MainScreen), "the tree")
        await wait_until(pilot, lambda: entry.value.siteSpaces == before + 1, "the site read again")
