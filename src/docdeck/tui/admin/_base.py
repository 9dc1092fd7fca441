"""What every administration screen shares: the organization, a title line with the state
of the last read, the footer, the writes in flight, and keys that explain themselves when
the caller may not use them (`rules.py`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import DataTable, Static
from textual.worker import Worker

from docdeck.gateway import Client
from docdeck.models import Organization
from docdeck.tui.kit.availability import Availability
from docdeck.tui.kit.bindings import HELP
from docdeck.tui.kit.dialogs import ConfirmDialog
from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.explained import ExplainsKeys
from docdeck.tui.kit.footer import BrowserFooter
from docdeck.tui.kit.in_flight import Write, Writes
from docdeck.tui.kit.nav_table import NavDataTable
from docdeck.tui.kit.workers import client_of, read, report_worker_failure
from docdeck.tui.kit.write_runner import WriteRunner

if TYPE_CHECKING:
    from docdeck.tui.kit.dialogs.request import RequestDialog

__all__ = ["AdminScreen", "Column", "Subject", "with_answer"]

R = TypeVar("R")

NARROW_BELOW = 110
"""A terminal narrower than this (cells) gets the tables' narrow columns."""


@dataclass(frozen=True)
class Column:
    """A column of an administration screen's table: `narrow` is its width on a narrow
    terminal (its `width` otherwise), and a `wide_only` column is left out there."""

    label: str
    key: str
    width: int | None = None
    narrow: int | None = None
    wide_only: bool = False


