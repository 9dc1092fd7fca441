"""Search as you type: debounced, a newer query cancels the older request, hits by page."""

from __future__ import annotations

import asyncio

import pytest
from textual.pilot import Pilot
from textual.worker import WorkerState

from docdeck.tui.space import SearchView, SpaceScreen
from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, burst, type_text, wait_until
from tui.space.helpers import open_api_reference, preview_text, settle


async def _until_searched(pilot: Pilot[None], transport: RecordingTransport) -> None:
    """Until the search typed is sent (after the typing pause): a condition, not a fixed wait."""
    await wait_until(
        pilot,
        lambda: any(r.endswith("/search") for r in transport.requests),
        "the search is sent",
    )


async def _searched_the(
    pilot: Pilot[None], transport: RecordingTransport
) -> tuple[SpaceScreen, SearchView]:
    """The API reference searched for "the", its first page of results shown."""
    screen = await open_api_reference(pilot)
    await pilot.press("slash")
    await type_text(pilot, "the")
    await _until_searched(pilot, transport)
    await settle(pilot)
    return screen, screen.query_one(SearchView)


async def test_search_groups_hits_by_page_and_opens_the_section(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_api_reference(pilot)
        await pilot.press("slash")
        await type_text(pilot, "retried")
        await _until_searched(pilot, transport)
        await settle(pilot)
        searches = [r for r in transport.requests if r.endswith("/search")]
        assert len(searches) == 1, searches  # typing a word sends one search, after a pause
        view = screen.query_one(SearchView)
        text = preview_text(pilot)
        assert "“retried”:" in text
        assert view.hits and view.hits[0].anchor is None  # a page line, then its sections
        section = next(hit for hit in view.hits if hit.anchor)
        await pilot.press("down")
        index = view.hits.index(section)
        view.results.highlighted = index
        await pilot.press("enter")
        await settle(pilot)
        assert screen.mode == "pages"
        assert screen.location is not None
        assert (screen.location.page_id, screen.location.anchor) == (
            section.page_id,
            section.anchor,
        )


async def test_a_newer_query_cancels_the_older_request(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_api_reference(pilot)
        release = asyncio.Event()
        transport.held = ("/search", release)
        await pilot.press("slash")
        await type_text(pilot, "webh")
        await _until_searched(pilot, transport)  # held: its worker waits for the answer
        first = [w for w in app.workers if w.group == "search"]
        assert first and first[0].state is WorkerState.RUNNING
        await type_text(pilot, "ooks")
        await wait_until(
            pilot, lambda: first[0].state is not WorkerState.RUNNING, "the first search ends"
        )
        assert first[0].state is WorkerState.CANCELLED
        release.set()
        transport.held = None
        await settle(pilot)
        assert "“webhooks”:" in preview_text(pilot)
        assert screen.query_one(SearchView).query_text == "webhooks"


async def test_keys_typed_right_after_slash_and_f_go_into_the_field(
    make_app: AppFactory,
) -> None:
    """ "/web" or "ferr" typed in one burst (all queued before any is handled, as a terminal
    sends fast typing; `pilot.press` waits for idle between keys, so it cannot show this):
    the keys after "/" and "f" are the field's, not the tree's or the preview's."""
    from textual.widgets import Input

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_api_reference(pilot)
        before = screen.location
        await burst(pilot, ["slash", "w", "e", "b", "n", "p"])
        await pilot.pause()
        assert screen.mode == "search"
        assert screen.query_one("#search-input", Input).value == "webnp"
        assert screen.location == before, "n and p did not move to another page"
        await pilot.press("escape")
        await settle(pilot)
        assert screen.mode == "pages"
        await burst(pilot, ["f", "e", "r", "r", "n"])
        await pilot.pause()
        field = screen.query_one("#page-filter", Input)
        assert field.value == "errn" and screen.focused is field
        await burst(pilot, ["f", "slash"])
        await pilot.pause()
        assert field.value == "errnf/", "in the field, f and / are typed"
        assert screen.mode == "pages"


async def test_down_and_enter_typed_at_once_open_the_first_hit(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    """↓ moves focus to the results when the app receives it, so the enter typed with it in
    one burst opens the highlighted hit instead of reaching the field."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_api_reference(pilot)
        await burst(pilot, ["slash", *"retried"])
        await _until_searched(pilot, transport)
        await settle(pilot)
        view = screen.query_one(SearchView)
        assert view.hits
        await burst(pilot, ["down", "enter"])
        await settle(pilot)
        assert screen.mode == "pages"
        assert screen.location is not None and screen.location.page_id == view.hits[0].page_id


async def test_results_come_a_page_at_a_time_and_the_end_reads_more(
    make_app: AppFactory, transport: RecordingTransport, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One request shows the first page of results; the cursor on "… more results" reads
    the next, appended in place. A page's sections are listed up to a few, with a line
    saying how many more it has."""
    from docdeck.tui.content import revision_cache as space_cache
    from docdeck.tui.space import _search_view

    monkeypatch.setattr(space_cache, "SEARCH_PAGE", 2)
    monkeypatch.setattr(_search_view, "SECTIONS_SHOWN", 1)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        _screen, view = await _searched_the(pilot, transport)
        searches = [r for r in transport.requests if r.endswith("/search")]
        assert len(searches) == 1
        assert view.pages == 2 and view.next_page is not None
        text = preview_text(pilot)
        assert "“the”: 2+ pages" in text
        assert "… more results" in text
        assert "more matching section" in text, "a page with several sections says so"
        first_hits = list(view.hits)
        await pilot.press("down")  # into the results
        await pilot.press("end")  # onto "… more results"
        await settle(pilot)
        assert len([r for r in transport.requests if r.endswith("/search")]) == 2
        assert view.pages == 4
        assert view.hits[: len(first_hits)] == first_hits, "the first page stays as it was"
        assert preview_text(pilot).count("… more results") <= 1
        # Every line but "… more results" opens a page.
        assert view.results.option_count == len(view.hits) + (1 if view.next_page else 0)


async def test_a_page_of_results_repeated_on_the_next_read_is_listed_once(
    make_app: AppFactory, transport: RecordingTransport, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Results paged by offset shift when the space changes between two reads: the next
    page may begin with a page already listed. It is listed once."""
    from docdeck.models import ListPage, SearchPageResult
    from docdeck.tui.content import revision_cache as space_cache

    monkeypatch.setattr(space_cache, "SEARCH_PAGE", 2)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen, view = await _searched_the(pilot, transport)
        assert view.pages == 2
        listed = {hit.page_id for hit in view.hits}
        client = app.client  # type: ignore[attr-defined]
        first = (await client.content.search(screen.space.id, "the", limit=2)).items
        repeated = first[-1]
        new = repeated.model_copy(update={"id": "a-page-not-listed", "title": "Not listed"})
        view.show_results(
            "the", ListPage[SearchPageResult](items=[repeated, new], count=3), more=True
        )
        await pilot.pause()
        assert view.pages == 3
        assert {hit.page_id for hit in view.hits} == listed | {"a-page-not-listed"}
        assert preview_text(pilot).count(f"▌ {repeated.title}") == 1


async def test_a_pasted_page_of_text_or_a_broken_character_gets_a_short_clear_answer(
    make_app: AppFactory,
) -> None:
    """A paste of 20,000 characters is echoed cut short, not as a screenful; text that is
    not valid Unicode (a lone surrogate) is refused by name, not as a Python traceback."""
    from textual import events

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_api_reference(pilot)
        await pilot.press("slash")
        app.post_message(events.Paste("x" * 20_000))
        await pilot.pause(0.4)
        await settle(pilot)
        text = preview_text(pilot)
        lines = [line for line in text.splitlines() if "x" * 30 in line]
        assert len(lines) == 2, "the field and the status line, not a screenful"
        assert "“" + "x" * 59 + "…”" in text
        screen.search_view.field.value = ""
        await settle(pilot)
        app.post_message(events.Paste("ab\ud800c"))
        await pilot.pause(0.4)
        await settle(pilot)
        text = preview_text(pilot)
        assert "U+D800" in text and "not valid Unicode" in text
        assert "UnicodeEncodeError" not in text
        assert "Remove that character" in text
