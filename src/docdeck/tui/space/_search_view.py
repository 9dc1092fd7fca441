"""Search as you type: results grouped by page, each with its matching sections.

The view runs the search as the query is typed (after a pause, in an exclusive worker
so a newer query cancels the request of an older one), and reads the next page of
results when the cursor reaches the end. Enter on a section asks the screen to open the
page there (`SearchHitChosen`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Input, Static
from textual.widgets.option_list import Option
from textual.worker import Worker

from docdeck.gateway import repeats_dropped
from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.focus import focus_now
from docdeck.tui.kit.formatting import quoted
from docdeck.tui.kit.list_keys import NavOptionList
from docdeck.tui.kit.workers import read, report_worker_failure
from docdeck.tui.space._source import SpaceSource

if TYPE_CHECKING:  # read when a search answers: a space opened by its URL needs neither
    from docdeck.models import ListPage, SearchPageResult

__all__ = ["SEARCH_PAUSE", "SearchHit", "SearchView"]

SEARCH_PAUSE = 0.25
"""Seconds of no typing before the search is sent."""

SECTIONS_SHOWN = 3
"""Matching sections listed under a page; a line says how many more it has (a long page
can match in hundreds)."""

SECTION_TEXT = 400
"""Characters of a section's text shown (its first line's worth)."""


@dataclass(frozen=True)
class SearchHit:
    page_id: str
    anchor: str | None
    title: str


class SearchView(Vertical):
    BINDINGS: ClassVar[list[BindingType]] = [
        # A priority binding (`docdeck.tui.kit.focus`): "↓ enter" typed at once opens the first
        # hit, instead of the enter reaching the field before focus has moved.
        Binding("down", "to_results", "Results", show=False, priority=True, id="search.to_results"),
    ]
    DEFAULT_CSS = """
    SearchView { height: 1fr; }
    SearchView > #search-status { height: auto; padding: 0 1; color: $text-muted; }
    SearchView > NavOptionList { height: 1fr; border: none; }
    """

    @dataclass
    class SearchHitChosen(Message):
        hit: SearchHit

    def __init__(self, source: SpaceSource, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.source = source
        self._timer: Timer | None = None
        self.hits: list[SearchHit] = []
        """What each option opens (the "… more results" line, last, opens nothing)."""
        self.query_text = ""
        self.next_page: str | None = None
        self.loading_more = False
        self.pages = 0
        self.sections = 0

    def compose(self) -> ComposeResult:
        yield Input(placeholder="search this space (titles and text)", id="search-input")
        yield Static(
            "Type to search; ↓ to the results, enter opens the page there.",
            id="search-status",
            markup=False,
        )
        yield NavOptionList(id="search-results")

    @property
    def field(self) -> Input:
        return self.query_one("#search-input", Input)

    @property
    def results(self) -> NavOptionList:
        return self.query_one("#search-results", NavOptionList)

    def enter(self) -> None:
        """Shown (`/`): the keys typed right after it are the query's."""
        focus_now(self.field)
        if self.source.older:
            self.status("Search looks in the space's current content, not this revision.")

    @on(Input.Changed, "#search-input")
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        if self._timer is not None:
            self._timer.stop()
        query = event.value.strip()
        if not query:
            self.workers.cancel_group(self, "search")
            self.clear()
            return
        self.status(f"searching for {quoted(query)}…")
        self._timer = self.set_timer(SEARCH_PAUSE, lambda: self.search(query))

    def search(self, query: str, page: str | None = None) -> None:
        """Read the results of `query` (`page`: the next page of them)."""
        self._search(query, page)

    @read(  # a newer query cancels this one's request
        "search",
        lambda self, query, page=None: (
            f"Reading more results for {quoted(query)}"
            if page is not None
            else f"Searching for {quoted(query)}"
        ),
    )
    async def _search(self, query: str, page: str | None = None) -> None:
        try:
            found = await self.source.content.search(query, page)
        except Exception as error:
            problem = describe(error, f"Searching for {quoted(query)}")
            self.loading_more = False
            self.status(f"{problem.title}: {problem.brief or problem.message}", error=True)
            return
        if self.field.value.strip() == query:
            self.show_results(query, found, more=page is not None)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        report_worker_failure(self, event)

    def status(self, text: str, *, error: bool = False) -> None:
        self.query_one("#search-status", Static).update(Text(text, style="red" if error else ""))

    def show_results(
        self, query: str, found: ListPage[SearchPageResult], *, more: bool = False
    ) -> None:
        """Show a page of results; `more`: it follows the ones shown (the next page)."""
        results_list = self.results
        if not more or query != self.query_text:
            self.hits, self.pages, self.sections = [], 0, 0
            results_list.clear_options()
        elif self.next_page is not None and results_list.option_count:
            results_list.remove_option_at_index(results_list.option_count - 1)  # "… more"
        self.query_text = query
        self.next_page = found.next.page if found.next is not None else None
        self.loading_more = False
        options: list[Option] = []
        words = [w for w in query.split() if w]
        # a page of results after the first leaves out a page already listed (results paged
        # by offset shift when the space changes between two reads)
        for result in repeats_dropped(found.items, {hit.page_id for hit in self.hits}):
            self.pages += 1
            title = Text(f"▌ {result.title}", style="bold")
            title.append(f"  /{result.path}", style="dim")
            options.append(Option(title))
            self.hits.append(SearchHit(result.id, None, result.title))
            sections = result.sections or []
            self.sections += len(sections)
            for section in sections[:SECTIONS_SHOWN]:
                anchor = section.path.partition("#")[2] or None
                line = Text("    ")
                line.append(section.title or "(top of the page)", style="italic")
                body = Text(" — " + " ".join(section.body[:SECTION_TEXT].split()))
                body.highlight_words(words, style="bold reverse", case_sensitive=False)
                line.append_text(body)
                options.append(Option(line))
                self.hits.append(SearchHit(result.id, anchor, result.title))
            if len(sections) > SECTIONS_SHOWN:
                rest = len(sections) - SECTIONS_SHOWN
                options.append(
                    Option(
                        Text(
                            f"    … {rest} more matching section{'s' if rest != 1 else ''}"
                            " in this page",
                            style="dim",
                        )
                    )
                )
                self.hits.append(SearchHit(result.id, None, result.title))
        if self.next_page is not None:
            options.append(Option(Text("… more results (↓ here reads them)", style="dim italic")))
        had = results_list.option_count
        results_list.add_options(options)
        if options and not had:
            results_list.highlighted = 0
        self._tell()

    def _tell(self) -> None:
        pages, sections, query = self.pages, self.sections, self.query_text
        more = "+" if self.next_page is not None else ""
        self.status(
            f"{quoted(query)}: {pages}{more} page{'s' if pages != 1 else ''}, {sections}{more} "
            f"section{'s' if sections != 1 else ''}"
            + (" · ↓ to the results, enter opens the page there" if pages else "")
        )

    @on(NavOptionList.OptionHighlighted)
    def _reached(self, event: NavOptionList.OptionHighlighted) -> None:
        """The cursor on "… more results": the next page is read (once at a time)."""
        event.stop()
        if (
            self.next_page is not None
            and not self.loading_more
            and event.option_index >= len(self.hits)
        ):
            self.loading_more = True
            self.status(f"{quoted(self.query_text)}: reading more results…")
            self.search(self.query_text, self.next_page)

    def clear(self) -> None:
        self.hits, self.pages, self.sections = [], 0, 0
        self.query_text = ""
        self.next_page = None
        self.loading_more = False
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
