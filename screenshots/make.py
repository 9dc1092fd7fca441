"""Save SVG screenshots of the TUI on a fresh demo sandbox: `python screenshots/make.py`.

The app runs headless against the in-process sandbox (no port, no network), so
the pictures show exactly what `docdeck` shows on the demo workspace.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
from textual.pilot import Pilot

from docdeck.gateway import Client
from docdeck.server import create_app, ensure_demo, mint_token
from docdeck.tui.app import DocdeckApp
from docdeck.tui.orgs import OrgTree
from docdeck.tui.review import ChangeRequestsView

HERE = Path(__file__).parent


async def _settle(pilot: Pilot[None]) -> None:
    for _ in range(10):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        if not any(worker.is_running for worker in pilot.app.workers):
            break
    await pilot.pause()  # the footer recomposes after a refresh
    await pilot.pause()


async def _goto(pilot: Pilot[None], title: str, *, expand: bool = False) -> None:
    tree = pilot.app.screen_stack[0].query_one(OrgTree)
    stack = list(tree.root.children)
    while stack:
        node = stack.pop(0)
        if title in node.label.plain and node.data is not None:
            tree.focus()
            tree.select_entry(node.data)
            if expand:
                node.expand()
            await _settle(pilot)
            return
        stack[0:0] = list(node.children)
    raise SystemExit(f"no node {title!r}")


async def _browse(pilot: Pilot[None]) -> None:
    await _goto(pilot, "Northwind Labs", expand=True)
    await _goto(pilot, "Engineering", expand=True)
    await _goto(pilot, "API", expand=True)
    await _goto(pilot, "Public API Reference")


async def _members(pilot: Pilot[None]) -> None:
    await _goto(pilot, "Northwind Labs", expand=True)
    await _goto(pilot, "Members")


async def _team(pilot: Pilot[None]) -> None:
    await _goto(pilot, "Northwind Labs", expand=True)
    await _goto(pilot, "Teams", expand=True)
    await _goto(pilot, "Platform")


async def _new_space(pilot: Pilot[None]) -> None:
    await _goto(pilot, "Northwind Labs", expand=True)
    await _goto(pilot, "Company Handbook", expand=True)
    await pilot.press("n")
    await _settle(pilot)


async def _help(pilot: Pilot[None]) -> None:
    await _browse(pilot)
    await pilot.press("question_mark")
    await _settle(pilot)


async def _read_only(pilot: Pilot[None]) -> None:
    await _goto(pilot, "Northwind Labs", expand=True)
    await _goto(pilot, "Release Notes")


async def _space(pilot: Pilot[None]) -> None:
    """The space screen on the Webhooks guide (a code block, an image, a callout)."""
    await _browse(pilot)
    await pilot.press("enter")
    await _settle(pilot)
    await _space_page(pilot, "Webhooks")


async def _space_page(pilot: Pilot[None], title: str) -> None:
    await pilot.press("f", *title, "enter")
    await _settle(pilot)
    await pilot.press("escape")
    await _settle(pilot)
    await pilot.pause(0.3)


async def _space_links(pilot: Pilot[None]) -> None:
    await _space(pilot)
    await pilot.press("2")
    await _settle(pilot)


async def _space_search(pilot: Pilot[None]) -> None:
    await _space(pilot)
    await pilot.press("slash", *"retries")
    await pilot.pause(0.5)
    await _settle(pilot)


async def _space_files(pilot: Pilot[None]) -> None:
    await _space(pilot)
    await pilot.press("3")
    await _settle(pilot)


async def _space_history(pilot: Pilot[None]) -> None:
    await _space(pilot)
    await pilot.press("4")
    await _settle(pilot)
    await pilot.press("j")
    await _settle(pilot)


async def _space_comments(pilot: Pilot[None]) -> None:
    """The comments view of the Webhooks Guide: a thread with replies and reactions."""
    await _goto(pilot, "Northwind Labs", expand=True)
    await _goto(pilot, "Engineering", expand=True)
    await _goto(pilot, "API", expand=True)
    await _goto(pilot, "Webhooks Guide")
    await pilot.press("enter")
    await _settle(pilot)
    await pilot.press("6")
    await _settle(pilot)
    await pilot.press("G")
    await _settle(pilot)
    await pilot.press("k", "k")
    await _settle(pilot)


async def _change_requests(pilot: Pilot[None]) -> None:
    """The Public API Reference's open change requests (`5`), review states filled in."""
    await _browse(pilot)
    await pilot.press("enter")
    await _settle(pilot)
    await pilot.press("5")
    await _settle(pilot)
    await pilot.pause(0.3)
    await _settle(pilot)


