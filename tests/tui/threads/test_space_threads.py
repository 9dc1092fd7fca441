"""The space screen's comments view against the sandbox demo: threads with replies and
reactions, reply, edit and delete my own, react and un-react, resolve and reopen, filter."""

from __future__ import annotations

import pytest

from docdeck.gateway import Client
from docdeck.gateway._errors import NotFoundError
from docdeck.tui.kit.chooser import Chooser
from docdeck.tui.kit.dialogs.confirm import ConfirmDialog
from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, screen_lines, wait_for_workers, wait_until
from tui.space.helpers import open_api_reference, settle
from tui.threads.helpers import (
    ROTATE,
    is_comment,
    is_reply,
    move_to,
    open_comments,
    open_guide,
    write_and_post,
)


def _text(pilot) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(screen_lines(pilot))


@pytest.fixture
def api(transport: RecordingTransport, admin_token: str) -> Client:
    """The server's view, through the gateway on the same sandbox (not the app's client)."""
    return Client("http://sandbox", admin_token, transport=transport, max_retries=0)


async def test_threads_show_replies_reactions_resolution(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_guide(pilot)
        panel = await open_comments(pilot, screen)
        text = _text(pilot)
        assert "1 open, 1 resolved" in text
        assert "on Setup › “Register an endpoint”" in text  # the block's text when posted
        assert ROTATE in text and "rotate the signing secret" in text
        assert "↳ Chen Wei" in text and "Good point" in text  # replies, oldest first
        assert text.index("Good point") < text.index("people ask us this")
        assert "👍 2 (you)  🎉 1" in text  # Ada (the app's user) gave one of the 👍
        assert "✓ resolved by Ada Okafor" in text and "on the whole space" in text
        assert panel.thread_list.has_focus


async def test_outdated_thread_is_marked(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_api_reference(pilot)
        await open_comments(pilot, screen)
        text = _text(pilot)
        line = next(line for line in text.split("\n") if "on Errors" in line)
        assert "⚠ outdated" in line
        pagination = next(line for line in text.split("\n") if "on Pagination" in line)
        assert "outdated" not in pagination


async def test_reply_edit_and_delete_my_own(make_app: AppFactory, api: Client) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_guide(pilot)
        panel = await open_comments(pilot, screen)
        item = await move_to(pilot, panel, is_comment(ROTATE), "the rotate question")
        space, comment = screen.space.id, item.thread.comment.id

        await pilot.press("R")
        await write_and_post(pilot, "Agreed with both")
        assert "↳ Ada Okafor" in _text(pilot) and "Agreed with both" in _text(pilot)
        replies = [r async for r in api.comments.replies.list(space, comment)]
        assert [r.body.markdown for r in replies][-1] == "Agreed with both"
        mine = panel.item
        assert mine is not None and mine.reply is not None and mine.reply.id == replies[-1].id

        await pilot.press("e")
        await write_and_post(pilot, " and thanks")
        assert "Agreed with both and thanks" in _text(pilot)
        again = await api.comments.replies.get(space, comment, replies[-1].id)
        assert again.body.markdown == "Agreed with both and thanks" and again.editedAt is not None
        assert "(edited)" in _text(pilot)

        await pilot.press("delete")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDialog), "asked first")
        await pilot.press("y")
        await wait_until(pilot, lambda: "and thanks" not in _text(pilot), "the reply is gone")
        with pytest.raises(NotFoundError):
            await api.comments.replies.get(space, comment, replies[-1].id)
        thread = next(t for t in panel.threads if t.comment.id == comment)
        assert thread.comment.replies == 2 and len(thread.replies) == 2


async def test_react_and_unreact(make_app: AppFactory, api: Client) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_guide(pilot)
        panel = await open_comments(pilot, screen)
        item = await move_to(pilot, panel, is_comment(ROTATE), "the rotate question")
        space, comment = screen.space.id, item.thread.comment.id

        async def react(emoji: str) -> None:
            await pilot.press("plus")
            await wait_until(pilot, lambda: isinstance(app.screen, Chooser), "the picker")
            chooser = app.screen
            assert isinstance(chooser, Chooser)
            while chooser.highlighted != emoji:
                await pilot.press("j")
            await pilot.press("enter")
            await wait_for_workers(pilot)
            await settle(pilot)

        await react("👍")  # Ada's own: reacting again removes it
        assert "👍 1  🎉 1" in _text(pilot) and "(you)" not in _text(pilot)
        reactions = (await api.comments.get(space, comment)).reactions
        assert [(r.emoji, r.count) for r in reactions] == [("👍", 1), ("🎉", 1)]

        await react("👍")
        assert "👍 2 (you)" in _text(pilot)
        await react("🚀")
        assert "🚀 1 (you)" in _text(pilot)
        reactions = (await api.comments.get(space, comment)).reactions
        assert {r.emoji: r.count for r in reactions} == {"👍": 2, "🎉": 1, "🚀": 1}

        reply = await move_to(pilot, panel, is_reply("people ask us"), "Dana's reply")
        await react("🙏")  # a reply has its own reactions
        assert reply.reply is not None
        got = await api.comments.replies.get(space, comment, reply.reply.id)
        assert [(r.emoji, r.count) for r in got.reactions] == [("🙏", 2)]


async def test_resolve_reopen_and_filter(make_app: AppFactory, api: Client) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_guide(pilot)
        panel = await open_comments(pilot, screen)
        item = await move_to(pilot, panel, is_comment(ROTATE), "the rotate question")
        space, comment = screen.space.id, item.thread.comment.id

        await pilot.press("x")
        await wait_for_workers(pilot)
        assert "0 open, 2 resolved" in _text(pilot)
        resolved = await api.comments.get(space, comment)
        assert resolved.status == "resolved" and resolved.resolvedBy is not None

        await pilot.press("F")  # open only: nothing left
        assert "showing open" in _text(pilot) and "No open threads" in _text(pilot)
        assert ROTATE not in _text(pilot)
        await pilot.press("F")  # resolved only
        assert "showing resolved" in _text(pilot) and ROTATE in _text(pilot)

        await move_to(pilot, panel, is_comment(ROTATE), "the rotate question")
        await pilot.press("x")  # reopen
        await wait_for_workers(pilot)
        assert "1 open, 1 resolved" in _text(pilot)
        assert (await api.comments.get(space, comment)).status == "open"
        await pilot.press("F")
        assert "showing all" in _text(pilot) and ROTATE in _text(pilot)
