"""The review pane's threads: the change request's list, threads inline after the block
they target, and the thread keys acting on the diff's cursor line."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from textual.pilot import Pilot

from docdeck.gateway import Client
from docdeck.tui.kit import typeahead
from docdeck.tui.review import ChangeRequestsView, ReviewScreen
from docdeck.tui.threads import Composer
from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, screen_lines, wait_for_workers, wait_until
from tui.review.helpers import open_change_requests, open_review, review_settled
from tui.space.helpers import settle
from tui.threads.helpers import composer_open, open_guide, write_and_post

READER = "freya@northwind.dev"
EXAMPLE = "Please add an example response"


def _text(pilot: Pilot[None]) -> str:
    return "\n".join(screen_lines(pilot))


async def _partial_refunds(pilot: Pilot[None]) -> ReviewScreen:
    """Change request #4, its added page "Partial refunds" (Dana's thread is on its title)."""
    screen = await open_review(pilot, 4)
    for _ in range(8):
        page = screen.pages_list.current
        if page is not None and page.title == "Partial refunds":
            break
        await pilot.press("right_curly_bracket")
        await review_settled(pilot)
    await wait_until(
        pilot,
        lambda: (
            screen.diff_view.page_id == screen.current_page_id()
            and bool(screen.diff_view.annotations.get(screen.current_page_id() or ""))
        ),
        "the page's diff shows its threads",
    )
    await review_settled(pilot)
    screen.diff_view.focus()
    await pilot.pause()
    return screen


