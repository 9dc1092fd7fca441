"""Every link in the space: status, the page it is in (and its text), where it points.

`s` cycles the status shown (all, broken, in-app, ok); the stats line counts them all.
The view reads the links when first shown, then the text of the broken and in-app ones
from their pages' markdown; the broken count it reads goes to the breadcrumb
(`BrokenCounted`: the screen counts them from the start, without this view). Enter asks the
screen to open the page at the link (`LinkChosen`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Static
from textual.worker import Worker

from docdeck.gateway import OperationUnavailableError
from docdeck.tui.kit.copy_values import CopyValue
from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.nav_table import NavDataTable
from docdeck.tui.kit.sharing import copy_value
from docdeck.tui.kit.workers import read, report_worker_failure
from docdeck.tui.space._source import SpaceSource
from docdeck.tui.space.link_rows import LinkRow, find_link, link_rows

__all__ = ["STATUSES", "TEXT_PAGES", "LinksView"]

TEXT_PAGES = 40
"""Pages whose markdown is read to show the text of their broken and in-app links."""

STATUSES = ("all", "broken", "in-app", "ok")
_STYLE = {"broken": "bold red", "in-app": "yellow", "ok": "green"}


class LinksView(Vertical):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "s",
            "cycle_status",
            "Status",
            id="space.links_status",
            tooltip="Show all, broken, in-app or ok links",
        ),
    ]
    DEFAULT_CSS = """
    LinksView { height: 1fr; }
    LinksView > #links-stats { height: auto; padding: 0 1; }
    LinksView > NavDataTable { height: 1fr; }
    """

    @dataclass
    class LinkChosen(Message):
        row: LinkRow

    @dataclass
    class BrokenCounted(Message):
        """`broken_count` is known (or changed)."""

        broken: int

    def __init__(self, source: SpaceSource, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.source = source
        self.broken_count: int | None = None
        """The space's broken links (None: not counted)."""
        self.rows: list[LinkRow] = []
        self.shown: list[LinkRow] = []
        self.status = "all"
        self.texts: dict[tuple[str, str], str] = {}
        self.loaded = False

    def compose(self) -> ComposeResult:
        yield Static("loading the space's links…", id="links-stats", markup=False)
        table = NavDataTable(id="links-table", cursor_type="row", zebra_stripes=True)
        yield table

    def on_mount(self) -> None:
        table = self.query_one(NavDataTable)
        narrow = self.app.size.width < 110
        table.add_column("Status", key="status", width=6)
        table.add_column("In page", key="page", width=18 if narrow else 28)
        table.add_column("Link text", key="text", width=14 if narrow else 24)
        table.add_column("Points to", key="target")

    @property
    def table(self) -> NavDataTable:
        return self.query_one(NavDataTable)

    def enter(self) -> None:
        """Shown (`2`): the links, read once."""
        self.table.focus()
        if not self.loaded:
            self.load_links()

    def copy_highlighted(self) -> None:
        """`y`: the highlighted link's target."""
        row = self.highlighted
        if row is not None:
            copy_value(self.screen, CopyValue("Link target", row.target_url or row.target))

    def reload(self) -> bool:
        """`r`: the links read again if they could not be (False: they are shown)."""
        if self.loaded:
            return False
        self.load_links()
        return True

    def load_links(self) -> None:
        self._load_links()

    def _counted(self, broken: int) -> None:
        self.broken_count = broken
        self.post_message(self.BrokenCounted(broken))

    @read("links", "Loading the space's links")
    async def _load_links(self) -> None:
        content = self.source.content
        try:
            usages, first = await content.links()
        except Exception as error:
            problem = describe(error, "Loading the space's links")
            if isinstance(error, OperationUnavailableError):
                self.show_error(f"{error.message}; the rest of the space works as usual.")
                return
            self.show_error(
                f"{problem.title}: {problem.brief or problem.message}{problem.retry_note}"
            )
            if problem.fatal:
                self.app.report_error(error, "Loading the links")  # type: ignore[attr-defined]
            return
        rows = link_rows(usages)
        self._counted(first.stats.broken.total)
        self.show_rows(rows, first.stats.total, first.stats.broken.total)
        await self._fill_link_texts(rows)

    async def _fill_link_texts(self, rows: list[LinkRow]) -> None:
        """The text of broken and in-app links (the API gives targets, not texts)."""
        pages = self.source.pages
        if pages is None:
            return
        content = self.source.content
        wanted = [r for r in rows if r.status != "ok"]
        sources = list(dict.fromkeys(r.source_id for r in wanted))[:TEXT_PAGES]
        for source in sources:
            try:
                markdown = await content.markdown(source)
            except Exception:
                continue  # the text is a nicety: the row still says page and target
            for row in wanted:
                if row.source_id == source:
                    link = find_link(row, markdown, pages)
                    if link is not None:
                        self.set_text(row, link.text)
        self.refill()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        report_worker_failure(self, event)

    def show_error(self, message: str) -> None:
        self.query_one("#links-stats", Static).update(Text(message, style="red"))

    def show_rows(self, rows: list[LinkRow], total: int, broken: int) -> None:
        self.rows = rows
        self.loaded = True
        self._totals = (total, broken)
        self._fill()

    def set_text(self, row: LinkRow, text: str) -> None:
        self.texts[(row.source_id, row.target)] = text

    def _fill(self) -> None:
        table = self.table
        table.clear()
        status = self.status
        self.shown = [r for r in self.rows if status == "all" or r.status == status]
        for index, row in enumerate(self.shown):
            table.add_row(
                Text(row.status, style=_STYLE.get(row.status, "")),  # type: ignore[arg-type]
                row.source_title,
                self.texts.get((row.source_id, row.target), ""),
                row.target,
                key=str(index),
            )
        total, broken = self._totals
        counts = {s: sum(1 for r in self.rows if r.status == s) for s in STATUSES[1:]}
        words = Text.assemble(
            f"{total} link targets, ",
            (f"{broken} broken", "bold red" if broken else ""),
            f" · {len(self.rows)} links: "
            + ", ".join(f"{counts[s]} {s}" for s in STATUSES[1:])
            + f" · showing {status} (s to change) · enter opens the page at the link",
        )
        self.query_one("#links-stats", Static).update(words)

    def action_cycle_status(self) -> None:
        self.status = STATUSES[(STATUSES.index(self.status) + 1) % len(STATUSES)]
        if self.loaded:
            self._fill()

    def refill(self) -> None:
        if self.loaded:
            cursor = self.table.cursor_row
            self._fill()
            if self.shown:
                self.table.move_cursor(row=min(cursor, len(self.shown) - 1), animate=False)

    @property
    def highlighted(self) -> LinkRow | None:
        table = self.table
        if not self.shown or table.cursor_row < 0 or table.cursor_row >= len(self.shown):
            return None
        return self.shown[table.cursor_row]

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        row = self.highlighted
        if row is not None:
            self.post_message(self.LinkChosen(row))
