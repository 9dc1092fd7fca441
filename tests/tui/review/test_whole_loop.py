"""The reviewer's whole loop in one run, as the issue names it: open a change request,
comment on a block, reply, react, resolve, approve, update and merge — keys only, each
step checked against the sandbox through the API."""

from __future__ import annotations

from textual.widgets import Button, Select, TextArea

from docdeck.gateway import Client
from docdeck.tui.kit.chooser import Chooser
from docdeck.tui.review import MergeScreen
from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, type_text, wait_for_workers, wait_until
from tui.review.actions_helpers import open_host, reloaded
from tui.space.helpers import settle
from tui.threads.helpers import composer_open, write_and_post


async def test_open_comment_reply_react_resolve_approve_update_merge(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    api = Client("http://sandbox", admin_token, transport=transport, max_retries=0)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        # Open: #2 "Clarify versioning", open and outdated (main moved since).
        host = await open_host(pilot, 2)
        space = host.space.id
        assert host.change_request.outdated
        host.diff_view.focus()
        await pilot.pause()
        for _ in range(60):  # down to the first line of the change request's side
            line = host.cursor_line()
            kind = host.diff_view.rows[host.diff_view.cursor].kind
            if line is not None and line[0] == "change" and kind in ("insert", "change"):
                break
            await pilot.press("j")
        else:
            raise AssertionError("no changed line of the change request's side in the diff")

        # Comment on the block under the cursor.
        await pilot.press("c")
        await composer_open(pilot)
        await write_and_post(pilot, "Loop: is this the header's name?")
        threads = [c async for c in api.comments.list(space, change_request=2)]
        thread = next(c for c in threads if c.body.markdown == "Loop: is this the header's name?")
        assert thread.target.node is not None and thread.status == "open"

        # Reply to it (the cursor is still on its block).
        await pilot.press("R")
        await composer_open(pilot)
        await write_and_post(pilot, "Loop: yes, it is")
        assert (await api.comments.get(space, thread.id, change_request=2)).replies == 1

        # React from the picker.
        await pilot.press("plus")
        await wait_until(pilot, lambda: isinstance(app.screen, Chooser), "the emoji picker")
        chooser = app.screen
        assert isinstance(chooser, Chooser)
        while chooser.highlighted != "🎉":
            await pilot.press("j")
        await pilot.press("enter")
        await wait_for_workers(pilot)
        await settle(pilot)
        reactions = (await api.comments.get(space, thread.id, change_request=2)).reactions
        assert [(r.emoji, r.count) for r in reactions] == [("🎉", 1)]

        # Resolve it.
        await pilot.press("x")
        await wait_for_workers(pilot)
        assert (await api.comments.get(space, thread.id, change_request=2)).status == "resolved"

        # Approve.
        before = host.reloads  # type: ignore[attr-defined]
        await pilot.press("a")
        await wait_for_workers(pilot)
        app.screen.query_one("#field-verdict", Select).value = "approve"
        app.screen.query_one("#field-comment", TextArea).focus()
        await type_text(pilot, "Loop: approved")
        await pilot.press("ctrl+s")
        await reloaded(pilot, host, before)
        reviews = [r async for r in api.change_requests.reviews.list(space, 2)]
        assert reviews[-1].status == "approved"

        # Merge: the checklist says it is outdated; merging updates from main first.
        await pilot.press("m")
        await wait_for_workers(pilot)
        merge = app.screen
        assert isinstance(merge, MergeScreen)
        await wait_until(pilot, lambda: merge.state is not None, "the checklist is shown")
        assert not merge.query_one("#merge-ok", Button).disabled
        before = host.reloads  # type: ignore[attr-defined]
        await pilot.press("m")
        await reloaded(pilot, host, before)
        await wait_until(pilot, lambda: app.screen is host, "back in the pane")
        merged = await api.change_requests.get(space, 2)
        assert merged.status == "merged"
        assert host.change_request.status == "merged"
