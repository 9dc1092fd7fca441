"""The published view: what a visitor sees, with or without a share key; o opens (here:
copies, over SSH) the served page, which the sandbox serves."""

from __future__ import annotations

import httpx
import pytest

from docdeck.tui.kit.chooser import Chooser
from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, wait_for_workers, wait_until
from tui.sites.helpers import open_site


def _labels(chooser: Chooser[object]) -> list[str]:
    return [label.plain if hasattr(label, "plain") else str(label) for label, _ in chooser.items]


async def test_the_visitor_structure_with_a_share_key_and_o_opens_the_served_page(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch, transport: RecordingTransport
) -> None:
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "TMUX"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SSH_CONNECTION", "10.0.0.1 5000 10.0.0.2 22")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_site(pilot)
        await pilot.press("v")
        await wait_until(pilot, lambda: isinstance(app.screen, Chooser), "the published view")
        chooser = app.screen
        assert isinstance(chooser, Chooser)
        labels = _labels(chooser)
        assert "without a share key" in chooser.title_text
        assert any("§ API  /api" in label for label in labels), labels
        assert any("· Webhooks Guide  /api/webhooks-beta" in label for label in labels), labels
        assert any("when visitor.claims.isBeta === true" in label for label in labels)
        await pilot.press("enter")  # the first entry: view with a share link
        await wait_until(
            pilot, lambda: isinstance(app.screen, Chooser) and app.screen is not chooser, "links"
        )
        assert [label for label, _ in app.screen.items] == ["Partners"]  # type: ignore[attr-defined]
        await pilot.press("enter")
        await wait_until(
            pilot,
            lambda: isinstance(app.screen, Chooser) and "Partners" in app.screen.title_text,
            "the view with the key",
        )
        view = app.screen
        assert isinstance(view, Chooser)
        api = next(i for i, label in enumerate(_labels(view)) if "§ API" in label)
        view.query_one("#chooser-list").highlighted = api  # type: ignore[attr-defined]
        await pilot.press("o")
        await wait_for_workers(pilot)
        url = app.clipboard
        assert url.startswith("http://sandbox.test/") and "shareKey=" in url, url
        assert "/api" in url
        async with httpx.AsyncClient(transport=transport) as web:
            page = await web.get(url, follow_redirects=True)
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assert "<html" in page.text.lower()
