"""A list to choose one item from, filtered as you type: the table of contents, a page's
links, a revision. Enter chooses, Escape closes; `y`/`o` act on the highlighted item
when the caller gives them a meaning (copy a link's target, open it in the browser)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, Generic, TypeVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static
from textual.widgets.option_list import Option

from docdeck.tui.kit.list_keys import NavOptionList

__all__ = ["Chooser"]

T = TypeVar("T")

SHOWN_AT_MOST = 200
"""Options a chooser lists at once; the others are counted on a last line until the filter
narrows them down. An option list of 10,000 (a big organization's members) took 0.75 s to
open and 0.4 s a key typed in the filter; 200 keep both near what a short list costs."""


class Chooser(ModalScreen[T | None], Generic[T]):
    AUTO_FOCUS = "#chooser-list"
    """The list has the focus from the first key on. Focused in `on_mount`, it took it from
    the filter field (Textual's first focusable) while keys typed with the one that opened
    the chooser were arriving: the first went into the field, the next to the list."""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss_none", "Close", id="chooser.close"),
        Binding("down", "focus_list", "List", show=False, id="chooser.to_list"),
    ]
    DEFAULT_CSS = """
    Chooser { align: center middle; }
    Chooser > #chooser {
        width: 90; max-width: 95%; height: auto; max-height: 90%;
        background: $surface; border: round $primary; padding: 0 1;
    }
    Chooser #chooser-list { height: auto; max-height: 30; }
    Chooser #chooser-hint { color: $text-muted; height: auto; }
    """

    def __init__(
        self,
        title: str,
        items: Sequence[tuple[Text | str, T]],
        *,
        hint: str = "enter: choose · esc: close · type to filter",
        on_copy: Callable[[T], None] | None = None,
        on_open: Callable[[T], None] | None = None,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.items = items
        self.hint = hint
        self.on_copy = on_copy
        self.on_open = on_open
        self._shown: list[T] = [value for _label, value in items]
        self._folded = [
            (label.plain if isinstance(label, Text) else label).casefold() for label, _ in items
        ]
        """Each item's label as the filter compares it, worked out once."""

    def compose(self) -> ComposeResult:
        with Vertical(id="chooser"):
            yield Static(Text(self.title_text, style="bold"), markup=False)
            # Not selected on focus: the first letter typed in the list is put in the field
            # and then focuses it; selected, it was replaced by the second letter.
            yield Input(placeholder="filter", id="chooser-filter", select_on_focus=False)
            yield NavOptionList(id="chooser-list")
            yield Static(self.hint, id="chooser-hint", markup=False)

    def on_mount(self) -> None:
        self._fill("")

    def _fill(self, text: str) -> None:
        needle = text.casefold()
        options = self.query_one(NavOptionList)
        options.clear_options()
        self._shown = []
        shown: list[Option] = []
        more = 0
        for (label, value), folded in zip(self.items, self._folded, strict=True):
            if needle and needle not in folded:
                continue
            if len(shown) == SHOWN_AT_MOST:
                more += 1
                continue
            self._shown.append(value)
            shown.append(Option(label))
        if not shown and needle:
            shown.append(Option(Text(f"Nothing matches “{text}”.", "dim"), disabled=True))
        if more:
            shown.append(
                Option(Text(f"… {more:,} more: type to narrow the list", "dim"), disabled=True)
            )
        options.add_options(shown)
        if self._shown:
            options.highlighted = 0

    @on(Input.Changed, "#chooser-filter")
    def _filter(self, event: Input.Changed) -> None:
        event.stop()
        self._fill(event.value)

    @on(Input.Submitted, "#chooser-filter")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        value = self.highlighted
        if value is not None:
            self.dismiss(value)

    @on(NavOptionList.OptionSelected)
    def _chosen(self, event: NavOptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self._shown[event.option_index])

    @property
    def highlighted(self) -> T | None:
        index = self.query_one(NavOptionList).highlighted
        return self._shown[index] if index is not None and index < len(self._shown) else None

    def on_key(self, event) -> None:  # type: ignore[no-untyped-def]
        """Letters typed in the list go to the filter (y and o act when they have a use).

        A letter the field takes never comes here (the field stops it), so whatever letter
        does came from the list, even when the focus has moved on to the field meanwhile (a
        letter typed fast after another one that moved it): asked of `self.focused`, that
        letter was dropped."""
        if not event.is_printable or event.character is None:
            return
        value = self.highlighted
        if event.character == "y" and self.on_copy is not None:
            event.stop()
            if value is not None:
                self.on_copy(value)
            return
        if event.character == "o" and self.on_open is not None:
            event.stop()
            if value is not None:
                self.on_open(value)
            return
        field = self.query_one("#chooser-filter", Input)
        if event.character in "jkgG" or (event.character == " " and not field.value):
            return  # the list's keys; a space is the filter's once it holds text ("member 09")
        field.focus()
        field.insert_text_at_cursor(event.character)
        event.stop()

    def action_focus_list(self) -> None:
        self.query_one(NavOptionList).focus()

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
