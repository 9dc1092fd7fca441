"""Files: their facts, their backlinks, and saving one to a path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from docdeck.tui.kit.dialogs.save import SaveDialog
from docdeck.tui.kit.list_keys import NavOptionList
from docdeck.tui.space import FilesView
from tui.helpers import AppFactory
from tui.space.helpers import open_api_reference, preview_text, settle


async def _files(pilot: Pilot[None], highlighted: str | None = None) -> FilesView:
    """The API reference's files view, with the file named `highlighted` under the cursor."""
    screen = await open_api_reference(pilot)
    await pilot.press("3")
    await settle(pilot)
    view = screen.query_one(FilesView)
    if highlighted is not None:
        index = next(i for i, f in enumerate(view.files) if f.name == highlighted)
        view.table.move_cursor(row=index, animate=False)
        await settle(pilot)
    return view


async def _save_to(pilot: Pilot[None], path: Path) -> SaveDialog:
    """`s` on the highlighted file, `path` typed, Enter: the dialog (open, or closed)."""
    await pilot.press("s")
    await settle(pilot)
    dialog = pilot.app.screen
    assert isinstance(dialog, SaveDialog)
    dialog.query_one(Input).value = str(path)
    await pilot.press("enter")
    await settle(pilot)
    return dialog


async def test_files_backlinks_and_save(make_app: AppFactory, tmp_path: Path) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_api_reference(pilot)
        await pilot.press("3")
        await settle(pilot)
        view = screen.query_one(FilesView)
        text = preview_text(pilot)
        assert "request-flow.png" in text and "image/png" in text and "480×160" in text
        assert "sample-invoice.pdf" in text
        index = next(i for i, f in enumerate(view.files) if f.name == "webhook-retries.png")
        view.table.move_cursor(row=index, animate=False)
        await settle(pilot)
        assert "linked from 1 page" in preview_text(pilot)

        target = tmp_path / "retries.png"
        await _save_to(pilot, target)
        assert not isinstance(app.screen, SaveDialog)
        assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

        dialog = await _save_to(pilot, target)
        assert isinstance(app.screen, SaveDialog)  # stays open, the path kept
        assert "exists" in preview_text(pilot)
        assert dialog.query_one(Input).value == str(target)
        await pilot.press("escape")
        await settle(pilot)

        await pilot.press("enter")  # into the backlinks
        await settle(pilot)
        assert isinstance(app.focused, NavOptionList)
        await pilot.press("enter")
        await settle(pilot)
        assert screen.mode == "pages"
        page = screen.current_page
        assert page is not None and page.title == "Webhooks"
        assert screen.location is not None and screen.location.line is not None


async def test_saved_into_a_folder_says_the_file_and_spares_a_part_file_it_did_not_make(
    make_app: AppFactory, tmp_path: Path
) -> None:
    """A folder typed as the path saves the file in it, and the notice names the file (it
    named the folder). A `<name>.part` already there (the user's own) is not the download's
    to delete: the save says why it failed and the file is left as it was."""
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await _files(pilot, "request-flow.png")
        mine = tmp_path / "request-flow.png.part"
        mine.write_bytes(b"mine")
        dialog = await _save_to(pilot, tmp_path)
        assert app.screen is dialog  # stays open, why said
        assert "Could not write" in preview_text(pilot)
        assert mine.read_bytes() == b"mine"
        assert not (tmp_path / "request-flow.png").exists()

        mine.unlink()
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is not dialog
        saved = tmp_path / "request-flow.png"
        assert saved.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        notes = [n.message for n in app._notifications]
        assert any(str(saved) in note for note in notes), notes


async def test_a_file_made_at_the_path_while_it_downloads_is_not_replaced(
    make_app: AppFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The path is checked free before the download; a file made there meanwhile (another
    program's) was replaced by the rename that puts the download in place."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        view = await _files(pilot)
        target = tmp_path / "saved.png"
        content = view.source.content.client.content
        download = content.download

        async def slow_download(file: Any, write: Any) -> int:
            written = await download(file, write)
            target.write_bytes(b"theirs")  # made while the download ran
            return written

        monkeypatch.setattr(content, "download", slow_download)
        dialog = await _save_to(pilot, target)
        assert app.screen is dialog
        assert "exists now" in preview_text(pilot)
        assert target.read_bytes() == b"theirs"
        assert not (tmp_path / "saved.png.part").exists()