async def _review(pilot: Pilot[None]) -> None:
    """Change request #4 in the review pane: its first diff (Rate limits), unified."""
    await _change_requests(pilot)
    await pilot.press("enter")
    await _settle(pilot)
    await pilot.pause(0.3)
    await _settle(pilot)


async def _review_code(pilot: Pilot[None]) -> None:
    """#4's code block edit (Pagination): coloured code, changed words highlighted."""
    await _review(pilot)
    for _ in range(2):
        await pilot.press("right_curly_bracket")
        await _settle(pilot)


async def _review_split(pilot: Pilot[None]) -> None:
    await _review_code(pilot)
    await pilot.press("d")
    await _settle(pilot)


async def _review_diff_only(pilot: Pilot[None]) -> None:
    """`z`: the code block edit's diff alone on the screen."""
    await _review_code(pilot)
    await pilot.press("z")
    await _settle(pilot)


async def _inbox(pilot: Pilot[None]) -> None:
    await _goto(pilot, "Northwind Labs", expand=True)
    await pilot.press("i")
    await _settle(pilot)
    await pilot.pause(0.3)
    await _settle(pilot)


async def _review_threads(pilot: Pilot[None]) -> None:
    """Change request #4 in the review pane, on its new page: a thread inline in the diff."""
    await _change_requests(pilot)
    view = pilot.app.screen.query_one(ChangeRequestsView)
    view.table.move_cursor(row=[cr.number for cr in view.shown].index(4), animate=False)
    await pilot.pause()
    await pilot.press("enter")
    await _settle(pilot)
    for _ in range(6):
        page = pilot.app.screen.pages_list.current  # type: ignore[attr-defined]
        if page is not None and page.title == "Partial refunds":
            break
        await pilot.press("right_curly_bracket")
        await _settle(pilot)
    await pilot.pause(0.3)
    await _settle(pilot)


async def _admin(pilot: Pilot[None], title: str) -> None:
    await _goto(pilot, "Northwind Labs", expand=True)
    await _goto(pilot, title)
    await pilot.press("enter")
    await _settle(pilot)
    await pilot.pause(0.5)  # the specs' first read processes the sandbox's own document
    await _settle(pilot)


async def _specs(pilot: Pilot[None]) -> None:
    await _admin(pilot, "OpenAPI specs")


async def _spec_content(pilot: Pilot[None]) -> None:
    await _admin(pilot, "OpenAPI specs")
    await pilot.press("g", "enter")  # the first spec's latest version
    await _settle(pilot)
    await pilot.press("j", "j")
    await _settle(pilot)


async def _settings(pilot: Pilot[None]) -> None:
    await _admin(pilot, "Settings")


async def _sso(pilot: Pilot[None]) -> None:
    await _admin(pilot, "Single sign-on")


async def _sso_form(pilot: Pilot[None]) -> None:
    await _admin(pilot, "Single sign-on")
    await pilot.press("enter")  # the demo provider's form
    await _settle(pilot)


async def _translations(pilot: Pilot[None]) -> None:
    await _admin(pilot, "Translations")
    await pilot.pause(5.5)  # the demo's translation stays pending: the screen says why
    await _settle(pilot)


async def _sites(pilot: Pilot[None]) -> None:
    await _goto(pilot, "Northwind Labs", expand=True)
    await _goto(pilot, "Sites", expand=True)
    await _goto(pilot, "Developer Portal")


async def _site_structure(pilot: Pilot[None]) -> None:
    from docdeck.tui.sites import SiteScreen

    await _sites(pilot)
    await pilot.press("enter")
    for _ in range(200):
        screen = pilot.app.screen
        if isinstance(screen, SiteScreen) and screen.loaded:
            break
        await pilot.pause(0.01)
    await _settle(pilot)
    await pilot.press("j", "j", "j")  # a site space with a condition
    await _settle(pilot)


async def _site_condition(pilot: Pilot[None]) -> None:
    await _site_structure(pilot)
    await pilot.press("c")
    await _settle(pilot)


async def _site_settings(pilot: Pilot[None]) -> None:
    await _site_structure(pilot)
    await pilot.press("S")
    await _settle(pilot)


async def _site_schema(pilot: Pilot[None]) -> None:
    await _site_structure(pilot)
    await pilot.press("A")
    await _settle(pilot)


