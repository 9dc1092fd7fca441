"""Viewed marks: each changed page can be marked viewed, kept on this machine per change
request and revision; after the author's new revision the pane shows which marks lapsed
and which pages changed since my last review."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widgets import Static

from docdeck.gateway import Client
from docdeck.tui.review import ReviewScreen
from docdeck.tui.review.viewed import viewed_path
from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, screen_lines, wait_until
from tui.review.actions_helpers import open_host, page_id
from tui.review.helpers import review_settled, space_titled


def _label(host: ReviewScreen, title: str) -> str:
    pages = host.pages_list
    assert pages.changes is not None
    index = next(i for i, p in enumerate(pages.changes.pages) if p.title == title)
    return str(pages.get_option_at_index(index).prompt)


async def test_viewed_marks_last_and_lapse_when_the_page_changes(
    make_app: AppFactory,
    transport: RecordingTransport,
    admin_token: str,
    token_for: Callable[[str], str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DOCDECK_DATA_DIR", str(tmp_path / "data"))
    first_view = str(tmp_path / "cache" / "first-view" / "sandbox-x.json")
    async with Client("http://sandbox", admin_token, transport=transport) as ada:
        space = await space_titled(ada, "Public API Reference")
        await ada.change_requests.reviews.submit(space.id, 4, status="approved")

    app = make_app(first_view=first_view)
    async with app.run_test(size=(120, 40)) as pilot:
        host = await open_host(pilot, 4, "Rate limits")
        assert "✓ viewed" not in _label(host, "Rate limits")
        await pilot.press("V")
        await wait_until(pilot, lambda: "✓ viewed" in _label(host, "Rate limits"), "marked")
        host.pages_list.focus()
        await pilot.pause()
        await pilot.press("right_curly_bracket")
        await review_settled(pilot)
        other = host.pages_list.current
        assert other is not None and other.title != "Rate limits"
        await pilot.press("V")
        await wait_until(pilot, lambda: "✓ viewed" in _label(host, other.title), "marked")
        assert "2/" in "\n".join(screen_lines(pilot)) and "viewed" in "\n".join(screen_lines(pilot))
    path = viewed_path(first_view)
    assert path == tmp_path / "data" / "viewed" / "sandbox-x.json" and path.exists()

    # The author changes Rate limits only: a new revision.
    async with Client(
        "http://sandbox", token_for("chen@northwind.dev"), transport=transport
    ) as chen:
        rate = await page_id(chen, space, 4, "Rate limits")
        markdown = (
            await chen.change_requests.content.page(space.id, 4, rate, format="markdown")
        ).markdown  # type: ignore[union-attr]
        change = {
            "operation": "update_page",
            "page": rate,
            "document": {"markdown": markdown + "\nOne more line.\n"},
        }
        await chen.change_requests.content.update(space.id, 4, [change])

    # Relaunched on the same profile: docdeck returns to the pane the reviewer left.
    app = make_app(first_view=first_view)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(
            pilot,
            lambda: isinstance(app.screen, ReviewScreen) and app.screen.change_request.number == 4,
            "the pane on #4 is back",
        )
        host = app.screen
        assert isinstance(host, ReviewScreen)
        await review_settled(pilot)
        await wait_until(
            pilot, lambda: "changed since viewed" in _label(host, "Rate limits"), "lapsed"
        )
        await review_settled(pilot)
        rate_label = _label(host, "Rate limits")
        assert "✓ viewed" not in rate_label and "new since your review" in rate_label
        other_label = _label(host, other.title)
        assert "✓ viewed" in other_label and "new since your review" not in other_label
        text = str(host.query_one("#review-counts", Static).content)
        assert "1/5 viewed" in text and "1 new since your review" in text, text
