"""The TUI against the hosted platform's answers, not the sandbox's: the org tree, a space
(pages, preview, links, files) and a change request's review pane (changes, diff, threads),
every read answered with a body generated from the platform's 0.202.0 document
(conformance/platform_double.py), with and without the link analysis operations that 0.202.0
no longer documents. A deployment without them must say so once, in words, in the views that
need them, and nowhere else."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from textual.pilot import Pilot

from conformance.platform_double import Platform, platform
from docdeck.gateway import Client
from docdeck.tui.admin import AdminScreen
from docdeck.tui.app import DocdeckApp
from docdeck.tui.orgs import MemberTable
from docdeck.tui.review import ReviewScreen
from docdeck.tui.sites import SiteScreen
from docdeck.tui.space import SpaceScreen
from tui.helpers import (
    open_node,
    screen_lines,
    select,
    tree_of,
    visible_labels,
    wait_for_organizations,
    wait_for_workers,
    wait_until,
)
from tui.review.helpers import review_settled
from tui.space.helpers import settle

NOT_OFFERED = "This server does not offer link analysis"


def _served(variation: str, links: bool) -> Platform:
    """The platform double, or the test skipped where its documents are absent."""
    served = platform(variation=variation, links=links)
    if served is None:
        pytest.skip("the platform's OpenAPI documents are absent (../shared/reference/)")
    return served


def _app(served: Callable[[httpx.Request], httpx.Response]) -> DocdeckApp:
    async def connect() -> Client:
        transport = httpx.MockTransport(served)
        return Client("https://platform.test", "token", transport=transport, max_retries=0)

    return DocdeckApp(connect=connect, account_label="platform")


def _screen(pilot: Pilot[None]) -> str:
    return "\n".join(screen_lines(pilot))


def _errors(app: DocdeckApp) -> list[str]:
    return [f"{n.title}: {n.message}" for n in app._notifications if n.severity == "error"]


# "absent" is left out: its revision has no pages (`pages` may be empty), so nothing past
# the empty space could be opened; the gateway's test reads those answers.
@pytest.mark.parametrize(
    ("variation", "links"),
    [("unknown", False), ("unknown", True), ("edge", False)],
    ids=["unknown-fields-no-links", "unknown-fields-links", "edge-values-no-links"],
)
async def test_the_tui_reads_what_the_platform_answers(variation: str, links: bool) -> None:
    served = _served(variation, links)
    app = _app(served)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_organizations(pilot)
        assert "Organization 1" in _screen(pilot) and "Organization 2" in _screen(pilot)
        assert "futureField" not in _screen(pilot)  # an unknown field is no permission
        await open_node(pilot, "Organization 1")
        assert "Space 1" in _screen(pilot), _screen(pilot)
        await select(pilot, "Space 1")
        await pilot.press("enter")
        await settle(pilot)
        space = app.screen
        assert isinstance(space, SpaceScreen), _screen(pilot)
        assert "Organization 1 › Space 1" in screen_lines(pilot)[0]
        assert "Document 1" in _screen(pilot)  # in the page tree and the preview's title
        assert _errors(app) == []

        await pilot.press("2")
        await settle(pilot)
        shown = _screen(pilot)
        if links:
            assert "link targets" in shown and NOT_OFFERED not in shown, shown
        else:  # one line, in words, and the rest of the screen as usual
            assert shown.count(NOT_OFFERED) == 1, shown
            assert "the rest of the space works as usual" in shown
            assert "⚠" not in screen_lines(pilot)[0]  # no broken-link count on the breadcrumb

        await pilot.press("3")
        await settle(pilot)
        await pilot.press("j")  # the next file: its backlinks are not asked for in vain
        await settle(pilot)
        shown = _screen(pilot)
        backlinks = [r for r in served.requests if r.endswith("/backlinks")]
        if links:
            assert "linked from" in shown and "does not offer" not in shown, shown
        else:
            assert "linked from: unknown, this server does not" in shown, shown  # wrapped
            assert "offer link analysis" in shown
            assert backlinks == [], backlinks  # the links view's 404 taught the client
        assert _errors(app) == []

        await pilot.press("5")
        await settle(pilot)
        assert "Change request 1" in _screen(pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the pane opens")
        await review_settled(pilot)
        shown = _screen(pilot)
        assert "#1 Change request 1" in shown, shown
        assert "Threads in change request #1" in shown, shown
        assert "failed" not in shown and "“”" not in shown, shown
        assert any(r.endswith("/change-requests/1/changes") for r in served.requests)
        assert any(r.endswith("/change-requests/1/comments") for r in served.requests)
        assert _errors(app) == []
        if not links:  # the breadcrumb's count and the links view, never again after
            assert len([r for r in served.requests if "/links" in r]) <= 2, served.requests


async def _settle(pilot: Pilot[None]) -> None:
    for _ in range(5):
        await wait_for_workers(pilot)
        await pilot.pause()


_ADMIN = {
    "Settings": "Settings · Organization 1",
    "OpenAPI specs": "OpenAPI specs · Organization 1",
    "Single sign-on": "Single sign-on · Organization 1",
    "Translations": "Translations · Organization 1",
}


@pytest.mark.parametrize("variation", ["unknown", "edge", "absent", "lists"])
async def test_the_admin_screens_and_the_site_editor_read_what_the_platform_answers(
    variation: str,
) -> None:
    """The screens added after the first conformance test, against the platform's answers:
    the members table, each administration screen (where the answer lets the caller in) and
    the site editor with a site space's edit form; no error anywhere. Found this way: a site
    feature's id rewritten by the double (its enum broken), specs with one slug, and the
    emoji the platform writes as codepoints ("1f468-200d-1f469") shown as that text."""
    served = _served(variation, True)
    app = _app(served)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_organizations(pilot)
        await open_node(pilot, "Organization 1")
        assert "1f468" not in _screen(pilot) and "1f389" not in _screen(pilot)
        await select(pilot, "Members")
        await pilot.press("enter")
        await _settle(pilot)
        assert " members" in _screen(pilot), _screen(pilot)
        await pilot.press("escape")
        await _settle(pilot)
        labels = visible_labels(tree_of(pilot))
        admin = [title for title in _ADMIN if any(title in label for label in labels)]
        assert bool(admin) == (variation != "edge")  # edge: the caller is no admin
        for title in admin:
            await select(pilot, title)
            below = app.screen
            await pilot.press("enter")
            await wait_until(pilot, lambda: isinstance(app.screen, AdminScreen), title)
            await _settle(pilot)
            assert _ADMIN[title] in _screen(pilot), _screen(pilot)
            assert _errors(app) == [], title
            await pilot.press("escape")
            await wait_until(pilot, lambda b=below: app.screen is b, f"back from {title}")
        await open_node(pilot, "Sites")
        await select(pilot, "Site 1")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, SiteScreen), "the site editor")
        await _settle(pilot)
        assert "Organization 1 › Sites › Site 1" in _screen(pilot)
        assert (variation == "absent") == ("The site shows nothing yet" in _screen(pilot))
        if variation != "absent":
            assert "Space 1" in _screen(pilot), _screen(pilot)
        if variation in ("unknown", "lists"):
            await pilot.press("j", "j", "e")
            await _settle(pilot)
            assert "Edit the site space" in _screen(pilot), _screen(pilot)
            await pilot.press("escape")
        assert _errors(app) == []


async def test_a_member_read_again_on_the_next_page_is_listed_once() -> None:
    """A list that shifts between two page reads (a member joins while the table is read)
    repeats a member on the next page; the table is keyed by id, so the repeat raised
    DuplicateKey ("This is a bug in docdeck"). It is left out."""
    served = _served("lists", True)

    def shifted(request: httpx.Request) -> httpx.Response:
        answer = served(request)
        if not request.url.path.endswith("/members") or "page" not in request.url.params:
            return answer
        first = served(httpx.Request("GET", request.url.copy_remove_param("page"))).json()
        body = answer.json()
        joined = {**first["items"][0], "id": "member-joined-later"}
        body["items"] = [first["items"][-1], joined]  # the last one read, again, then a new one
        return httpx.Response(200, json=body)

    app = _app(shifted)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_organizations(pilot)
        await open_node(pilot, "Organization 1")
        await select(pilot, "Members")
        await pilot.press("enter")
        await _settle(pilot)
        table = app.screen.query_one(MemberTable)
        first = list(table.members)
        assert table.next_page is not None
        members = next(r for r in served.requests if r.endswith("/members")).split(" ", 1)[1]
        count = served(httpx.Request("GET", f"https://platform.test{members}")).json()["count"]
        said = f"{len(first)} members" + (
            " (more below)" if count <= len(first) else f" of {count}"
        )
        assert said in _screen(pilot)  # never "3 members of 2" (the double's count is low)
        await pilot.press("G")
        await wait_until(pilot, lambda: table.next_page is None, "the next page is read")
        await _settle(pilot)
        assert [m.id for m in table.members] == [m.id for m in first] + ["member-joined-later"]
        assert _errors(app) == []
