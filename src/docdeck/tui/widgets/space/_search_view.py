"""Search as you type: results grouped by page, each with its matching sections.

The view only shows; the screen runs the search (debounced, in an exclusive worker
so a newer query cancels the request of an older one) and calls `show_results`.
Enter on a section asks the screen to open the page there (`SearchHitChosen`).
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
from textual.widgets import Input, Static
from textual.widgets.option_list import Option

from docdeck.models import SearchPageResult
from docdeck.tui.focus import focus_now
from docdeck.tui.widgets._list_keys import NavOptionList

__all__ = ["SearchHit", "SearchView"]


@dataclass(frozen=True)
class SearchHit:
    page_id: str
    anchor: str | None
    title: str


class SearchView(Vertical):
    BINDINGS: ClassVar[list[BindingType]] = [
        # A priority binding (`docdeck.tui.focus`): "↓ enter" typed at once opens the first
        # hit, instead of the enter reaching the field before focus has moved.
        Binding("down", "to_results", "Results", show=False, priority=True),
    ]
    DEFAULT_CSS = """
    SearchView { height: 1fr; }
    SearchView > #search-status { height: auto; padding: 0 1; color: $text-muted; }
    SearchView > NavOptionList { height: 1fr; border: none; }
    """

    @dataclass
    class SearchHitChosen(Message):
        hit: SearchHit

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.hits: list[SearchHit] = []
        self.query_text = ""

    def compose(self) -> ComposeResult:
        yield Input(placeholder="search this space (titles and text)", id="search-input")
        yield Static(
            "Type to search; ↓ to the results, enter opens the page there.", id="search-status"
        )
        yield NavOptionList(id="search-results")

    @property
    def field(self) -> Input:
        return self.query_one("#search-input", Input)

    @property
    def results(self) -> NavOptionList:
        return self.query_one("#search-results", NavOptionList)

    def status(self, text: str, *, error: bool = False) -> None:
        self.query_one("#search-status", Static).update(Text(text, style="red" if error else ""))

    def show_results(self, query: str, results: list[SearchPageResult]) -> None:
        self.query_text = query
        options: list[Option] = []
        self.hits = []
        words = [w for w in query.split() if w]
        sections = 0
        for result in results:
            title = Text(f"▌ {result.title}", style="bold")
            title.append(f"  /{result.path}", style="dim")
            options.append(Option(title))
            self.hits.append(SearchHit(result.id, None, result.title))
            for section in result.sections or []:
                sections += 1
                anchor = section.path.partition("#")[2] or None
                line = Text("    ")
                line.append(section.title or "(top of the page)", style="italic")
                body = Text(" — " + " ".join(section.body.split()))
                body.highlight_words(words, style="bold reverse", case_sensitive=False)
                line.append_text(body)
                line.truncate(400)
                options.append(Option(line))
                self.hits.append(SearchHit(result.id, anchor, result.title))
        results_list = self.results
        results_list.clear_options()
        results_list.add_options(options)
        if options:
            results_list.highlighted = 0
        pages = len(results)
        self.status(
            f"“{query}”: {pages} page{'s' if pages != 1 else ''}, {sections} "
            f"section{'s' if sections != 1 else ''}"
            + (" · ↓ to the results, enter opens the page there" if pages else "")
        )

    def clear(self) -> None:
        self.hits = []
        self.query_text = ""
        self.results.clear_options()
        self.status("Type to search; ↓ to the results, enter opens the page there.")

    @on(Input.Submitted, "#search-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.hits:
            focus_now(self.results)

    @on(NavOptionList.OptionSelected)
    def _chosen(self, event: NavOptionList.OptionSelected) -> None:
        event.stop()
        if event.option_index < len(self.hits):
            self.post_message(self.SearchHitChosen(self.hits[event.option_index]))

    @property
    def highlighted(self) -> SearchHit | None:
        index = self.results.highlighted
        return self.hits[index] if index is not None and index < len(self.hits) else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "to_results":
            return self.field.has_focus and bool(self.hits)  # else ↓ moves in the results
        return True

    def action_to_results(self) -> None:
        """↓ in the field goes to the results."""
        focus_now(self.results)
