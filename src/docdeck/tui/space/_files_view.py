"""The space's files: name, type, size, dimensions; the pages that link to the highlighted
one (its backlinks) beside them, read as the cursor moves; `s` saves the file to a path.
Enter on a backlink asks the screen to open that page at the link (`BacklinkChosen`)."""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import DataTable, Static
from textual.widgets.option_list import Option
from textual.worker import Worker

from docdeck.gateway import OperationUnavailableError
from docdeck.models import ContentLocation, ContentLocationPage, RevisionFile
from docdeck.tui.content.page_prepare import size_text
from docdeck.tui.kit.copy_values import CopyValue
from docdeck.tui.kit.dialogs.save import SaveDialog
from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.list_keys import NavOptionList
from docdeck.tui.kit.nav_table import NavDataTable
from docdeck.tui.kit.sharing import copy_value
from docdeck.tui.kit.workers import read, report_worker_failure
from docdeck.tui.space._source import SpaceSource

__all__ = ["FilesView"]

LINK_ANALYSIS = "link analysis"
"""The name `OPTIONAL_OPERATIONS` gives the backlinks' operation."""
_NO_LINK_ANALYSIS = "linked from: unknown, this server does not offer link analysis"


class FilesView(Horizontal):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "s",
            "save",
            "Save to…",
            id="space.save_file",
            tooltip="Save the highlighted file to a path on this machine",
        ),
    ]
    DEFAULT_CSS = """
    FilesView { height: 1fr; }
    FilesView > NavDataTable { width: 3fr; height: 1fr; }
    FilesView > #file-side { width: 2fr; min-width: 24; height: 1fr;
        border-left: vkey $foreground 20%; }
    FilesView #backlinks-title { padding: 0 1; height: auto; }
    FilesView #backlinks { height: 1fr; border: none; }
    .-stacked FilesView { layout: vertical; }
    """

    @dataclass
    class BacklinkChosen(Message):
        page_id: str
        file: RevisionFile

    def __init__(self, source: SpaceSource, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.source = source
        self.files: list[RevisionFile] = []
        self.loaded = False
        self._backlinks: list[str] = []
        self._backlinks_of: RevisionFile | None = None

    def compose(self) -> ComposeResult:
        yield NavDataTable(id="files-table", cursor_type="row", zebra_stripes=True)
        with Vertical(id="file-side"):
            yield Static("", id="backlinks-title", markup=False)
            yield NavOptionList(id="backlinks")

    def on_mount(self) -> None:
        table = self.table
        table.add_column("Name", key="name")
        table.add_column("Type", key="type")
        table.add_column("Size", key="size")
        table.add_column("Dimensions", key="dimensions")

    @property
    def table(self) -> NavDataTable:
        return self.query_one("#files-table", NavDataTable)

    def show_files(self, files: list[RevisionFile]) -> None:
        self.files = sorted(files, key=lambda f: f.name.casefold())
        self.loaded = True
        table = self.table
        table.clear()
        for index, file in enumerate(self.files):
            dims = file.dimensions
            table.add_row(
                file.name,
                file.contentType,
                size_text(file.size),
                f"{int(dims.width)}×{int(dims.height)}" if dims is not None else "—",
                key=str(index),
            )
        if not self.files:
            self.query_one("#backlinks-title", Static).update("This revision has no files.")

    def enter(self) -> None:
        """Shown (`3`): the revision's files, once its page tree is read."""
        pages = self.source.pages
        if not self.loaded and pages is not None:
            self.show_files(pages.files)
        self.table.focus()

    def select(self, file_id: str) -> None:
        for index, file in enumerate(self.files):
            if file.id == file_id:
                self.table.move_cursor(row=index, animate=False)
                return

    @property
    def highlighted(self) -> RevisionFile | None:
        return self.table.item_of(self.files)

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        file = self.highlighted
        if file is not None:
            self.query_one("#backlinks-title", Static).update(
                Text.assemble((file.name, "bold"), "\nlinked from: loading…")
            )
            self.query_one("#backlinks", NavOptionList).clear_options()
            self.load_backlinks(file)

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if self._backlinks:
            self.query_one("#backlinks", NavOptionList).focus()

    def copy_highlighted(self) -> None:
        """`y`: the highlighted file's id."""
        file = self.highlighted
        if file is not None:
            copy_value(self.screen, CopyValue("File id", file.id))

    def reload(self) -> bool:
        """`r`: the highlighted file's backlinks read again (False: no file to read them of)."""
        file = self.highlighted
        if file is None:
            return False
        self.load_backlinks(file)
        return True

    def load_backlinks(self, file: RevisionFile) -> None:
        self._load_backlinks(file)

    @read("backlinks", lambda self, file: f"Reading the backlinks of {file.name}")
    async def _load_backlinks(self, file: RevisionFile) -> None:
        content = self.source.content
        if LINK_ANALYSIS in content.client.transport.unavailable:
            self.show_backlinks(file, None, _NO_LINK_ANALYSIS)
            return
        try:
            found = await content.backlinks(file.id)
        except OperationUnavailableError:
            # Said in place, for every file alike: not a notification per file highlighted.
            self.show_backlinks(file, None, _NO_LINK_ANALYSIS)
            return
        except Exception as error:
            problem = describe(error, f"Reading the backlinks of {file.name}")
            words = f"linked from: could not be read{problem.retry_note}"
            self.show_backlinks(file, None, words)
            raise  # reported once, by the worker's failure
        self.show_backlinks(file, found)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        report_worker_failure(self, event)

    def show_backlinks(
        self,
        file: RevisionFile,
        locations: list[ContentLocation] | None,
        unread: str = "linked from: could not be read",
    ) -> None:
        """`None`: they could not be read, and `unread` says so in their place."""
        if file is not self.highlighted:
            return
        self._backlinks_of = file
        pages = [loc.page for loc in locations or [] if isinstance(loc, ContentLocationPage)]
        self._backlinks = [page.id for page in pages]
        options = self.query_one("#backlinks", NavOptionList)
        options.clear_options()
        options.add_options([Option(page.title) for page in pages])
        if pages:
            options.highlighted = 0
        if locations is None:
            words = unread
        elif pages:
            plural = "s" if len(pages) != 1 else ""
            words = f"linked from {len(pages)} page{plural} (enter, then enter on one opens it):"
        else:
            words = "no page links to it"
        self.query_one("#backlinks-title", Static).update(
            Text.assemble((file.name, "bold"), "\n" + words)
        )

    @on(NavOptionList.OptionSelected, "#backlinks")
    def _backlink(self, event: NavOptionList.OptionSelected) -> None:
        event.stop()
        if self._backlinks_of is not None and event.option_index < len(self._backlinks):
            self.post_message(
                self.BacklinkChosen(self._backlinks[event.option_index], self._backlinks_of)
            )

    def action_save(self) -> None:
        file = self.highlighted
        if file is None:
            return
        default = str(Path.cwd() / file.name)

        async def save(path: str) -> str:
            return await self.save_file(file, path)

        def saved(path: str | None) -> None:
            if path:
                self.notify(f"{file.name} → {_target(file, path)}", title="Saved")

        self.app.push_screen(SaveDialog(f"Save {file.name} to", default, save), saved)

    async def save_file(self, file: RevisionFile, path_text: str) -> str:
        """Write the file to `path_text`; why not, or "" when it is written."""
        text = path_text.strip()
        if not text:
            return "Type a path to save to."
        path = _target(file, text)
        if path.exists():
            return f"{path} exists: choose another name (nothing is replaced)."
        if not path.parent.is_dir():
            return f"The folder {path.parent} does not exist."
        partial = path.with_name(path.name + ".part")
        try:
            out = partial.open("xb")
        except OSError as error:  # made by nobody here (one of the user's): left as it is
            return f"Could not write {partial}: {error.strerror or error}."
        try:
            with out:
                await self.source.content.client.content.download(file, out.write)
            _move_into(partial, path)
        except FileExistsError:
            partial.unlink(missing_ok=True)
            return f"{path} exists now: choose another name (nothing is replaced)."
        except OSError as error:
            partial.unlink(missing_ok=True)
            return f"Could not write {path}: {error.strerror or error}."
        except Exception as error:
            partial.unlink(missing_ok=True)
            problem = describe(error, f"Downloading {file.name}")
            return f"{problem.title}: {problem.brief or problem.message}"
        return ""


def _move_into(partial: Path, path: Path) -> None:
    """`partial` renamed to `path`, never over a file made there while it downloaded (a
    rename replaces one): a hard link refuses a taken name. Where the file system has no
    hard links, a last look, then the rename."""
    try:
        os.link(partial, path)
    except FileExistsError:
        raise
    except OSError:  # no hard links here (FAT, some network file systems)
        if path.exists():
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(path)) from None
        partial.rename(path)
        return
    partial.unlink()


def _target(file: RevisionFile, typed: str) -> Path:
    """Where the file goes for the path typed: `~` expanded, and in a folder under its name."""
    path = Path(os.path.expanduser(typed.strip()))
    return path / file.name if path.is_dir() else path
