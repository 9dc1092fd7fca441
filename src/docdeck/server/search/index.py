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
from collections.abc import Sequence
from typing import NamedTuple

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
    sections: list[SectionHit]
    """Filled by `with_snippets`; `search` leaves it empty and gives `rows`."""
    rows: Sequence[tuple[int, float]] = ()
    """The matching sections' rowids and ranks, best first."""


def search(conn: sqlite3.Connection, space_id: str, text: str) -> list[PageHit]:
    """Pages with matching sections, best first (bm25; a hit in a title weighs 8x), without
    their sections' titles and snippets: `with_snippets` adds them to the hits that will be
    shown. Ties in rank are taken in index order (rowid).

    Ranking reads only each match's rowid and its space (from `search_section_pages`, a
    small table keyed by rowid), not the section's stored columns: those are read for the
    shown hits only."""
    expression = fts_query(text)
    if expression is None:
        return []
    rows = conn.execute(
        """SELECT s.rowid, p.page_id, bm25(search_sections, 8.0, 1.0) AS rank
        FROM search_sections s CROSS JOIN search_section_pages p ON p.section_rowid = s.rowid
        WHERE search_sections MATCH ? AND p.space_id = ?
        ORDER BY rank, s.rowid LIMIT ?""",
        (expression, space_id, MAX_PAGES * 5),
    ).fetchall()
    pages: dict[str, list[tuple[int, float]]] = {}
    for rowid, page_id, rank in rows:
        found = pages.get(page_id)
        if found is None:
            if len(pages) >= MAX_PAGES:
                continue
            pages[page_id] = [(rowid, rank)]
        else:
            found.append((rowid, rank))
    hits = [PageHit(page_id, found[0][1], [], found) for page_id, found in pages.items()]
    return sorted(hits, key=lambda p: (p.rank, p.page_id))


def with_snippets(conn: sqlite3.Connection, text: str, hits: list[PageHit]) -> list[PageHit]:
    """The hits with their sections: each one's anchor, title and a snippet of its text
    around the words found. The rowid filter is applied to the one scan of the matches
    (`+rowid`): offered to FTS5, it would run the query again for every rowid."""
    expression = fts_query(text)
    rowids = [rowid for hit in hits for rowid, _ in hit.rows]
    if expression is None or not rowids:
        return hits
    found = {
        rowid: (anchor, title, snippet)
        for rowid, anchor, title, snippet in conn.execute(
            """SELECT rowid, anchor, title, snippet(search_sections, 1, '', '', '…', 24)
            FROM search_sections
            WHERE search_sections MATCH ? AND +rowid IN (SELECT value FROM json_each(?))""",
            (expression, json.dumps(rowids)),
        )
    }
    return [
        PageHit(
            hit.page_id,
            hit.rank,
            [
                SectionHit(rowid, *found[rowid][:2], rank, found[rowid][2])
                for rowid, rank in hit.rows
                if rowid in found
            ],
            hit.rows,
        )
        for hit in hits
    ]
