"""`docdeck open URL-OR-ID`: reading the target, and the app starting on the space screen."""

from __future__ import annotations

import re

import pytest

from docdeck.cli import main
from docdeck.gateway import Client
from docdeck.tui.content import RenderedPage
from docdeck.tui.kit.chooser import Chooser
from docdeck.tui.kit.open_target import OpenTarget, TargetError, parse_target
from docdeck.tui.space import PageTree, SpaceScreen
from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, burst, screen_lines, wait_for_organizations, wait_until
from tui.space.helpers import page_tree, preview_text, settle


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("sp4ce1d", OpenTarget(space="sp4ce1d")),
        ("http://127.0.0.1:8080/app/spaces/abcd1234", OpenTarget(space="abcd1234")),
        (
            "http://127.0.0.1:8080/app/spaces/abcd1234/pages/page5678",
            OpenTarget(space="abcd1234", page="page5678"),
        ),
        (
            "https://h/app/spaces/abcd1234/revisions/rev09876",
            OpenTarget(space="abcd1234", revision="rev09876"),
        ),
        (
            "https://app.example.com/o/org1234/s/abcd1234/guides/webhooks",
            OpenTarget(space="abcd1234", page_path="guides/webhooks"),
        ),
        (
            "https://app.example.com/o/org1234/s/abcd1234/~/changes/12",
            OpenTarget(space="abcd1234", change_request="12"),
        ),
    ],
)
def test_targets_are_read_from_urls_and_ids(text: str, expected: OpenTarget) -> None:
    assert parse_target(text) == expected


@pytest.mark.parametrize(
    "text", ["", "not an id!", "https://example.com/docs/page", "/app/spaces/"]
)
def test_other_text_is_refused_with_a_reason(text: str) -> None:
    with pytest.raises(TargetError):
        parse_target(text)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("http://127.0.0.1:1/app/spaces/xyz", "“xyz” is not a space id (4 to 64 letters"),
        ("https://app.example.com/o/org1234/s/a$b/", "“a$b” is not a space id"),
        ("http://h/app/spaces/abcd1234/pages/p!", "“p!” is not a page id"),
        ("/app/spaces/", "has no space id where one was expected"),
        ("not a url", "neither an app URL nor an id"),
    ],
)
def test_the_reason_names_the_part_that_is_wrong(text: str, said: str) -> None:
    """ "…/spaces/xyz" was refused as having "no space id", though one was there, too short."""
    with pytest.raises(TargetError, match=re.escape(said)):
        parse_target(text)


def test_the_command_refuses_a_bad_target_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    try:
        code = main(["open", "https://example.com/docs/page"])
    except SystemExit as stop:
        code = int(stop.code or 0)
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is not a space, page or change request URL" in err[0]


async def test_open_at_a_page_url(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    async with Client("http://sandbox", admin_token, transport=transport) as client:
        space = await _space_titled(client, "Public API Reference")
        pages = await client.content.pages(space.id)
        page = pages.by_path("guides/webhooks")
        assert page is not None
    url = page.urls.app  # type: ignore[union-attr]
    app = make_app(open_at=parse_target(url))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_organizations(pilot)
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SpaceScreen)
        await settle(pilot)
        assert (
            "Northwind Labs › Engineering › API › Public API Reference › Guides › Webhooks"
            in (screen_lines(pilot)[0])
        )
        assert "Northwind sends an HTTP POST" in preview_text(pilot)
        await pilot.press("escape")  # from the page to the page tree, as after Enter on a page
        await settle(pilot)
        assert isinstance(app.focused, PageTree)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, SpaceScreen)  # the tree is underneath


async def test_an_unknown_space_is_one_notification_and_the_tree_stays(
    make_app: AppFactory,
) -> None:
    app = make_app(open_at=OpenTarget(space="noSuchSpace1"))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_organizations(pilot)
        await settle(pilot)
        assert not isinstance(app.screen, SpaceScreen)
        notes = [n.message for n in app._notifications]
        assert any("404" in n or "not found" in n.lower() for n in notes), notes


async def _space_titled(client: Client, title: str):  # type: ignore[no-untyped-def]
    async for org in client.orgs.list():
        async for space in client.spaces.list(org.id):
            if space.title == title:
                return space
    raise AssertionError(f"no space {title!r}")


async def _webhooks(admin_token: str, transport: RecordingTransport) -> tuple[str, str]:
    async with Client("http://sandbox", admin_token, transport=transport) as client:
        space = await _space_titled(client, "Public API Reference")
        pages = await client.content.pages(space.id)
        page = pages.by_path("guides/webhooks")
        assert page is not None and page.urls.app  # type: ignore[union-attr]
        return space.id, page.urls.app  # type: ignore[union-attr]


async def test_a_page_url_puts_the_focus_on_the_page(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    """`G`, `t` and `/` act on the page opened, not on the page tree beside it."""
    _, url = await _webhooks(admin_token, transport)
    app = make_app(open_at=parse_target(url))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_organizations(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, SpaceScreen), "the space opens")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SpaceScreen)
        view = screen.preview.view
        assert isinstance(view, RenderedPage)
        assert app.focused is view, app.focused
        assert view.max_scroll_y > 0  # the page is longer than the screen
        tree_page = page_tree(pilot).current
        await pilot.press("G")
        await settle(pilot)
        assert view.scroll_y == view.max_scroll_y  # the page went to its end
        assert page_tree(pilot).current is tree_page  # and the tree's cursor did not move
        await pilot.press("t")
        await settle(pilot)
        assert isinstance(app.screen, Chooser)
        assert "Contents of “Webhooks”" in preview_text(pilot)


async def test_keys_typed_while_a_page_url_opens_act_on_the_page(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    _, url = await _webhooks(admin_token, transport)
    transport.delay = 0.05
    app = make_app(open_at=parse_target(url))
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, ["G"])  # typed at once, before the tree is live
        await wait_for_organizations(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, SpaceScreen), "the space opens")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SpaceScreen)
        view = screen.preview.view
        assert isinstance(view, RenderedPage) and app.focused is view
        await wait_until(
            pilot,
            lambda: view.scroll_y == view.max_scroll_y > 0,
            f"the page is at its end (at {view.scroll_y} of {view.max_scroll_y}; "
            f"org tree line {app.browser.org_tree.cursor_line if app.browser else None})\n"
            + "\n".join(app._key_hold.trace),
        )
        assert page_tree(pilot).current is not None
        assert page_tree(pilot).current.title == "Webhooks"  # type: ignore[union-attr]


async def test_a_space_url_keeps_the_focus_on_the_page_tree(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    space_id, _ = await _webhooks(admin_token, transport)
    app = make_app(open_at=parse_target(f"http://sandbox/app/spaces/{space_id}"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_organizations(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, SpaceScreen), "the space opens")
        await settle(pilot)
        assert isinstance(app.focused, PageTree), app.focused
