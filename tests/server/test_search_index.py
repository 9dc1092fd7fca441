"""The search index follows main page by page: a merge re-indexes only the pages it changed,
found through `search_section_pages` (indexed) instead of a scan of the FTS5 table, whose
space and page columns are unindexed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import httpx

from docdeck.server.search.index import forget_sections

from ._support import DemoIds


def _index_rows(db: Path) -> tuple[list[tuple], list[tuple]]:
    conn = sqlite3.connect(db)
    try:
        sections = conn.execute(
            "SELECT rowid, space_id, page_id FROM search_sections ORDER BY rowid"
        ).fetchall()
        pages = conn.execute(
            "SELECT section_rowid, space_id, page_id FROM search_section_pages"
            " ORDER BY section_rowid"
        ).fetchall()
    finally:
        conn.close()
    return sections, pages


async def _hits(admin: httpx.AsyncClient, space: str, query: str) -> int:
    response = await admin.get(f"/v1/spaces/{space}/search", params={"query": query})
    assert response.status_code == 200, response.text
    return int(response.json()["count"])


async def test_merges_reindex_the_changed_pages_only(
    admin: httpx.AsyncClient, ids: DemoIds, sandbox_db: Path
) -> None:
    sections, pages = _index_rows(sandbox_db)
    assert sections and sections == pages  # the demo's index, every section mapped
    guide = ids.spaces["Webhooks Guide"]
    setup_hits = await _hits(admin, guide, "Setup")
    created = await admin.post(f"/v1/orgs/{ids.northwind}/spaces", json={"title": "Index"})
    space = created.json()["id"]
    cr = (await admin.post(f"/v1/spaces/{space}/change-requests", json={})).json()["id"]
    inserted = await admin.post(
        f"/v1/spaces/{space}/change-requests/{cr}/content?compat=false",
        json={
            "changes": [
                {"operation": "insert_page", "title": "A", "document": {"markdown": "zebra\n"}},
                {"operation": "insert_page", "title": "B", "document": {"markdown": "yak\n"}},
            ]
        },
    )
    page_a = inserted.json()["changes"][0]["page"]["id"]
    assert (await admin.post(f"/v1/spaces/{space}/change-requests/{cr}/merge")).status_code == 200
    assert await _hits(admin, space, "zebra") == 1 and await _hits(admin, space, "yak") == 1
    cr = (await admin.post(f"/v1/spaces/{space}/change-requests", json={})).json()["id"]
    await admin.post(
        f"/v1/spaces/{space}/change-requests/{cr}/content",
        json={
            "changes": [
                {"operation": "update_page", "page": page_a, "document": {"markdown": "okapi\n"}}
            ]
        },
    )
    assert (await admin.post(f"/v1/spaces/{space}/change-requests/{cr}/merge")).status_code == 200
    assert await _hits(admin, space, "zebra") == 0  # A's old section is gone
    assert await _hits(admin, space, "okapi") == 1 and await _hits(admin, space, "yak") == 1
    assert await _hits(admin, guide, "Setup") == setup_hits  # other spaces untouched
    sections, pages = _index_rows(sandbox_db)
    assert sections == pages


def test_forgetting_a_page_looks_it_up_by_index(sandbox_db: Path) -> None:
    conn = sqlite3.connect(sandbox_db)
    try:
        plan = " ".join(
            row[-1]
            for row in conn.execute(
                "EXPLAIN QUERY PLAN SELECT section_rowid FROM search_section_pages"
                " WHERE space_id = ? AND page_id = ?",
                ("s", "p"),
            )
        )
        assert "USING" in plan and "INDEX" in plan, plan
        (space, page, count) = conn.execute(
            "SELECT space_id, page_id, COUNT(*) FROM search_section_pages"
            " GROUP BY space_id, page_id LIMIT 1"
        ).fetchone()
        before = conn.execute("SELECT COUNT(*) FROM search_sections").fetchone()[0]
        forget_sections(conn, "space_id = ? AND page_id = ?", (space, page))
        after = conn.execute("SELECT COUNT(*) FROM search_sections").fetchone()[0]
        assert before - after == count
    finally:
        conn.close()
