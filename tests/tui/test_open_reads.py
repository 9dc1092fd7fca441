"""`docdeck open`: the first screen's reads start together as the client arrives.

The org tree's request is held unanswered: the target's reads must not wait for it (nor
for one another, where one does not need the other's answer).
"""

from __future__ import annotations

import asyncio

import httpx
import pytest
from textual.app import ComposeResult
from textual.screen import Screen

from docdeck.gateway import Client
from docdeck.tui.kit.connect_error import ConnectErrorScreen
from docdeck.tui.kit.open_target import OpenTarget, parse_target
from docdeck.tui.orgs import MainScreen
from docdeck.tui.review import ReviewScreen
from docdeck.tui.space import SpaceScreen
from tui.conftest import RecordingTransport
from tui.helpers import (
    AppFactory,
    labels_under,
    open_northwind,
    screen_lines,
    tree_of,
    wait_for_organizations,
    wait_until,
)
from tui.review.helpers import review_settled, space_titled


def _sent(transport: RecordingTransport, *parts: str) -> bool:
    return all(any(part in request for request in transport.requests) for part in parts)


async def test_a_change_requests_reads_start_together_without_the_org_tree(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    async with Client("http://sandbox", admin_token, transport=transport) as client:
        space = await space_titled(client, "Public API Reference")
        cr = await client.change_requests.get(space.id, 4)
    transport.requests.clear()
    held = asyncio.Event()
    # The org tree's first request and the change request's changes both wait: the change
    # request itself and the space are asked meanwhile, so none waits for another.
    transport.held = ("/v1/orgs", held)
    app = make_app(open_at=parse_target(cr.urls.app))
    async with app.run_test(size=(120, 40)) as pilot:
        prefix = f"GET /v1/spaces/{space.id}"
        await wait_until(
            pilot,
            lambda: _sent(
                transport,
                f"{prefix}/change-requests/4/changes",
                f"{prefix}/change-requests/4/content/page/",
                f"{prefix}/revisions/",
            ),
            f"the change request, its changes and the first page's sides are asked while the "
            f"org tree waits: {transport.requests}",
        )
        assert f"{prefix}/change-requests/4" in transport.requests
        assert f"{prefix}" in transport.requests
        held.set()
        await wait_for_organizations(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the pane opens")
        await review_settled(pilot)
        # Nothing was asked twice: the pane took the answers already read.
        cr_reads = [r for r in transport.requests if r == f"{prefix}/change-requests/4"]
        changes = [r for r in transport.requests if r.endswith("/change-requests/4/changes")]
        assert len(cr_reads) == 1 and len(changes) == 1, transport.requests
        assert "#4 Document partial refunds" in "\n".join(screen_lines(pilot))


async def test_a_spaces_reads_start_without_the_org_tree(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    async with Client("http://sandbox", admin_token, transport=transport) as client:
        space = await space_titled(client, "Public API Reference")
    transport.requests.clear()
    held = asyncio.Event()
    transport.held = ("/v1/orgs", held)
    app = make_app(open_at=OpenTarget(space=space.id))
    async with app.run_test(size=(120, 40)) as pilot:
        prefix = f"GET /v1/spaces/{space.id}"
        await wait_until(
            pilot,
            lambda: _sent(transport, f"{prefix}/content", "GET /v1/collections/"),
            f"the space, its revision and its breadcrumb are asked while the org tree "
            f"waits: {transport.requests}",
        )
        held.set()
        await wait_for_organizations(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, SpaceScreen), "the space opens")
        await review_settled(pilot)
        await wait_until(
            pilot,
            lambda: (
                "Everything you need before your first request" in "\n".join(screen_lines(pilot))
            ),
            "the first page is shown: " + "\n".join(screen_lines(pilot)),
        )
        pages = [r for r in transport.requests if "/page/" in r]
        assert len(pages) == len(set(pages)), transport.requests


async def test_the_pane_is_drawn_before_the_screens_behind_it_are_built(
    make_app: AppFactory,
    transport: RecordingTransport,
    admin_token: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`docdeck open <change request URL>`: the review pane's first diff is on screen before
    the org browser or the space screen is composed (each cost its imports, compose and
    styling before the first frame); Escape then walks back through both, to a live tree."""
    async with Client("http://sandbox", admin_token, transport=transport) as client:
        space = await space_titled(client, "Public API Reference")
        cr = await client.change_requests.get(space.id, 4)
    app = make_app(open_at=parse_target(cr.urls.app))
    added = "Each token may send 1,000 read"  # the first added line of its first diff
    composed: list[tuple[str, bool]] = []
    """Each screen behind the pane as it is composed, and whether the diff was shown then."""

    def watch(screen_class: type[Screen[None]]) -> None:
        compose = screen_class.compose

        def recorded(screen: Screen[None]) -> ComposeResult:
            shown = isinstance(app.screen, ReviewScreen) and any(
                added in line for line in screen_lines(pilot)
            )
            composed.append((type(screen).__name__, shown))
            return compose(screen)

        monkeypatch.setattr(screen_class, "compose", recorded)

    watch(MainScreen)
    watch(SpaceScreen)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: len(composed) == 2, f"both are composed: {composed}")
        assert composed == [("MainScreen", True), ("SpaceScreen", True)]
        await review_settled(pilot)
        assert [type(s) for s in app.screen_stack] == [MainScreen, SpaceScreen, ReviewScreen]
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, SpaceScreen), "back in the space")
        await review_settled(pilot)
        assert "Public API Reference" in screen_lines(pilot)[0]
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.browser, "back on the org tree")
        await open_northwind(pilot)  # a working tree: it loads and expands
        assert "▤ Engineering" in labels_under(tree_of(pilot), "Northwind Labs")


async def test_escape_before_the_first_diff_still_finds_the_space_and_the_tree(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    """The user does not wait for the first diff: what is behind the pane is put there
    before the key is delivered, so Escape lands in the space and then on the tree."""
    async with Client("http://sandbox", admin_token, transport=transport) as client:
        space = await space_titled(client, "Public API Reference")
        cr = await client.change_requests.get(space.id, 4)
    held = asyncio.Event()
    transport.held = ("/content/page/", held)  # the first diff's sides never come meanwhile
    app = make_app(open_at=parse_target(cr.urls.app))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the pane opens")
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, SpaceScreen), "back in the space")
        held.set()
        await review_settled(pilot)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.browser, "back on the org tree")
        await wait_for_organizations(pilot)
        assert "Northwind Labs" in "\n".join(screen_lines(pilot))


async def test_an_unreachable_server_under_docdeck_open_is_the_connection_screen(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    """No target without the server: the connection screen, over the org tree built
    meanwhile; once the server is back, `r` loads the tree."""
    async with Client("http://sandbox", admin_token, transport=transport) as client:
        space = await space_titled(client, "Public API Reference")
    transport.offline = True
    app = make_app(open_at=OpenTarget(space=space.id))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(
            pilot, lambda: isinstance(app.screen, ConnectErrorScreen), "the connection screen"
        )
        transport.offline = False
        await pilot.press("r")
        await wait_until(pilot, lambda: app.screen is app.browser, "the org tree")
        await wait_for_organizations(pilot)
        assert "🏢 Northwind Labs" in [str(n.label.plain) for n in tree_of(pilot).root.children]


async def test_a_change_requests_breadcrumb_is_read_once_its_first_diff_is_drawn(
    make_app: AppFactory,
    transport: RecordingTransport,
    admin_token: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The review pane shows no breadcrumb: its space screen's (the organization and the
    collections above the space) is read when that screen goes beneath the pane, once the
    first diff is drawn, not beside the reads the diff waits for; Escape finds it there."""
    async with Client("http://sandbox", admin_token, transport=transport) as client:
        space = await space_titled(client, "Public API Reference")
        cr = await client.change_requests.get(space.id, 4)
        org = await client.orgs.get(space.organization)
    app = make_app(open_at=parse_target(cr.urls.app))
    added = "Each token may send 1,000 read"
    asked_when: list[bool] = []
    """For each breadcrumb read: whether the pane's first diff was on screen as it went."""
    handle = transport.handle_async_request

    async def recorded(request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path.startswith(("/v1/collections/", f"/v1/orgs/{org.id}")) and path.count("/") == 3:
            asked_when.append(
                isinstance(app.screen, ReviewScreen)
                and any(added in line for line in screen_lines(pilot))
            )
        return await handle(request)

    monkeypatch.setattr(transport, "handle_async_request", recorded)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the pane opens")
        await review_settled(pilot)
        await wait_until(pilot, lambda: len(asked_when) >= 2, f"read: {transport.requests}")
        assert all(asked_when), asked_when
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, SpaceScreen), "back in the space")
        await wait_until(
            pilot,
            lambda: org.title in screen_lines(pilot)[0],
            "the breadcrumb names the organization: " + screen_lines(pilot)[0],
        )


async def test_a_pages_markdown_asked_ahead_is_the_read_its_caller_then_waits_for(
    transport: RecordingTransport, admin_token: str
) -> None:
    """`ask_markdown` sends the read at once without waiting (the first diff's base side,
    asked as soon as the change request names its base); `markdown` then takes that read."""
    from docdeck.tui.content.revision_cache import RevisionContent

    async with Client("http://sandbox", admin_token, transport=transport) as client:
        space = await space_titled(client, "Public API Reference")
        revision = await client.content.revision_in_steps(space.id)
        page = next(p for p in revision.pages if p.type == "document")
        content = RevisionContent(client, space.id, space.revision)
        transport.requests.clear()
        content.ask_markdown(page.id)
        await asyncio.sleep(0.05)
        assert transport.requests == [
            f"GET /v1/spaces/{space.id}/revisions/{space.revision}/page/{page.id}"
        ]
        text = await content.markdown(page.id)
        assert "Everything you need before your first request" in text
        assert content.requests == 1 and len(transport.requests) == 1


async def test_a_spaces_broken_links_are_counted_once_its_first_page_is_drawn(
    make_app: AppFactory,
    transport: RecordingTransport,
    admin_token: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The breadcrumb's broken-link count (a links read, and its models built on first
    use) is asked once the first page is on screen, not beside the page's own read."""
    async with Client("http://sandbox", admin_token, transport=transport) as client:
        space = await space_titled(client, "Public API Reference")
    app = make_app(open_at=OpenTarget(space=space.id))
    first_text = "Everything you need before your first request"
    asked_when: list[bool] = []
    handle = transport.handle_async_request

    async def recorded(request: httpx.Request) -> httpx.Response:
        if request.url.path == f"/v1/spaces/{space.id}/links":
            try:
                asked_when.append(any(first_text in line for line in screen_lines(pilot)))
            except Exception:  # the screen still composing: not drawn
                asked_when.append(False)
        return await handle(request)

    monkeypatch.setattr(transport, "handle_async_request", recorded)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: bool(asked_when), f"counted: {transport.requests}")
        assert asked_when == [True]


async def test_the_reviews_and_threads_are_asked_once_the_first_diff_is_drawn(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    """Their reads and widgets would otherwise come before the first diff on the one thread
    that draws (with `docdeck open`, httpx's first import too)."""
    async with Client("http://sandbox", admin_token, transport=transport) as client:
        space = await space_titled(client, "Public API Reference")
        cr = await client.change_requests.get(space.id, 4)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_organizations(pilot)
        transport.requests.clear()
        app.push_screen(ReviewScreen(space, cr))
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the pane opens")
        await review_settled(pilot)
        sent = transport.requests
        sides = [i for i, r in enumerate(sent) if "/page/" in r]
        later = [
            i
            for i, r in enumerate(sent)
            if r.endswith(("/comments", "/reviews", "/requested-reviewers"))
        ]
        assert sides and len(later) >= 3, sent
        assert max(sides[:2]) < min(later), sent
        assert "#4 Document partial refunds" in "\n".join(screen_lines(pilot))


async def test_a_spaces_first_page_is_asked_with_its_revision_before_its_screen(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    """`docdeck open <space>` asks the first readable page's markdown as soon as the
    revision names it, into the cache the screen reads: the screen, mounting, finds it
    there (shown with the tree), or under way, and asks for nothing twice."""
    from docdeck.tui.content.revision_cache import content_cache
    from docdeck.tui.kit.workers import client_of
    from docdeck.tui.open_at import OpenReads

    async with Client("http://sandbox", admin_token, transport=transport) as client:
        space = await space_titled(client, "Public API Reference")
        first = (await client.content.pages(space.id)).pages[0]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_organizations(pilot)
        transport.requests.clear()
        OpenReads(app, client_of(app), OpenTarget(space=space.id))  # no screen of its own
        content = content_cache(app).get(client_of(app), space.id, space.revision)
        await wait_until(
            pilot,
            lambda: content.cached(("markdown", first.id)) is not None,
            f"the first page's markdown is read: {transport.requests}",
        )
        assert "Everything you need before your first request" in content.cached(
            ("markdown", first.id)
        )
        assert not isinstance(app.screen, SpaceScreen)
        pages = [r for r in transport.requests if "/page/" in r]
        assert len(pages) == 1, transport.requests
