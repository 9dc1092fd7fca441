"""Paging cost against organization size: a page must cost what it returns.

For organizations of 1,000, 5,000 and 20,000 spaces (demo plus `add_bulk_spaces`), walks
`GET /v1/orgs/{id}/spaces` 100 at a time through the real app in process (ASGI), timing every
page, so the figures are the server's own work without a network or a client process in the
way. With keyset paging over an index, the 20,000-space walk costs ~20x the 1,000-space one
(20x the pages) and a page deep in the list costs what the first page costs; the old query,
which re-sorted the whole organization for each page, is timed beside it on the same file
(`old_query_*`: the SQL alone) to show the difference.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from _harness import percentile, write_result
from docdeck.server import add_bulk_spaces, create_app, ensure_demo, mint_token

ORG_TITLE = "Northwind Labs"
SEGMENT = "printf('%024.9f', {a}.position + 1e12) || ':' || {a}.id || '/'"
OLD_QUERY = f"""WITH RECURSIVE tree(id, path) AS (
    SELECT c.id, {SEGMENT.format(a="c")} FROM collections c
        WHERE c.organization_id = ? AND c.parent_id IS NULL
    UNION ALL SELECT c.id, tree.path || {SEGMENT.format(a="c")} FROM collections c
        JOIN tree ON c.parent_id = tree.id)
SELECT s.*, COALESCE(tree.path, '') || {SEGMENT.format(a="s")} AS k0, s.id AS k1
    FROM spaces s LEFT JOIN tree ON tree.id = s.parent_id
    WHERE s.organization_id = ? AND s.deleted_at IS NULL
    ORDER BY k0, k1 LIMIT ?"""
"""The list query before issue 7 (first page; later pages added a key comparison)."""


async def _walk(db: Path, org: str, token: str, limit: int) -> dict[str, Any]:
    app = create_app(db)
    transport = httpx.ASGITransport(app=app)
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(
        transport=transport, base_url="http://bench", headers=headers
    ) as client:
        path = f"/v1/orgs/{org}/spaces"
        await client.get(path, params={"limit": 1})  # warm up: token cache, connection
        page: str | None = None
        timings: list[float] = []
        seen = 0
        began = time.perf_counter()
        while True:
            params: dict[str, Any] = {"limit": limit}
            if page:
                params["page"] = page
            start = time.perf_counter()
            response = await client.get(path, params=params)
            timings.append(time.perf_counter() - start)
            body = response.json()
            seen += len(body["items"])
            if "next" not in body:
                break
            page = body["next"]["page"]
        total = time.perf_counter() - began
    return {
        "items": seen,
        "pages": len(timings),
        "walk_ms": total * 1000,
        "page_ms_median": statistics.median(timings) * 1000,
        "page_ms_p95": percentile(timings, 0.95) * 1000,
        "first_page_ms": timings[0] * 1000,
        "last_page_ms": timings[-1] * 1000,
    }


def _old_query_ms(db: Path, org: str, limit: int, runs: int = 5) -> float:
    conn = sqlite3.connect(db)
    try:
        samples = []
        for _ in range(runs):
            start = time.perf_counter()
            conn.execute(OLD_QUERY, (org, org, limit + 1)).fetchall()
            samples.append(time.perf_counter() - start)
        return statistics.median(samples) * 1000
    finally:
        conn.close()


NEW_QUERY = """SELECT s.*, s.tree_key AS k0 FROM spaces s INDEXED BY spaces_in_tree
    WHERE s.organization_id = ? AND s.deleted_at IS NULL AND (s.tree_key) > (?)
    ORDER BY s.tree_key LIMIT ?"""
COUNT_QUERY = """SELECT COUNT(*) FROM spaces s INDEXED BY spaces_in_tree
    WHERE s.organization_id = ? AND s.deleted_at IS NULL"""
"""What `count` would cost without the counter the store keeps (`live_space_counts`)."""


def _sql_ms(db: Path, sql: str, params: tuple[Any, ...], runs: int = 5) -> float:
    conn = sqlite3.connect(db)
    try:
        samples = []
        for _ in range(runs):
            start = time.perf_counter()
            conn.execute(sql, params).fetchall()
            samples.append(time.perf_counter() - start)
        return statistics.median(samples) * 1000
    finally:
        conn.close()


def _deep_key(db: Path, org: str) -> str:
    """The sort key 90% of the way down the list: a page deep in it."""
    conn = sqlite3.connect(db)
    try:
        keys = [
            row[0]
            for row in conn.execute(
                "SELECT tree_key FROM spaces WHERE organization_id = ? AND deleted_at IS NULL"
                " ORDER BY tree_key",
                (org,),
            )
        ]
        return str(keys[len(keys) * 9 // 10])
    finally:
        conn.close()


def measure(size: int, limit: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "paging.db"
        accounts = ensure_demo(db)
        conn = sqlite3.connect(db)
        org = conn.execute("SELECT id FROM organizations WHERE title = ?", (ORG_TITLE,)).fetchone()
        existing = conn.execute(
            "SELECT COUNT(*) FROM spaces WHERE organization_id = ? AND deleted_at IS NULL",
            (org[0],),
        ).fetchone()[0]
        conn.close()
        add_bulk_spaces(db, org[0], size - existing)
        token = mint_token(db, accounts[0].email)
        result = asyncio.run(_walk(db, org[0], token, limit))
        result["old_query_page_ms"] = _old_query_ms(db, org[0], limit)
        result["new_query_deep_page_ms"] = _sql_ms(
            db, NEW_QUERY, (org[0], _deep_key(db, org[0]), limit + 1)
        )
        result["count_query_ms"] = _sql_ms(db, COUNT_QUERY, (org[0],))
        result["old_query_walk_ms_estimate"] = result["old_query_page_ms"] * result["pages"]
        return {"spaces": size, **result}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000, 20000])
    parser.add_argument("--limit", type=int, default=100)
    args = parser.parse_args(argv)
    rows = [measure(size, args.limit) for size in args.sizes]
    base = rows[0]
    for row in rows:
        row["walk_ratio_to_smallest"] = row["walk_ms"] / base["walk_ms"]
        row["size_ratio_to_smallest"] = row["spaces"] / base["spaces"]
        print(
            f"{row['spaces']:>6} spaces, {row['pages']:>3} pages of {args.limit}: walk "
            f"{row['walk_ms']:.0f} ms ({row['walk_ratio_to_smallest']:.1f}x for "
            f"{row['size_ratio_to_smallest']:.0f}x the spaces), page median "
            f"{row['page_ms_median']:.2f} ms p95 {row['page_ms_p95']:.2f} ms, first "
            f"{row['first_page_ms']:.2f} ms last {row['last_page_ms']:.2f} ms; SQL alone: "
            f"page {row['new_query_deep_page_ms']:.3f} ms (old query "
            f"{row['old_query_page_ms']:.2f} ms), a COUNT query would take "
            f"{row['count_query_ms']:.2f} ms (the counter replaces it)"
        )
    data = {"limit": args.limit, "rows": rows}
    path = write_result("paging", data)
    print(f"wrote {path}")
    return data


if __name__ == "__main__":
    main()
