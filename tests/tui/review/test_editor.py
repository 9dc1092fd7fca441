"""The shared $EDITOR helper: the text comes back edited, unchanged is None (and said), a
failure is reported and loses nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App
from textual.drivers.headless_driver import HeadlessDriver

from docdeck.tui.kit.editor import edit_text, editor_command
from tui.review.editor import use_test_editor


class _Bare(App[None]):
    pass


async def test_the_edited_text_comes_back(monkeypatch: pytest.MonkeyPatch) -> None:
    use_test_editor(monkeypatch, "world=>editor")
    app = _Bare()
    async with app.run_test():
        assert await edit_text(app, "hello world\n") == "hello editor\n"


async def test_unchanged_text_is_none_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An editor closed without a change is said once (it never looks like nothing
    happened), and is not an error."""
    use_test_editor(monkeypatch)
    app = _Bare()
    async with app.run_test() as pilot:
        assert await edit_text(app, "hello\n") is None
        await pilot.pause()
        [note] = list(app._notifications)
        assert note.title == "No change" and note.severity == "information"


async def test_a_missing_editor_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", "/nonexistent/editor --wait")
    app = _Bare()
    async with app.run_test() as pilot:
        assert await edit_text(app, "hello\n") is None
        await pilot.pause()
        [note] = list(app._notifications)
        assert "cannot run '/nonexistent/editor'" in note.message
        assert "$EDITOR" in note.message


async def test_an_editor_that_saved_then_failed_keeps_the_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    use_test_editor(monkeypatch, "hello=>bye", exit_status=3)
    app = _Bare()
    async with app.run_test() as pilot:
        assert await edit_text(app, "hello\n") is None
        await pilot.pause()
        [note] = list(app._notifications)
        assert "exited with status 3" in note.message
        kept = Path(note.message.split("kept in ", 1)[1].split(". ", 1)[0])
        try:
            assert kept.read_text(encoding="utf-8") == "bye\n"
        finally:
            kept.unlink()


def test_visual_wins_over_editor_and_vi_is_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VISUAL", "code --wait")
    monkeypatch.setenv("EDITOR", "nano")
    assert editor_command() == ["code", "--wait"]
    monkeypatch.delenv("VISUAL")
    assert editor_command() == ["nano"]
    monkeypatch.delenv("EDITOR")
    assert editor_command() == ["vi"]


async def test_a_driver_that_can_suspend_hands_the_terminal_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Textual's own suspend runs around the editor where the driver supports it: the app
    publishes suspend before the editor runs and resume after it."""
    use_test_editor(monkeypatch, "a=>b")
    monkeypatch.setattr(HeadlessDriver, "can_suspend", property(lambda self: True))
    app = _Bare()
    seen: list[str] = []
    async with app.run_test():
        app.app_suspend_signal.subscribe(app, lambda _: seen.append("suspend"))
        app.app_resume_signal.subscribe(app, lambda _: seen.append("resume"))
        assert await edit_text(app, "a\n") == "b\n"
    assert seen == ["suspend", "resume"]


async def test_a_missing_editor_gives_the_terminal_back_to_the_app(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a terminal to hand over, an editor that cannot start (`EDITOR` misspelt) raised
    out of Textual's `suspend`, which then never resumed: the screen stayed blank and the
    keys were echoed by the terminal, with no way back but killing docdeck. The app resumes
    and says why, as when there is no terminal to hand over."""
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", "/nonexistent/editor --wait")
    monkeypatch.setattr(HeadlessDriver, "can_suspend", property(lambda self: True))
    app = _Bare()
    seen: list[str] = []
    async with app.run_test() as pilot:
        app.app_suspend_signal.subscribe(app, lambda _: seen.append("suspend"))
        app.app_resume_signal.subscribe(app, lambda _: seen.append("resume"))
        assert await edit_text(app, "hello\n") is None
        await pilot.pause()
        [note] = list(app._notifications)
        assert "cannot run '/nonexistent/editor'" in note.message
    assert seen == ["suspend", "resume"]
