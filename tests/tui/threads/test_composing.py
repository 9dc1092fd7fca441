"""Commenting on a block of the page being read, a post that fails keeping its draft, Escape
asking before a draft is thrown away, and thread keys a role does not allow saying why."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.widgets import Static

from docdeck.gateway import Client
from docdeck.tui.kit.chooser import Chooser
from docdeck.tui.threads import Composer, DiscardDraft
from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, screen_lines, type_text, wait_for_workers, wait_until
from tui.review.editor import use_test_editor
from tui.space.helpers import settle
from tui.threads.helpers import (
    ROTATE,
    composer_open,
    is_comment,
    move_to,
    open_comments,
    open_guide,
    write_and_post,
)

READER = "freya@northwind.dev"


def _text(pilot) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(screen_lines(pilot))


async def _open_setup(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("f")
    await type_text(pilot, "Setup")
    await pilot.press("enter")
    await settle(pilot)
    await pilot.press("enter")  # chosen in the tree: the preview takes the keys
    await settle(pilot)


async def test_comment_on_the_block_under_the_cursor(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    api = Client("http://sandbox", admin_token, transport=transport, max_retries=0)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_guide(pilot)
        await _open_setup(pilot)
        page = screen.current_page
        assert page is not None and page.title == "Setup"
        existing = [c async for c in api.comments.list(screen.space.id, target_page=page.id)]
        rotate = next(c for c in existing if ROTATE in (c.body.markdown or ""))
        assert rotate.target.node is not None

        # Rendered view, at the top: the page's first block (its title).
        await pilot.press("c")
        composer = await composer_open(pilot)
        context = str(composer.query_one("#composer-context", Static).render())
        assert "Setup › “Setup”" in context
        await pilot.press("escape")  # nothing typed: closes at once
        await wait_until(pilot, lambda: app.screen is screen, "the composer closed")

        # Raw view, cursor on line 3 ("## Register an endpoint"): that block's key, the
        # same one the demo's thread on it was posted with.
        await pilot.press("v")
        await settle(pilot)
        screen.focus_preview()
        await pilot.press("down", "down")
        await pilot.press("c")
        composer = await composer_open(pilot)
        assert "“Register an endpoint”" in str(
            composer.query_one("#composer-context", Static).render()
        )
        await write_and_post(pilot, "Name the header here")
        posted = [c async for c in api.comments.list(screen.space.id, target_page=page.id)]
        new = next(c for c in posted if c.body.markdown == "Name the header here")
        assert new.target.node is not None and new.target.node.id == rotate.target.node.id
        assert new.target.node.preview == "Register an endpoint"
        assert any(n.title == "Posted" for n in app._notifications)

        await pilot.press("6")
        await settle(pilot)
        assert "Name the header here" in _text(pilot)
        assert "On “Setup”  (this page)" in _text(pilot)  # the page being read comes first


async def test_a_failed_post_keeps_the_draft(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_guide(pilot)
        panel = await open_comments(pilot, screen)
        await move_to(pilot, panel, is_comment(ROTATE), "the rotate question")
        await pilot.press("R")
        composer = await composer_open(pilot)
        await type_text(pilot, "Worth keeping quite")  # q is typed, not a way out
        assert app.screen is composer
        await pilot.press(*["backspace"] * 6)
        transport.offline = True
        await pilot.press("ctrl+s")
        await wait_for_workers(pilot)
        error = composer.query_one("#dialog-error", Static)
        assert app.screen is composer and error.display
        assert "connect" in str(error.render()).lower()
        assert composer.text == "Worth keeping" and not composer.body.read_only

        transport.offline = False
        composer.body.insert("x" * 65_537)  # a paste too long for the server
        await pilot.press("ctrl+s")
        await wait_for_workers(pilot)
        assert app.screen is composer
        assert "at most 65,536 characters" in str(error.render())
        assert composer.text.startswith("Worth keeping")

        composer.body.text = "Worth keeping"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.screen is screen, "posted at last")
        await settle(pilot)
        assert "Worth keeping" in _text(pilot)


async def test_escape_asks_before_a_draft_is_thrown_away(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_guide(pilot)
        await open_comments(pilot, screen)
        await pilot.press("C")  # the page being read, or the whole space
        await wait_until(pilot, lambda: isinstance(app.screen, Chooser), "asked where")
        await pilot.press("j", "enter")  # the whole space
        composer = await composer_open(pilot)
        assert "the whole space" in str(composer.query_one("#composer-context", Static).render())
        await type_text(pilot, "half a thought")
        posts = len([r for r in transport.requests if r.startswith("POST")])

        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, DiscardDraft), "asked first")
        await pilot.press("n")
        await wait_until(pilot, lambda: app.screen is composer, "back to the draft")
        assert composer.text == "half a thought"

        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, DiscardDraft), "asked again")
        await pilot.press("y")
        await wait_until(pilot, lambda: app.screen is screen, "the draft is gone")
        assert len([r for r in transport.requests if r.startswith("POST")]) == posts


async def test_keys_a_role_does_not_allow_say_why(
    make_app: AppFactory, token_for: Callable[[str], str]
) -> None:
    app = make_app(token=token_for(READER))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_guide(pilot)
        assert not screen.space.permissions.comment
        await pilot.press("c")  # the pages view: commenting needs the comment role
        notes = [n.message for n in app._notifications if n.title == "Not allowed"]
        assert any("needs the comment role" in note for note in notes)
        assert not isinstance(app.screen, Composer)

        panel = await open_comments(pilot, screen)
        await move_to(pilot, panel, is_comment(ROTATE), "the rotate question")
        for key in ("R", "x", "plus", "e", "delete"):
            assert not screen.active_bindings[key].enabled, key  # shown dimmed
        await pilot.press("R")
        await pilot.press("delete")
        await wait_for_workers(pilot)
        notes = [n.message for n in app._notifications if n.title == "Not allowed"]
        assert "You may not reply to this comment: it needs the comment role in the space." in notes
        assert any("only its author (Emeka Nwosu) or a space admin may" in n for n in notes)
        assert app.screen is screen


async def test_an_admin_may_delete_but_not_edit_another_s_comment(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_guide(pilot)
        panel = await open_comments(pilot, screen)
        await move_to(pilot, panel, is_comment(ROTATE), "the rotate question")
        assert not screen.active_bindings["e"].enabled
        assert screen.active_bindings["delete"].enabled
        await pilot.press("e")
        notes = [n.message for n in app._notifications if n.title == "Not allowed"]
        assert "You may not edit this comment: only its author (Emeka Nwosu) may." in notes


async def test_the_draft_written_in_editor(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch, transport: RecordingTransport
) -> None:
    use_test_editor(monkeypatch, "first draft=>written in my editor")
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_guide(pilot)
        panel = await open_comments(pilot, screen)
        await move_to(pilot, panel, is_comment(ROTATE), "the rotate question")
        await pilot.press("R")
        composer = await composer_open(pilot)
        await type_text(pilot, "first draft")
        await pilot.press("ctrl+o")
        await wait_until(
            pilot, lambda: composer.text == "written in my editor", "the editor's text is back"
        )
        assert app.screen is composer  # nothing posted yet: the text is there to check

        use_test_editor(monkeypatch, exit_status=3)  # an editor that fails: the draft stays
        await pilot.press("ctrl+o")
        await wait_for_workers(pilot)
        assert composer.text == "written in my editor"
        assert any(n.severity == "error" for n in app._notifications)

        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.screen is screen, "posted")
        await settle(pilot)
        assert "written in my editor" in _text(pilot)