class Subject:
    """What a write is about (a spec, a provider, the organization): busy while one runs."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.busy = 0


def with_answer(
    items: Sequence[R], answer: R, key: Callable[[R], str], *, new_first: bool
) -> list[R]:
    """The list with the server's answer in place of the item it stands for (the same key);
    one not in the list yet (just created) goes first or last, as the list is ordered."""
    kept = list(items)
    for index, old in enumerate(kept):
        if key(old) == key(answer):
            kept[index] = answer
            return kept
    return [answer, *kept] if new_first else [*kept, answer]


class AdminScreen(ExplainsKeys, Screen[None]):
    DEFAULT_CSS = """
    AdminScreen .admin-title { height: auto; padding: 0 1; background: $boost; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        HELP,
    ]
    ACTIONS: ClassVar[tuple[str, ...]] = ()
    """Actions whose availability depends on the caller's permissions (`availability_of`)."""
    TABLE: ClassVar[str] = ""
    """The id of the table of what the screen administers, laid out from `COLUMNS`."""
    COLUMNS: ClassVar[tuple[Column, ...]] = ()
    READING: ClassVar[str] = ""
    """What the screen reads, as "Reading …" goes on: "the OpenAPI specs"."""
    POLL_S: ClassVar[float] = 1.0
    """How often what may change on its own (a job the server runs) is read again."""
    heading = ""

    @property
    def help_intro(self) -> str:
        return (
            f"{self.heading} of {self.organization.title}, an administration screen of the "
            "organization. r reads it again, Escape goes back to the tree. A key shown dimmed "
            "is not allowed for your role here: pressing it says why.\n"
        )

    def __init__(self, organization: Organization) -> None:
        super().__init__()
        self.organization = organization
        self._state = ""
        self._state_error = False
        self.subjects: dict[str, Subject] = {}
        """Per item key (a spec's slug, a provider's id): what its writes are about."""
        self._poll: Timer | None = None

    @property
    def client(self) -> Client:
        return client_of(self)

    def compose(self) -> ComposeResult:
        yield Static("", id="admin-title", classes="admin-title", markup=False)
        yield from self.compose_body()
        yield WriteRunner(lambda subject: self.subject_changed())
        yield BrowserFooter()

    def compose_body(self) -> ComposeResult:
        """What stands between the title line and the footer: the table, and what the screen
        shows beside it (`compose_side`)."""
        yield NavDataTable(id=self.TABLE, cursor_type="row", zebra_stripes=True)
        yield from self.compose_side()

    def compose_side(self) -> ComposeResult:
        """What the screen shows beside its table (the highlighted row's detail)."""
        yield from ()

    def on_mount(self) -> None:
        self.first_show()

    def first_show(self) -> None:
        """The table laid out and focused, then what it shows read."""
        table = self.add_columns()
        table.focus()
        self.load()

    def load(self) -> None:
        """Read what the screen shows, saying so where nothing is shown yet."""
        self._load()

    @property
    def table(self) -> NavDataTable:
        return self.query_one(f"#{self.TABLE}", NavDataTable)

    def add_columns(self) -> NavDataTable:
        """The table's columns, as wide as the terminal allows; the table, to fill."""
        narrow = self.app.size.width < NARROW_BELOW
        table = self.table
        for column in self.COLUMNS:
            if narrow and column.wide_only:
                continue
            width = column.narrow if narrow and column.narrow is not None else column.width
            table.add_column(column.label, key=column.key, width=width)
        return table

    def fill(
        self,
        items: Sequence[R],
        key: Callable[[R], str],
        cells: Callable[[R], list[Any]],
        current: str | None,
    ) -> None:
        """The table's rows written again, one per item, the cursor kept on `current`."""
        table = self.table
        table.clear()
        for item in items:
            table.add_row(*cells(item), key=key(item))
        table.keep_cursor_on(current)

    def busy_mark(self, key: str, text: str) -> str:
        """`text` marked while a write on the item keyed `key` runs."""
        subject = self.subjects.get(key)
        return f"⟳ {text}" if subject is not None and subject.busy else text

    def follow(self, running: bool, reread: Callable[[], object], name: str) -> None:
        """`reread` every `POLL_S` while something `running` may change on its own."""
        if running and self._poll is None:
            self._poll = self.set_interval(self.POLL_S, reread, name=name)
        elif not running and self._poll is not None:
            self._poll.stop()
            self._poll = None

    @property
    def writes(self) -> Writes:
        return self.query_one(WriteRunner).writes

    def subject_changed(self) -> None:
        """A write started or ended: redraw what marks it."""

    def _show_detail(self) -> None:
        """Show what the table's highlighted row holds beside the table."""

    @on(DataTable.RowHighlighted)
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """The table's cursor moved: the detail and the keys follow it."""
        if event.data_table.id == self.TABLE:
            event.stop()
            self._show_detail()
            self.refresh_bindings()

    @read("read", lambda self: f"Reading {self.READING} of {self.organization.title}")
    async def _load(self) -> None:
        await self._reload()

    async def _reload(self) -> None:
        """Read what the screen shows again (a write failed, or was left running)."""

    def open_write(
        self,
        dialog: RequestDialog[R],
        subject: Subject,
        action: str,
        applied: Callable[[R], None],
    ) -> None:
        """A dialog whose request is a write on `subject`: `applied` puts the answer in the
        screen, which reads what it shows again if the write fails or the dialog is left."""
        self.app.push_screen(
            dialog.follow(self.writes, subject, action, applied=applied, reread=self._reload)
        )

    def start_write(
        self,
        subject: Subject,
        action: str,
        doing: str,
        request: Callable[[], Awaitable[R]],
        applied: Callable[[R], None],
        *,
        ask: tuple[str, str] | None = None,
    ) -> None:
        """A write on `subject` without a form: `applied` puts the answer in the screen,
        which reads what it shows again if the write fails. `ask` (a title, a question):
        sent only once the user says yes (a delete)."""
        if ask is not None:
            title, question = ask
            dialog = ConfirmDialog(title, question, request, doing=doing)
            self.open_write(dialog, subject, action, applied)
            return
        self.writes.start(
            Write(subject, action, doing, request, applied=applied, reread=self._reload)
        )

    def say(self, state: str, *, error: bool = False) -> None:
        """The title line's second row: what was read, or why it could not be."""
        self._state, self._state_error = state, error
        text = Text()
        text.append(f"{self.heading} · {self.organization.title}", style="bold")
        if state:
            text.append(f"\n{state}", style="red" if error else "dim")
        self.query_one("#admin-title", Static).update(text)

    def say_failure(self, error: BaseException, doing: str) -> None:
        """A failed read keeps what is shown and says why, once, where the state is."""
        problem = describe(error, doing)
        self.say(f"⚠ {problem.title}: {problem.brief or problem.message} (r retries)", error=True)
        if problem.fatal:
            report = getattr(self.app, "report_error", None)
            if report is not None:
                report(error, doing)

    def availability_of(self, action: str) -> Availability:
        return Availability(applies=True)

    def explained_action(self, action: str) -> str | None:
        return action if action in self.ACTIONS else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.check_explained(action)

    def action_back(self) -> None:
        self.dismiss()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        report_worker_failure(self, event)
