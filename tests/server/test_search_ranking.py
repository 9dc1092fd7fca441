"""Search ranks the space's matching sections by bm25 (ties in index order), groups them by
page (at most `MAX_PAGES` pages, each ranked by its best section) and reads titles and
snippets for the shown pages only. The answer must be what the plain reading of that rule
gives: every match of every space read with its columns, sorted and grouped in Python."""

from __future__ import annotations

import random
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from docdeck.server.content.edits import Draft
from docdeck.server.search import index as full_text
from docdeck.server.store import Database

from ._content import API_DOCS
from ._support import DemoIds

WORDS = ["order", "refund", "token", "webhook", "retry", "cursor", "scope", "ordering"]


def _plain(conn: sqlite3.Connection, space: str, text: str, limit: int) -> list[Any]:
    expression = full_text.fts_query(text)
    if expression is None:
        return []
    rows = conn.execute(
        """SELECT rowid, space_id, page_id, anchor, title, bm25(search_sections, 8.0, 1.0),
            (SELECT snippet(search_sections, 1, '', '', '…', 24) FROM search_sections
             WHERE search_sections MATCH ?1 AND rowid = s.rowid)
        FROM search_sections s WHERE search_sections MATCH ?1""",
        (expression,),
    ).fetchall()
    ranked = sorted((r for r in rows if r[1] == space), key=lambda r: (r[5], r[0]))
    pages: dict[str, list[Any]] = {}
    for rowid, _, page_id, anchor, title, rank, snippet in ranked[: limit * 5]:
        if page_id in pages:
            pages[page_id].append((rowid, anchor, title, rank, snippet))
        elif len(pages) < limit:
            pages[page_id] = [(rowid, anchor, title, rank, snippet)]
    return sorted(
        ((sections[0][3], page_id, sections) for page_id, sections in pages.items()),
        key=lambda p: (p[0], p[1]),
    )


def _found(conn: sqlite3.Connection, space: str, text: str) -> list[Any]:
    hits = full_text.with_snippets(conn, text, full_text.search(conn, space, text))
    return [
        (
            hit.rank,
            hit.page_id,
            [(s.rowid, s.anchor, s.title, s.rank, s.snippet) for s in hit.sections],
        )
        for hit in hits
    ]


def _generated_space(db_path: Path, space: str, rng: random.Random) -> None:
    """Pages of a few words, many alike: equal ranks, and more pages than `MAX_PAGES`."""
    db = Database(db_path)
    try:
        with db.write() as conn:
            draft = Draft(conn, space, datetime.now(UTC))
            for n in range(60):
                body = f"# {rng.choice(WORDS).title()}\n\n{' '.join(rng.choices(WORDS, k=4))}\n"
                body += f"\n## {rng.choice(WORDS)}\n\n{' '.join(rng.choices(WORDS, k=3))}\n"
                draft.add_page(f"{rng.choice(WORDS).title()} {n % 7}", markdown=body)
            draft.commit()
    finally:
        db.close()


def test_search_is_the_plain_rule_read_fast(
    ids: DemoIds, sandbox_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(4)
    space = ids.spaces[API_DOCS]
    _generated_space(sandbox_db, space, rng)
    monkeypatch.setattr(full_text, "MAX_PAGES", 12)  # the cut at 60 sections falls in ties
    conn = sqlite3.connect(sandbox_db)
    try:
        queries = [*WORDS, "ord", "re", "order refund", "token webhook retry", "the", "api"]
        queries += [" ".join(rng.sample(WORDS, rng.randint(1, 3))) for _ in range(20)]
        some = 0
        for text in queries:
            found = _found(conn, space, text)
            assert found == _plain(conn, space, text, 12), text
            some += bool(found)
        assert some > len(queries) // 2
        ties = [
            text
            for text in WORDS
            if len({s[3] for _, _, sections in _found(conn, space, text) for s in sections})
            < sum(len(sections) for _, _, sections in _found(conn, space, text))
        ]
        assert ties, "some sections rank alike: their order is the index's"
    finally:
        conn.close()
