"""Full-text search over a space's current revision with SQLite FTS5.

The index holds one row per section (a heading and its text; the text before the first
heading is the page's own section, titled by the page). It follows the current revision
incrementally: a new revision re-indexes only the pages whose entry changed.

A user's query is never handed to FTS5 as syntax: it is split into words, each quoted, the
last one a prefix, all required. So quotes, `AND`, `NEAR(`, `*` or emoji are just text, and a
query with no words in it finds nothing instead of failing.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Container, Iterator, Sequence
from itertools import compress, repeat
from operator import itemgetter
from typing import NamedTuple, overload

from docdeck.server.content.markdown import analyse
from docdeck.server.content.snapshots import Snapshot, changed_keys, get_text

QUERY_MAX = 512
MAX_PAGES = 1000
"""At most this many pages are ranked for one query (the best ones)."""

_WORD = re.compile(r"\w+", re.UNICODE)


def index_revision(
    conn: sqlite3.Connection, space_id: str, old: Snapshot | None, new: Snapshot
) -> None:
    """Brings the space's index from `old` (what is indexed now) to `new`. Sections are
    found through `search_section_pages` (indexed), so re-indexing N pages costs N pages."""
    state = conn.execute(
        "SELECT revision_id FROM search_state WHERE space_id = ?", (space_id,)
    ).fetchone()
    if state is None or old is None or state[0] != old.info.id:
        forget_sections(conn, "space_id = ?", (space_id,))
        changed = set(new.pages)
    else:
        changed = {pid for kind, pid in changed_keys(conn, old, new) if kind == "page"}
        for page_id in changed:
            forget_sections(conn, "space_id = ? AND page_id = ?", (space_id, page_id))
    rows = []
    for page_id in changed:
        entry = new.pages.get(page_id)
        if entry is None or entry.get("type") != "document":
            continue
        sections = analyse(get_text(conn, entry.get("body")))["sections"]
        titles = {s["title"].casefold() for s in sections}
        if entry["title"].casefold() not in titles and (not sections or sections[0]["anchor"]):
            sections = [{"anchor": "", "title": "", "text": ""}, *sections]
        for section in sections:
            title = section["title"] or entry["title"]
            rows.append((title, section["text"], space_id, page_id, section["anchor"]))
    (last,) = conn.execute("SELECT COALESCE(MAX(rowid), 0) FROM search_sections").fetchone()
    numbered = [(last + 1 + i, *row) for i, row in enumerate(rows)]
    conn.executemany(
        "INSERT INTO search_sections (rowid, title, body, space_id, page_id, anchor)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        numbered,
    )
    conn.executemany(
        "INSERT OR REPLACE INTO search_section_pages (section_rowid, space_id, page_id)"
        " VALUES (?, ?, ?)",
        [(row[0], row[3], row[4]) for row in numbered],
    )
    conn.execute(
        "INSERT INTO search_state (space_id, revision_id) VALUES (?, ?)"
        " ON CONFLICT(space_id) DO UPDATE SET revision_id = excluded.revision_id",
        (space_id, new.info.id),
    )


def forget_sections(conn: sqlite3.Connection, where: str, params: tuple[str, ...]) -> None:
    """Delete the sections of the pages `where` selects (a condition on `space_id` and
    `page_id` of `search_section_pages`), by rowid: no scan of the whole index."""
    conn.execute(
        "DELETE FROM search_sections WHERE rowid IN"
        f" (SELECT section_rowid FROM search_section_pages WHERE {where})",
        params,
    )
    conn.execute(f"DELETE FROM search_section_pages WHERE {where}", params)


def fts_query(text: str) -> str | None:
    """The FTS5 expression for what a user typed; None when it has no words."""
    words = _WORD.findall(text)
    if not words:
        return None
    quoted = [f'"{w}"' for w in words[:64]]
    quoted[-1] += "*"
    return " ".join(quoted)


class SectionHit(NamedTuple):
    rowid: int
    anchor: str
    title: str
    rank: float
    snippet: str = ""


class PageHit(NamedTuple):
    """A page found (tuples: a search makes up to 1,000 of them, and every object made adds
    to what the garbage collector walks)."""

    page_id: str
    rank: float
    sections: Sequence[SectionHit]
    """Filled by `with_snippets`; `search` leaves it empty and gives `rows`."""
    rows: Sequence[tuple[int, str, float]] = ()
    """The search's ranked matches, best first, as (rowid, page id, rank): one list shared by
    every page the search found (this page's sections are the rows with its page id), so
    ranking makes no object per page beyond its hit."""


_RANKED = """SELECT s.rowid, p.page_id, bm25(search_sections, 8.0, 1.0)
    FROM search_sections s CROSS JOIN search_section_pages p ON p.section_rowid = s.rowid
    WHERE search_sections MATCH ? AND p.space_id = ?
    ORDER BY s.rowid"""
"""Every match in the space in index order (FTS5 reads its matches in rowid order: the
`ORDER BY` costs no sort), with its page and bm25 rank."""

_RANK = itemgetter(2)
_PAGE = itemgetter(1)


class Found(Sequence[PageHit]):
    """What `search` found: its pages, best first, each made a `PageHit` only when it is
    read. A search finds up to `MAX_PAGES` pages and an answer shows one page of them: the
    others are counted and looked up by the cursor, never made (a tuple each, made and then
    walked by the garbage collector, cost more than the rest of the grouping)."""

    __slots__ = ("page_ids", "ranks", "rows")

    def __init__(
        self, page_ids: list[str], ranks: list[float], rows: list[tuple[int, str, float]]
    ) -> None:
        self.page_ids = page_ids
        self.ranks = ranks
        self.rows = rows

    def __len__(self) -> int:
        return len(self.page_ids)

    @overload
    def __getitem__(self, index: int) -> PageHit: ...

    @overload
    def __getitem__(self, index: slice) -> list[PageHit]: ...

    def __getitem__(self, index: int | slice) -> PageHit | list[PageHit]:
        if isinstance(index, slice):
            return list(
                map(PageHit, self.page_ids[index], self.ranks[index], repeat(()), repeat(self.rows))
            )
        return PageHit(self.page_ids[index], self.ranks[index], (), self.rows)

    def __iter__(self) -> Iterator[PageHit]:
        return map(PageHit, self.page_ids, self.ranks, repeat(()), repeat(self.rows))

    def within(self, pages: Container[str]) -> Found:
        """The pages found that are in `pages` (all of them, unless the index and `pages`
        are of different revisions)."""
        keep = list(map(pages.__contains__, self.page_ids))
        if all(keep):
            return self
        return Found(
            list(compress(self.page_ids, keep)), list(compress(self.ranks, keep)), self.rows
        )


_NOTHING = Found([], [], [])


def search(conn: sqlite3.Connection, space_id: str, text: str) -> Found:
    """Pages with matching sections, best first (bm25; a hit in a title weighs 8x), without
    their sections' titles and snippets: `with_snippets` adds them to the hits that will be
    shown. The rule: the space's matches ranked by bm25, ties in index order (rowid); the
    best `MAX_PAGES * 5` of them grouped by page in that order, at most `MAX_PAGES` pages;
    each page ranked by its best section, ties by page id.

    Ranking reads only each match's rowid and its space and page (from
    `search_section_pages`, a small table keyed by rowid), not the section's stored
    columns: those are read for the shown hits only. The matches come back as plain tuples
    and are ranked and grouped by C-level sorts and dicts: beyond the row the database
    gives, nothing is made per match or page found, and `PageHit`s only for the hits read
    (`Found`). Objects are what a search pays for twice, making them and again in the
    garbage collector's walks, whose young generations hold a whole revision's pages just
    after it is loaded."""
    expression = fts_query(text)
    if expression is None:
        return _NOTHING
    cursor = conn.cursor()
    cursor.row_factory = None
    rows = cursor.execute(_RANKED, (expression, space_id)).fetchall()
    rows.sort(key=_RANK)  # stable: equal ranks stay in index order
    del rows[MAX_PAGES * 5 :]
    # The pages in the order the ranked rows meet them, the first MAX_PAGES kept; each
    # page's rank is its first row's (the reversed walk leaves that one last).
    pages = list(dict.fromkeys(map(_PAGE, rows)))
    del pages[MAX_PAGES:]
    best = dict(zip(map(_PAGE, reversed(rows)), map(_RANK, reversed(rows)), strict=True))
    pages.sort()
    pages.sort(key=best.__getitem__)  # stable: equal ranks by page id
    return Found(pages, list(map(best.__getitem__, pages)), rows)


def with_snippets(conn: sqlite3.Connection, text: str, hits: Sequence[PageHit]) -> list[PageHit]:
    """The hits with their sections: each one's anchor, title and a snippet of its text
    around the words found. The rowid filter is applied to the one scan of the matches
    (`+rowid`): offered to FTS5, it would run the query again for every rowid."""
    expression = fts_query(text)
    hits = list(hits)
    if expression is None or not hits:
        return hits
    shown = {hit.page_id for hit in hits}
    ranked = {id(hit.rows): hit.rows for hit in hits}.values()
    mine = [row for rows in ranked for row in rows if row[1] in shown]
    if not mine:
        return hits
    found = {
        rowid: (anchor, title, snippet)
        for rowid, anchor, title, snippet in conn.execute(
            """SELECT rowid, anchor, title, snippet(search_sections, 1, '', '', '…', 24)
            FROM search_sections
            WHERE search_sections MATCH ? AND +rowid IN (SELECT value FROM json_each(?))""",
            (expression, json.dumps([row[0] for row in mine])),
        )
    }
    sections: dict[str, list[SectionHit]] = {page_id: [] for page_id in shown}
    for rowid, page_id, rank in mine:
        section = found.get(rowid)
        if section is not None:
            sections[page_id].append(SectionHit(rowid, section[0], section[1], rank, section[2]))
    return [PageHit(hit.page_id, hit.rank, sections[hit.page_id], hit.rows) for hit in hits]
