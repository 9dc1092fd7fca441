"""A bug inside the running app ends it with one line, never a traceback with local variables."""

from __future__ import annotations

from typing import Any

import pytest
from textual.css.query import NoMatches

from docdeck.tui.orgs import DetailPane
from tui.helpers import AppFactory, open_northwind, select


class _Bug(Exception):
    pass


async def _crash_while_members_are_shown(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app()

    def broken(self: DetailPane, reasons: list[str]) -> None:
        members = ["ada@northwind.dev"]  # a local a traceback with locals would print
        raise _Bug(f"broken after {len(members)} members")

    with pytest.raises(_Bug):
        async with app.run_test(size=(100, 30)) as pilot:
            await open_northwind(pilot)
            monkeypatch.setattr(DetailPane, "set_reasons", broken)
            await select(pilot, "Members")
            await pilot.pause()
    assert app.return_code == 1


async def test_an_internal_error_is_one_line_without_locals(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DOCDECK_DEBUG", raising=False)
    await _crash_while_members_are_shown(make_app, monkeypatch)
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines == [
        "docdeck: error: internal error: _Bug: broken after 1 members (set DOCDECK_DEBUG=1 "
        "to see the traceback, and please report it)"
    ]


async def test_docdeck_debug_shows_the_traceback_still_without_locals(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DOCDECK_DEBUG", "1")
    await _crash_while_members_are_shown(make_app, monkeypatch)
    err = capsys.readouterr().err
    assert "Traceback" in err
    assert "_Bug: broken after 1 members" in err
    assert "ada@northwind.dev" in err  # the source line, shown in the traceback
    assert "locals" not in err


async def _error_while_quitting(app: Any, error: Exception) -> None:
    """`error` reaches the app's handler once the app is exiting (as q was pressed)."""
    async with app.run_test(size=(100, 30)) as pilot:
        await open_northwind(pilot)
        app.exit()
        app._handle_exception(error)
        await pilot.pause()


async def test_a_part_gone_as_the_app_quits_is_not_an_internal_error(
    make_app: AppFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    """q pressed while a screen still mounts (`docdeck open`'s review pane, 0.4 s after the
    launch): its on_mount asked for a part the shutdown had already taken away, and the quit
    ended as "internal error: NoMatches" with exit code 1."""
    app = make_app()
    await _error_while_quitting(app, NoMatches("No nodes match '#review-diff-message'"))
    assert app.return_code == 0
    assert "internal error" not in capsys.readouterr().err


async def test_a_bug_while_the_app_quits_is_still_reported(make_app: AppFactory) -> None:
    app = make_app()
    with pytest.raises(_Bug):
        await _error_while_quitting(app, _Bug("not a part gone"))
    assert app.return_code == 1
