"""A 5,000-page space opens with its top level only and grows as it is opened."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, type_text
from tui.space.conftest import BIG_TITLE
from tui.space.helpers import open_space, page_tree, preview_text, settle


@pytest.fixture
def sandbox_db(big_sandbox_db: Path) -> Path:
    return big_sandbox_db


def _node_count(tree) -> int:  # type: ignore[no-untyped-def]
    count, stack = 0, list(tree.root.children)
    while stack:
        node = stack.pop()
        count += 1
        stack.extend(node.children)
    return count


async def test_five_thousand_pages_open_lazily(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_space(pilot, BIG_TITLE)
        assert screen.pages is not None and len(screen.pages) == 5000
        tree = page_tree(pilot)
        assert len(tree.root.children) == 17
        # The first page's ancestors are open (it is shown), nothing else: a few dozen nodes.
        assert _node_count(tree) < 100
        assert "Page 0" in preview_text(pilot)
        revision_reads = [r for r in transport.requests if r.split("/")[-2] == "revisions"]
        assert len(revision_reads) == 1, transport.requests

        await pilot.press("f")
        await type_text(pilot, "Leaf 4999")
        await pilot.press("enter")
        await settle(pilot)
        assert tree.current is not None and tree.current.title == "Leaf 4999"
        await settle(pilot)
        assert "Page 4999" in preview_text(pilot)


async def test_pages_met_again_are_not_fetched_again(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_space(pilot, BIG_TITLE)
        # The actions the keys run (n, p), without the pilot's wait for every widget of a
        # 5,000-page screen after each key, which timed out on a machine busy with others.
        for _ in range(3):
            screen.action_next_page()
            await settle(pilot)
        for _ in range(3):
            screen.action_previous_page()
            await settle(pilot)
        page_reads = [r for r in transport.requests if "/page/" in r]
        assert len(page_reads) == len(set(page_reads)) == 4, page_reads
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        again = [r for r in transport.requests if "/revisions/" in r]
        assert len(again) == 5, again  # one revision and four pages: the cache served the rest
        assert len([r for r in transport.requests if r.endswith("/links")]) == 1
        assert screen is not pilot.app.screen
