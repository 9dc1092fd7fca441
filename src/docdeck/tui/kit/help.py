"""The help screen: the screen in front's own paragraph, then every key, what it does, whether
it works on the current selection, and its keymap id (what a `[keymap]` entry remaps)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Label, Static

from docdeck.tui.kit.actions import screen_actions

__all__ = ["HelpRow", "HelpScreen", "bindings_help"]


@dataclass(frozen=True)
class HelpRow:
    key: str
    description: str
    tooltip: str
    state: str = ""
    """Empty when available; otherwise why not, for the current selection."""
    binding_id: str = ""
    """The binding's id: `[keymap]` in the config file remaps the key by it."""


KEYMAP_NOTE = (
    "Each key's id (in brackets) is what a [keymap] entry in the config file remaps, "
    'e.g. threads.reply = "ctrl+r". '
)


def intro_of(screen: Screen[object]) -> str:
    """The screen's own paragraph (`help_intro`), else one naming the screen: never another
    screen's."""
    own = getattr(screen, "help_intro", None)
    if isinstance(own, str) and own:
        return own
    title = getattr(screen, "help_title", None) or type(screen).__name__.removesuffix("Screen")
    return f"{title}: the keys below act here; keys marked not allowed say why.\n"


def bindings_help(screen: Screen[object]) -> list[HelpRow]:
    """Help rows for a screen without its own: the actions that apply on it now, as the
    palette lists them (`kit/actions.py`), with the moves too; a key not allowed says why."""
    rows: list[HelpRow] = []
    for action in screen_actions(screen, moves=True):
        binding = action.binding
        if binding.action.endswith("help"):
            continue
        state = "" if action.enabled else (action.reason or "Not allowed here now.")
        rows.append(
            HelpRow(
                action.keys,
                binding.description,
                binding.tooltip or binding.description,
                state,
                binding.id or "",
            )
        )
    return rows


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Close", id="help.close", tooltip="Close help"),
        # The same moves as every list (widgets/_list_keys.py), here scrolling the text.
        Binding("j,down", "scroll('down')", show=False, id="help.down"),
        Binding("k,up", "scroll('up')", show=False, id="help.up"),
        Binding("g,home", "scroll('home')", show=False, id="help.first"),
        Binding("G,end", "scroll('end')", show=False, id="help.last"),
        Binding("ctrl+d,pagedown", "scroll('page_down')", show=False, id="help.page_down"),
        Binding("ctrl+u,pageup", "scroll('page_up')", show=False, id="help.page_up"),
    ]

    def __init__(self, rows: list[HelpRow], *, intro: str) -> None:
        super().__init__()
        self.rows = rows
        self.intro = intro + KEYMAP_NOTE if any(row.binding_id for row in rows) else intro

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="help"):
            yield Label("docdeck — keys", id="dialog-title", markup=False)
            with VerticalScroll():
                yield Static(Text(self.intro), id="help-intro", markup=False)
                yield Static(self._table(), id="help-keys", markup=False)
            yield Label("escape: close", classes="dialog-keys", markup=False)

    def _table(self) -> Table:
        table = Table(box=None, expand=True, padding=(0, 1))
        table.add_column("Key", style="bold", no_wrap=True)
        table.add_column("Action", no_wrap=True)
        table.add_column("What it does", ratio=1)
        for row in self.rows:
            what = Text(row.tooltip)
            if row.binding_id:
                what.append(f" [{row.binding_id}]", style="dim")
            if row.state:
                what.append(f"\n{row.state}", style="italic dim")
            table.add_row(Text(row.key), Text(row.description), what)  # not markup
        return table

    def action_scroll(self, where: str) -> None:
        scroll = self.query_one(VerticalScroll)
        getattr(
            scroll,
            f"action_scroll_{where}"
            if where in ("up", "down", "home", "end")
            else f"action_{where}",
        )()

    def action_close(self) -> None:
        self.dismiss(None)
