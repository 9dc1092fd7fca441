"""The app's header lets go of a title change that finds its title widget gone (Textual's own
raises NoMatches from the queued watcher and the app ends)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets._header import HeaderTitle

from docdeck.tui.kit.header import Header


class _One(App[None]):
    def compose(self) -> ComposeResult:
        yield Header()


async def test_a_title_change_after_the_headers_title_is_gone_does_not_end_the_app() -> None:
    app = _One()
    async with app.run_test() as pilot:
        header = app.query_one(Header)
        await header.query_one(HeaderTitle).remove()
        app.title = "changed"
        app.screen.sub_title = "changed too"
        await pilot.pause()
        await pilot.pause()
    assert app._exception is None


async def test_the_header_still_shows_the_titles() -> None:
    app = _One()
    async with app.run_test() as pilot:
        app.title = "docdeck"
        app.sub_title = "sandbox"
        await pilot.pause()
        assert "docdeck" in str(app.query_one(HeaderTitle).render())
        app.screen.title = "a screen's own"
        await pilot.pause()
        assert "a screen's own" in str(app.query_one(HeaderTitle).render())
