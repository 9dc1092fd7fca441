"""The space screen's files view: facts, backlinks, Enter to a page at the link, save."""

from __future__ import annotations

import os
from pathlib import Path

from textual import on

from docdeck.gateway import OperationUnavailableError
from docdeck.models import RevisionFile
from docdeck.tui.content.page_text import links
from docdeck.tui.kit.dialogs.save import SaveDialog
from docdeck.tui.kit.errors import describe
from docdeck.tui.space._files_view import FilesView
from docdeck.tui.space._reading import Location, SpaceReading

__all__ = ["SpaceFiles"]

LINK_ANALYSIS = "link analysis"
"""The name `OPTIONAL_OPERATIONS` gives the backlinks' operation."""
_NO_LINK_ANALYSIS = "linked from: unknown, this server does not offer link analysis"


class SpaceFiles(SpaceReading):
    # ----- files -----------------------------------------------------------------------------

    @property
    def files_view(self) -> FilesView:
        return self.query_one(FilesView)

    def enter_files(self) -> None:
        view = self.files_view
        if not view.loaded and self.pages is not None:
            view.show_files(self.pages.files)
        view.table.focus()

    def show_file(self, file_id: str) -> None:
        self.action_mode("files")
        self.files_view.select(file_id)

    @on(FilesView.FileHighlighted)
    def _file_highlighted(self, message: FilesView.FileHighlighted) -> None:
        self.load_backlinks(message.file)

    def load_backlinks(self, file: RevisionFile) -> None:
        self.run_worker(
            self._load_backlinks(file),
            name=f"Reading the backlinks of {file.name}",
            group="backlinks",
            exclusive=True,
            exit_on_error=False,
        )

    async def _load_backlinks(self, file: RevisionFile) -> None:
        if LINK_ANALYSIS in self.content.client.transport.unavailable:
            self.files_view.show_backlinks(file, None, _NO_LINK_ANALYSIS)
            return
        try:
            found = await self.content.backlinks(file.id)
        except OperationUnavailableError:
            # Said in place, for every file alike: not a notification per file highlighted.
            self.files_view.show_backlinks(file, None, _NO_LINK_ANALYSIS)
            return
        except Exception as error:
            problem = describe(error, f"Reading the backlinks of {file.name}")
            words = f"linked from: could not be read{problem.retry_note}"
            self.files_view.show_backlinks(file, None, words)
            raise  # reported once, by the worker's failure
        self.files_view.show_backlinks(file, found)

    @on(FilesView.BacklinkChosen)
    def _backlink_chosen(self, message: FilesView.BacklinkChosen) -> None:
        self.action_mode("pages")
        self.run_worker(
            self._open_at_file_link(message.page_id, message.file),
            name="Opening the page",
            group="preview",
            exclusive=True,
            exit_on_error=False,
        )

    async def _open_at_file_link(self, page_id: str, file: RevisionFile) -> None:
        line = None
        if self.pages is not None:
            source = self.pages.by_id.get(page_id)
            try:
                markdown = await self.content.markdown(page_id)
            except Exception:
                markdown = ""
            for link in links(markdown):
                target = self.pages.resolve(source, link.href) if source else None
                if target is not None and target.file is not None and target.file.id == file.id:
                    line = link.line
                    break
        self.show(Location(page_id, line=line))
        self.focus_preview()

    @on(FilesView.SaveAsked)
    def _save_asked(self, message: FilesView.SaveAsked) -> None:
        file = message.file
        default = str(Path.cwd() / file.name)

        async def save(path: str) -> str:
            return await self.save_file(file, path)

        def saved(path: str | None) -> None:
            if path:
                self.notify(f"{file.name} → {path}", title="Saved")

        self.app.push_screen(SaveDialog(f"Save {file.name} to", default, save), saved)

    async def save_file(self, file: RevisionFile, path_text: str) -> str:
        """Write the file to `path_text`; why not, or "" when it is written."""
        text = path_text.strip()
        if not text:
            return "Type a path to save to."
        path = Path(os.path.expanduser(text))
        if path.is_dir():
            path = path / file.name
        if path.exists():
            return f"{path} exists: choose another name (nothing is replaced)."
        if not path.parent.is_dir():
            return f"The folder {path.parent} does not exist."
        partial = path.with_name(path.name + ".part")
        try:
            with partial.open("xb") as out:
                await self.content.client.content.download(file, out.write)
            partial.rename(path)
        except OSError as error:
            partial.unlink(missing_ok=True)
            return f"Could not write {path}: {error.strerror or error}."
        except Exception as error:
            partial.unlink(missing_ok=True)
            problem = describe(error, f"Downloading {file.name}")
            return f"{problem.title}: {problem.brief or problem.message}"
        return ""
