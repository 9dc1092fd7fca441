"""The review pane shows what is true now: `r` re-reads the threads as well as the diff,
and reopening a change request reads its current revision, not the list's copy."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from docdeck.gateway import Client
from docdeck.tui.review import MergeScreen, ReviewScreen
from docdeck.tui.threads import ThreadsPanel
from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, screen_lines, wait_until
from tui.review.actions_helpers import open_host, page_id, reloaded
from tui.review.editor import use_test_editor
from tui.review.helpers import (
    authored_change_request,
    diff_view,
    open_change_requests,
    review_settled,
)
from tui.space.helpers import settle


async def _open_number(pilot, view, number: int) -> ReviewScreen:  # type: ignore[no-untyped-def]
    await wait_until(pilot, lambda: number in [cr.number for cr in view.shown], "it is listed")
    view.table.focus()
    view.table.move_cursor(row=[cr.number for cr in view.shown].index(number), animate=False)
    await pilot.pause()
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ReviewScreen), "the pane opens")
    await review_settled(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, ReviewScreen)
    return screen


async def test_r_re_reads_the_threads_from_the_diff_and_from_the_thread_list(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_change_requests(pilot)
        number = view.shown[0].number
        screen = await _open_number(pilot, view, number)
        panel = screen.query_one(ThreadsPanel)
        for focus, text in ((screen.diff_view, "Added meanwhile"), (panel.thread_list, "Again")):
            async with Client("http://sandbox", admin_token, transport=transport) as api:
                await api.comments.post(screen.space.id, text, change_request=number)
            focus.focus()
            await pilot.pause()
            await pilot.press("r")
            await review_settled(pilot)
            shown = [t.comment.body.markdown for t in panel.threads]
            assert text in shown, (focus, shown)


async def test_reopening_a_change_request_shows_its_current_revision(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    space, cr, page_id = await authored_change_request(
        transport, admin_token, "getting-started/rate-limits", lambda md: md + "\nFirst edit.\n"
    )
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_change_requests(pilot)
        await pilot.press("r")
        await settle(pilot)
        screen = await _open_number(pilot, view, cr.number)
        assert "First edit." in "\n".join(diff_view(pilot).diff.change)  # type: ignore[union-attr]
        await pilot.press("escape")
        await pilot.pause()
        async with Client("http://sandbox", admin_token, transport=transport) as api:
            markdown = (
                await api.change_requests.content.page(
                    space.id, cr.number, page_id, format="markdown"
                )
            ).markdown  # type: ignore[union-attr]
            change = {
                "operation": "update_page",
                "page": page_id,
                "document": {"markdown": markdown + "\nSecond edit.\n"},
            }
            await api.change_requests.content.update(space.id, cr.number, [change])
            current = await api.change_requests.get(space.id, cr.number)
        assert current.revision != cr.revision
        screen = await _open_number(pilot, view, cr.number)
        assert screen.change_request.revision == current.revision
        assert "Second edit." in "\n".join(diff_view(pilot).diff.change)  # type: ignore[union-attr]


async def test_an_approval_of_an_older_revision_is_not_an_approval(
    make_app: AppFactory,
    transport: RecordingTransport,
    admin_token: str,
    token_for: Callable[[str], str],
) -> None:
    editor_token = token_for("chen@northwind.dev")  # the author; the admin reviews
    space, cr, page_id = await authored_change_request(
        transport, editor_token, "getting-started/rate-limits", lambda md: md + "\nFirst.\n"
    )
    async with Client("http://sandbox", admin_token, transport=transport) as api:
        await api.change_requests.reviews.submit(space.id, cr.number, status="approved")
    async with Client("http://sandbox", editor_token, transport=transport) as author:
        markdown = (
            await author.change_requests.content.page(
                space.id, cr.number, page_id, format="markdown"
            )
        ).markdown  # type: ignore[union-attr]
        change = {
            "operation": "update_page",
            "page": page_id,
            "document": {"markdown": markdown + "\nSecond.\n"},
        }
        await author.change_requests.content.update(space.id, cr.number, [change])
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        view = await open_change_requests(pilot)
        await pilot.press("r")
        await settle(pilot)
        await wait_until(pilot, lambda: cr.id in view.verdicts, "the list has its verdicts")
        assert view.verdicts[cr.id].get("approved") is None, view.verdicts[cr.id]
        await _open_number(pilot, view, cr.number)
        header = "\n".join(screen_lines(pilot)[:4])
        assert "approved:" not in header and "○ outdated:" in header, header
        await pilot.press("m")
        await wait_until(
            pilot, lambda: isinstance(app.screen, MergeScreen), "the merge check opens"
        )
        merge = app.screen
        await wait_until(pilot, lambda: merge.state is not None, "the check is read")  # type: ignore[attr-defined]
        said = [text for _mark, text in merge.state.lines]  # type: ignore[attr-defined]
        assert not any(text.startswith("Approved by") for text in said), said
        assert any("Outdated review by" in text for text in said), said


async def test_enter_on_a_thread_shows_its_block_in_the_diff(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        host = await open_host(pilot, 4)
        panel = host.threads_panel
        thread_list = panel.thread_list
        index = next(
            i
            for i, item in enumerate(thread_list.items)
            if item is not None and item.thread.node_id is not None
        )
        thread = thread_list.items[index].thread  # type: ignore[union-attr]
        blocks = await host.page_blocks(thread.page_id or "")
        block = blocks.by_key(thread.node_id or "")
        assert block is not None
        diff = host.diff_view
        diff.move_cursor(len(diff.rows) - 1)  # elsewhere: the last line of the page shown
        thread_list.focus()
        thread_list.highlighted = index
        await pilot.pause()
        await pilot.press("enter")
        await wait_until(
            pilot,
            lambda: diff.page_id == thread.page_id and host.focused is diff,
            "the thread's page is shown, the diff focused",
        )
        await review_settled(pilot)
        place = diff.cursor_line()
        assert place is not None and place[0] == "change"
        assert block.start <= place[1] <= block.last, (place, block)


async def test_after_an_edit_the_pane_shows_the_page_just_edited(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_test_editor(monkeypatch)
    monkeypatch.setenv("DOCDECK_TEST_EDIT_WRITE", "# Rate limits\n\nRewritten in the pane.\n")
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        host = await open_host(pilot, 2)
        client: Client = app.client  # type: ignore[attr-defined]
        rate = await page_id(client, host.space, 2, "Rate limits")
        assert host.current_page_id() != rate  # another changed page is shown
        before = host.reloads  # type: ignore[attr-defined]
        host.edit_page(rate)
        await reloaded(pilot, host, before)
        await review_settled(pilot)
        assert host.current_page_id() == rate
        assert "Rewritten in the pane." in "\n".join(host.diff_view.diff.change)  # type: ignore[union-attr]
