"""A read-only member sees why a key is unavailable, instead of a 403; `docdeck open` on a
site's app URL or id starts in the site editor."""

from __future__ import annotations

from collections.abc import Callable

from docdeck.tui.kit.open_target import OpenTarget, parse_target
from docdeck.tui.sites import SiteScreen
from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, wait_for_workers, wait_until
from tui.sites.helpers import open_site, put_cursor


async def test_a_reader_is_told_why_instead_of_a_403(
    make_app: AppFactory, token_for: Callable[[str], str], transport: RecordingTransport
) -> None:
    app = make_app(token=token_for("freya@northwind.dev"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_site(pilot)
        await put_cursor(pilot, screen, "API")
        sent = len(transport.requests)
        await pilot.press("e", "J", "d")
        await wait_for_workers(pilot)
        assert app.screen is screen
        writes = [r for r in transport.requests[sent:] if not r.startswith("GET")]
        assert writes == []
        messages = [n.message for n in app._notifications]
        assert any("create role" in message for message in messages)
        why = str(screen.query_one("#site-why").render())
        assert "Not allowed" in why and "create role" in why


def test_site_urls_and_ids_are_understood() -> None:
    assert parse_target("http://localhost:8000/app/orgs/org123/sites/site456") == OpenTarget(
        site="site456", organization="org123"
    )
    assert parse_target("https://app.gitbook.com/o/org123/sites/site456/settings") == OpenTarget(
        site="site456", organization="org123"
    )


async def test_docdeck_open_with_a_bare_site_id(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    probe = make_app()
    async with probe.run_test(size=(120, 40)) as pilot:
        screen = await open_site(pilot)
        site_id = screen.site.id
    app = make_app(open_at=parse_target(site_id))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(
            pilot,
            lambda: isinstance(app.screen, SiteScreen) and app.screen.loaded,
            "the site editor opened",
        )
        assert app.screen.site.id == site_id  # type: ignore[attr-defined]