async def test_threads_listed_and_inline(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _partial_refunds(pilot)
        text = _text(pilot)
        assert "Threads in change request #4: 1 open, 1 resolved" in text
        lines = text.split("\n")
        title = next(i for i, line in enumerate(lines) if "+ # Partial refunds" in line)
        inline = " ".join(lines[title + 1 : title + 3])  # wrapped under the line
        assert "💬 ● open  Dana Kowalski: Please add an example response" in inline
        assert "1 reply" in inline and "👍 1" in inline
        assert "✓ resolved by Chen Wei" in text  # Inês's thread on Rate limits, in the list
        heading = screen.threads_panel.thread_list.get_option_at_index(0).prompt
        assert str(heading) == "On “Partial refunds”  (this page)"  # the page shown first


async def test_comment_reply_and_resolve_from_the_diff(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    api = Client("http://sandbox", admin_token, transport=transport, max_retries=0)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _partial_refunds(pilot)
        space, page = screen.space.id, screen.current_page_id()

        await pilot.press("R")  # the cursor is on the title: Dana's thread is on it
        composer = await composer_open(pilot)
        assert "Dana Kowalski" in str(composer.query_one("#composer-context").render())
        await write_and_post(pilot, "Added in the last push")
        threads = [c async for c in api.comments.list(space, change_request=4)]
        example = next(c for c in threads if EXAMPLE in (c.body.markdown or ""))
        assert example.replies == 2
        await wait_until(pilot, lambda: "2 replies" in _text(pilot), "the inline count follows")

        await pilot.press("j", "j")  # the paragraph under the title
        assert screen.cursor_line() == ("change", 2)
        await pilot.press("c")
        composer = await composer_open(pilot)
        assert "“Refund part of an order" in str(composer.query_one("#composer-context").render())
        await write_and_post(pilot, "Say the smallest amount")
        threads = [c async for c in api.comments.list(space, change_request=4)]
        new = next(c for c in threads if c.body.markdown == "Say the smallest amount")
        assert new.target.page is not None and new.target.page.id == page
        assert new.target.node is not None
        assert (new.target.node.preview or "").startswith("Refund part of an order")
        await wait_until(
            pilot, lambda: "Admin" in _text(pilot) or "Ada Okafor: Say" in _text(pilot), "inline"
        )
        lines = _text(pilot).split("\n")
        paragraph = next(i for i, line in enumerate(lines) if "+ Refund part of an order" in line)
        assert any("Ada Okafor: Say the smallest amount" in line for line in lines[paragraph:])

        await pilot.press("x")  # resolves the thread at the cursor (the new one)
        await wait_for_workers(pilot)
        assert (await api.comments.get(space, new.id, change_request=4)).status == "resolved"
        await pilot.press("F")  # open only: the resolved one leaves the diff too
        await wait_until(
            pilot, lambda: "Say the smallest amount" not in _text(pilot), "filtered inline"
        )


async def test_tab_reaches_the_threads_list(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _partial_refunds(pilot)
        panel = screen.threads_panel
        await pilot.press("tab")
        await wait_until(pilot, lambda: panel.thread_list.has_focus, "the list has focus")
        await pilot.press("tab")
        assert screen.pages_list.has_focus


async def test_a_reader_is_told_why(make_app: AppFactory, token_for: Callable[[str], str]) -> None:
    """Freya reads the Webhooks Guide (no comment role): its change request #1 has a thread."""
    app = make_app(token=token_for(READER))
    async with app.run_test(size=(120, 40)) as pilot:
        space = await open_guide(pilot)
        await pilot.press("5")
        await settle(pilot)
        view = space.query_one(ChangeRequestsView)
        await wait_until(pilot, lambda: view.loaded, "the change requests are listed")
        view.table.move_cursor(row=[cr.number for cr in view.shown].index(1), animate=False)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the pane opens")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await wait_until(pilot, lambda: screen.threads_panel.loaded, "the threads are read")
        await review_settled(pilot)
        assert "Which schedule do we document" in _text(pilot)
        assert not screen.active_bindings["c"].enabled
        await pilot.press("c")
        await pilot.press("tab", "tab")  # the threads list: R on Ada's thread
        await wait_until(pilot, lambda: screen.threads_panel.thread_list.has_focus, "list")
        assert not screen.active_bindings["R"].enabled
        await pilot.press("R")
        await wait_for_workers(pilot)
        notes = [n.message for n in app._notifications if n.title == "Not allowed"]
        assert any("needs the comment role" in note for note in notes)
        assert any("You may not reply to this comment" in note for note in notes)
        assert not isinstance(app.screen, Composer)


async def _open_4_while_its_changes_wait(
    pilot: Pilot[None], transport: RecordingTransport, changes: asyncio.Event
) -> ReviewScreen:
    """Change request #4 opened from the list, its changes' read held until `changes` is set
    (its first diff not drawn yet)."""
    view = await open_change_requests(pilot)
    transport.held = ("/changes", changes)
    view.table.move_cursor(row=[cr.number for cr in view.shown].index(4), animate=False)
    await pilot.pause()
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ReviewScreen), "the pane opens")
    pane = pilot.app.screen
    assert isinstance(pane, ReviewScreen)
    await wait_until(
        pilot, lambda: any(r.endswith("/changes") for r in transport.requests), "asked"
    )
    return pane


async def test_the_threads_panel_comes_after_the_first_diff_in_its_place(
    make_app: AppFactory, transport: RecordingTransport, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The panel and the thread keys' part are mounted once the first diff is drawn, where a
    slot of the panel's height kept the room (the diff does not move); a thread key pressed
    before says why it does nothing."""
    monkeypatch.setattr(typeahead, "LOAD_LIMIT", 0.3)  # keys go to the pane while it loads
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        changes, threads = asyncio.Event(), asyncio.Event()
        pane = await _open_4_while_its_changes_wait(pilot, transport, changes)
        await pilot.pause()
        slot = pane.query_one("#review-threads-slot")
        assert pane.query_one_optional("#review-threads") is None
        assert pane.check_action("thread_comment_block", ()) is None
        await pilot.press("c")
        await wait_until(
            pilot,
            lambda: any("The threads open once" in n.message for n in app._notifications),
            "the key says why it does nothing",
        )
        room = slot.region

        transport.held = ("/comments", threads)  # the threads' read waits: the panel as it comes
        changes.set()
        await wait_until(
            pilot, lambda: pane.query_one_optional("#review-threads") is not None, "mounted"
        )
        await pilot.pause()
        assert pane.query_one_optional("#review-threads-slot") is None
        assert pane.threads_panel.region == room
        threads.set()
        await review_settled(pilot)
        assert pane.check_action("thread_comment_block", ()) is True
        assert "Threads in change request #4: 1 open, 1 resolved" in _text(pilot)


async def test_the_threads_come_when_r_replaced_the_first_load(
    make_app: AppFactory, transport: RecordingTransport, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`r` pressed while the first diff is still read replaces that load: the load that
    ends mounts the threads (they were left unread, their keys disabled for good)."""
    monkeypatch.setattr(typeahead, "LOAD_LIMIT", 0.3)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        changes = asyncio.Event()
        pane = await _open_4_while_its_changes_wait(pilot, transport, changes)
        asked = len(transport.requests)
        await pilot.press("r")
        await wait_until(pilot, lambda: len(transport.requests) > asked, "read again")
        changes.set()
        await review_settled(pilot)
        await wait_until(pilot, lambda: pane.diff_threads_part is not None, "the threads")
        await wait_until(
            pilot,
            lambda: "Threads in change request #4: 1 open, 1 resolved" in _text(pilot),
            "the threads are read",
        )
        assert pane.check_action("thread_comment_block", ()) is True


def _while_the_panel_mounts(
    monkeypatch: pytest.MonkeyPatch, then: Callable[[ReviewScreen], object]
) -> list[ReviewScreen]:
    """`then(pane)` run once, right after the threads panel's mount is asked and before it
    is awaited; the list holds the pane once it has run."""
    from docdeck.tui.threads import ThreadsPanel

    mount = ReviewScreen.mount
    done: list[ReviewScreen] = []

    def mount_then(self: ReviewScreen, *widgets: object, **where: object) -> object:
        mounting = mount(self, *widgets, **where)  # type: ignore[arg-type]
        if not done and any(isinstance(w, ThreadsPanel) for w in widgets):
            done.append(self)
            then(self)
        return mounting

    monkeypatch.setattr(ReviewScreen, "mount", mount_then)
    return done


async def test_a_load_replaced_while_the_threads_mount_leaves_one_started_panel(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A load replaced (`r`, or the reload after an edit) while it waited for the panel's
    mount left that panel mounted but never started, and the next load mounted a second one
    under the same id: the threads never read, the pane's children never settled."""
    from docdeck.tui.threads import ThreadsPanel

    # As `r` does, while the first load awaits the panel's mount.
    replaced = _while_the_panel_mounts(monkeypatch, lambda pane: pane.load(fresh=True))
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_review(pilot, 4)
        await review_settled(pilot)
        await wait_until(pilot, lambda: pane.diff_threads_part is not None, "the threads")
        assert replaced == [pane]
        assert len(pane.query(ThreadsPanel)) == 1
        assert all(child.parent is not None for child in pane.walk_children())
        await wait_until(
            pilot,
            lambda: "Threads in change request #4: 1 open, 1 resolved" in _text(pilot),
            "the threads are read",
        )
        assert pane.check_action("thread_comment_block", ()) is True


async def test_the_pane_closed_while_the_threads_mount_leaves_no_error(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Escape while the panel is being mounted: the mount, which outlives the load that
    started it, ends quietly (no error left unretrieved, nothing reported)."""
    closed = _while_the_panel_mounts(monkeypatch, lambda pane: pane.app.pop_screen())
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        errors: list[dict[str, object]] = []
        asyncio.get_running_loop().set_exception_handler(lambda _, context: errors.append(context))
        view = await open_change_requests(pilot)
        view.table.move_cursor(row=[cr.number for cr in view.shown].index(4), animate=False)
        await pilot.pause()
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(closed), "the panel's mount begins")
        pane = closed[0]
        await wait_until(pilot, lambda: pilot.app.screen is not pane, "the pane is closed")
        mounting = pane._threads_mount
        assert mounting is not None
        await asyncio.wait_for(asyncio.shield(mounting), 10)
        await wait_for_workers(pilot)
        assert errors == []
        assert not [n for n in app._notifications if n.severity == "error"]
