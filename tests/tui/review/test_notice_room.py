"""A notification over a dialog stays above the dialog's key line: at 80x24 the conflict
view's keys (1, 2, e, s, m) were hidden behind a toast."""

from __future__ import annotations

from textual.widgets import Label
from textual.widgets._toast import Toast

from tui.helpers import AppFactory, wait_until
from tui.review.test_action_snapshots import _conflicts


async def test_a_toast_leaves_the_conflict_view_s_keys_readable(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await _conflicts(pilot)
        keys = app.screen.query_one(".dialog-keys", Label)
        app.notify("Saved 1 page of #3.", title="Saved", timeout=60)
        await wait_until(pilot, lambda: bool(app.screen.query(Toast)), "the toast shows")
        await pilot.pause()
        toast = app.screen.query_one(Toast)
        assert toast.region.bottom <= keys.region.y, (toast.region, keys.region)