async def _site_move(pilot: Pilot[None]) -> None:
    await _site_structure(pilot)
    await pilot.press("k", "x", "j", "j", "j", "j", "j", "j", "j")
    await _settle(pilot)


SHOTS: list[tuple[str, tuple[int, int], Callable[[Pilot[None]], Awaitable[None]]]] = [
    ("sites-80x24", (80, 24), _sites),
    ("sites-160x50", (160, 50), _sites),
    ("site-structure-80x24", (80, 24), _site_structure),
    ("site-structure-160x50", (160, 50), _site_structure),
    ("site-condition-80x24", (80, 24), _site_condition),
    ("site-condition-160x50", (160, 50), _site_condition),
    ("site-settings-80x24", (80, 24), _site_settings),
    ("site-settings-160x50", (160, 50), _site_settings),
    ("site-schema-80x24", (80, 24), _site_schema),
    ("site-cut-80x24", (80, 24), _site_move),
    ("site-read-only-80x24", (80, 24), _site_structure),
    ("main-80x24", (80, 24), _browse),
    ("main-160x50", (160, 50), _browse),
    ("members-80x24", (80, 24), _members),
    ("members-160x50", (160, 50), _members),
    ("team-120x40", (120, 40), _team),
    ("new-space-80x24", (80, 24), _new_space),
    ("help-120x40", (120, 40), _help),
    ("read-only-member-120x40", (120, 40), _read_only),
    ("space-120x40", (120, 40), _space),
    ("space-80x24", (80, 24), _space),
    ("space-links-120x40", (120, 40), _space_links),
    ("space-links-80x24", (80, 24), _space_links),
    ("space-search-120x40", (120, 40), _space_search),
    ("space-search-80x24", (80, 24), _space_search),
    ("space-files-120x40", (120, 40), _space_files),
    ("space-history-120x40", (120, 40), _space_history),
    ("space-history-80x24", (80, 24), _space_history),
    ("space-comments-120x40", (120, 40), _space_comments),
    ("space-comments-80x24", (80, 24), _space_comments),
    ("change-requests-120x40", (120, 40), _change_requests),
    ("change-requests-80x24", (80, 24), _change_requests),
    ("review-unified-120x40", (120, 40), _review_code),
    ("review-unified-80x24", (80, 24), _review_code),
    ("review-split-120x40", (120, 40), _review_split),
    ("review-split-80x24", (80, 24), _review_split),
    ("review-diff-only-80x24", (80, 24), _review_diff_only),
    ("review-first-diff-160x50", (160, 50), _review),
    ("review-inbox-120x40", (120, 40), _inbox),
    ("review-threads-120x40", (120, 40), _review_threads),
    ("review-threads-80x24", (80, 24), _review_threads),
    ("admin-specs-80x24", (80, 24), _specs),
    ("admin-specs-160x50", (160, 50), _specs),
    ("admin-spec-content-80x24", (80, 24), _spec_content),
    ("admin-spec-content-160x50", (160, 50), _spec_content),
    ("admin-settings-80x24", (80, 24), _settings),
    ("admin-settings-160x50", (160, 50), _settings),
    ("admin-sso-80x24", (80, 24), _sso),
    ("admin-sso-160x50", (160, 50), _sso),
    ("admin-sso-form-80x24", (80, 24), _sso_form),
    ("admin-translations-80x24", (80, 24), _translations),
    ("admin-translations-160x50", (160, 50), _translations),
]
READ_ONLY = {
    "read-only-member-120x40": "freya@northwind.dev",
    "review-inbox-120x40": "chen@northwind.dev",
    "site-read-only-80x24": "freya@northwind.dev",
}
"""Shots taken as another member: one with the read role (disabled actions and why), and
Chen, whose inbox holds the change requests he wrote."""


async def main(only: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "sandbox.db"
        accounts = ensure_demo(db)
        server = create_app(db)
        for name, size, steps in SHOTS:
            if only and name not in only:
                continue
            token = mint_token(db, READ_ONLY.get(name, accounts[0].email))

            async def connect(token: str = token) -> Client:
                return Client("http://sandbox", token, transport=httpx.ASGITransport(app=server))

            app = DocdeckApp(connect=connect, account_label="sandbox")
            async with app.run_test(size=size) as pilot:
                await _settle(pilot)
                await steps(pilot)
                path = app.save_screenshot(f"{name}.svg", path=str(HERE))
                print(path)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
