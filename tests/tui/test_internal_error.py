"""A bug inside the running app ends it with one line, never a traceback with local variables."""

from __future__ import annotations

import pytest

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
