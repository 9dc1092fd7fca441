"""Space content at scale: a generated space of N pages (500 and 5,000 by default).

For each size: the page tree (`GET {S}/content/pages`) and a 1 MB page (markdown and
document formats) answer in a measured time; search p50/p95 over 100 varied queries; link
analysis (`GET {S}/links`) right after a one-page change; and storage after 500 one-page
revisions compared with the size of the content. The sandbox app runs in this process
(httpx ASGI transport), so the figures are the server's own work, not the network's.

The pages are realistic markdown (headings, lists, code, tables, links to other pages, a few
broken ones), about 1.5 KB each, in three levels.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from _harness import percentile, write_result
from docdeck.server import create_app, ensure_demo, mint_token
from docdeck.server.content.edits import Draft
from docdeck.server.content.snapshots import (
    current_revision_id,
    get_object,
    load_snapshot,
)
from docdeck.server.spaces.ordering import end_position
from docdeck.server.spaces.service import insert_space
from docdeck.server.store import Database

WORDS = [
    "order",
    "customer",
    "webhook",
    "token",
    "invoice",
    "shipment",
    "refund",
    "cursor",
    "retry",
    "signature",
    "payload",
    "endpoint",
    "scope",
    "limit",
    "event",
    "carrier",
    "product",
    "catalog",
    "price",
    "stock",
    "tax",
    "currency",
    "region",
    "latency",
    "timeout",
    "idempotency",
    "migration",
    "version",
    "deprecation",
    "schema",
    "field",
    "status",
    "queue",
]
_SYLLABLES = ["ka", "ri", "to", "me", "sa", "lu", "ne", "po", "di", "va", "zo", "qu", "fe", "bi"]
VOCABULARY = WORDS + sorted(
    {
        "".join(random.Random(n).choices(_SYLLABLES, k=random.Random(-n).randint(2, 4)))
        for n in range(4000)
    }
)
"""The domain words first, then ~3,000 made-up words: text is drawn from it with Zipf
weights, so a few words are everywhere and most are rare, as in real documentation."""
_WEIGHTS = [1 / (rank + 1) for rank in range(len(VOCABULARY))]


def _words(rng: random.Random, k: int) -> list[str]:
    return rng.choices(VOCABULARY, weights=_WEIGHTS, k=k)


CONTENT_TABLES = ("objects", "revision_entries", "revisions", "space_objects", "body_analysis")


def _body(rng: random.Random, index: int, total: int, paths: list[str]) -> str:
    topic = " ".join(_words(rng, 3))
    lines = [f"# Page {index}: {topic}", "", " ".join(_words(rng, 60)) + ".", ""]
    for section in range(3):
        lines += [f"## Section {section} {' '.join(_words(rng, 2))}", ""]
        lines += [f"- {' '.join(_words(rng, 8))}" for _ in range(3)]
        lines += ["", "```python", f"client.{rng.choice(WORDS)}.get(id={index})", "```", ""]
    if paths:
        target = paths[rng.randrange(len(paths))]
        lines.append(f"See [related](/{target}.md) and [a missing page](/missing-{index}.md).")
    lines += ["", "| field | type |", "|---|---|", f"| {rng.choice(WORDS)} | string |"]
    return "\n".join(lines) + "\n"


def _generate(db_path: Path, pages: int, rng: random.Random) -> tuple[str, list[str]]:
    """A new space in the demo's first organization holding `pages` pages in 3 levels."""
    db = Database(db_path)
    now = datetime.now(UTC)
    try:
        with db.write() as conn:
            org = conn.execute("SELECT id FROM organizations ORDER BY created_at").fetchone()[0]
            space = insert_space(
                conn,
                org_id=org,
                now=now,
                title=f"Generated {pages}",
                parent=None,
                position=end_position(conn, org, None),
            )
            draft = Draft(conn, space, now)
            top = max(2, round(pages ** (1 / 3)))
            ids: list[str] = []
            paths: list[str] = []
            made = 0
            parents: list[tuple[str | None, str]] = [(None, "")]
            level = 0
            while made < pages and level < 3:
                next_parents: list[tuple[str | None, str]] = []
                per = top if level < 2 else max(1, -(-(pages - made) // len(parents)))
                for parent, prefix in parents:
                    for _ in range(per):
                        if made >= pages:
                            break
                        title = f"{rng.choice(WORDS).title()} {made}"
                        page_id = draft.add_page(
                            title, parent=parent, markdown=_body(rng, made, pages, paths)
                        )
                        path = f"{prefix}/{draft.pages[page_id]['slug']}".strip("/")
                        ids.append(page_id)
                        paths.append(path)
                        next_parents.append((page_id, path))
                        made += 1
                parents, level = next_parents, level + 1
            draft.commit(message="generated")
        return space, ids
    finally:
        db.close()


def _content_bytes(db_path: Path, space: str) -> int:
    """Bytes of the current revision's content: distinct page bodies and file bytes."""
    conn = sqlite3.connect(db_path)
    conn.row_factory = sqlite3.Row
    snapshot = load_snapshot(conn, current_revision_id(conn, space))
    hashes = {e["body"] for e in snapshot.pages.values() if e.get("body")}
    hashes |= {e["blob"] for e in snapshot.files.values()}
    total = sum(len(get_object(conn, h) or b"") for h in hashes)
    conn.close()
    return int(total)


def _table_bytes(db_path: Path) -> dict[str, int]:
    conn = sqlite3.connect(db_path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    rows = conn.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name").fetchall()
    conn.close()
    return {name: int(size) for name, size in rows}


def _content_storage(sizes: dict[str, int]) -> int:
    """Bytes of the revision store: its tables and their indexes (not the search index)."""
    return sum(
        size
        for name, size in sizes.items()
        if name in CONTENT_TABLES
        or any(name.startswith(f"sqlite_autoindex_{t}") for t in CONTENT_TABLES)
        or name.startswith("revisions_by")
    )


def _search_bytes(sizes: dict[str, int]) -> int:
    return sum(size for name, size in sizes.items() if name.startswith("search_sections"))


async def _timed(client: httpx.AsyncClient, url: str, **params: Any) -> float:
    began = time.perf_counter()
    response = await client.get(url, params=params)
    elapsed = time.perf_counter() - began
    assert response.status_code == 200, response.text[:300]
    return elapsed


def _revise(db_path: Path, space: str, ids: list[str], count: int, rng: random.Random) -> float:
    db = Database(db_path)
    began = time.perf_counter()
    try:
        for index in range(count):
            with db.write() as conn:
                draft = Draft(conn, space, datetime.now(UTC))
                page = ids[rng.randrange(len(ids))]
                draft.set_markdown(page, _body(rng, index, len(ids), []) + f"\nEdit {index}.\n")
                draft.commit(message=f"edit {index}")
    finally:
        db.close()
    return (time.perf_counter() - began) / count


async def measure(pages: int, revisions: int, seed: int = 7) -> dict[str, Any]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(tmp) / "bench.db"
        ensure_demo(db_path)
        before = _table_bytes(db_path)
        began = time.perf_counter()
        space, ids = _generate(db_path, pages, rng)
        generate_s = time.perf_counter() - began
        token = mint_token(db_path, "ada@northwind.dev")
        app = create_app(db_path, public_url="http://bench.test")
        transport = httpx.ASGITransport(app=app)
        headers = {"Authorization": f"Bearer {token}"}
        async with httpx.AsyncClient(
            transport=transport, base_url="http://bench.test", headers=headers, timeout=120
        ) as client:
            base = f"/v1/spaces/{space}"
            pages_cold = await _timed(client, base + "/content/pages")
            pages_warm = [await _timed(client, base + "/content/pages") for _ in range(5)]

            # What people type: one to three words, mostly not the most common ones, a few
            # prefixes; then odd input. The commonest word (in every page) is timed apart.
            middle = VOCABULARY[20:2000]
            queries = [" ".join(rng.sample(middle, rng.choice((1, 1, 2, 3)))) for _ in range(90)]
            queries += [w[:4] for w in rng.sample(middle, 5)]
            queries += ['"quoted phrase', "NEAR(order", "🙂 emoji", "order AND", "x" * 512]
            search = [await _timed(client, base + "/search", query=q) for q in queries]
            common = [await _timed(client, base + "/search", query=WORDS[0]) for _ in range(3)]

            links_first = await _timed(client, base + "/links", limit=50)

            # One-page change, then link analysis again (parses one page).
            _revise(db_path, space, ids, 1, rng)
            links_after_change = await _timed(client, base + "/links", limit=50)

        content = _content_bytes(db_path, space)
        revise_s = _revise(db_path, space, ids, revisions, rng)
        after = _table_bytes(db_path)
        content_after = _content_bytes(db_path, space)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://bench.test", headers=headers, timeout=120
        ) as client:
            # A 1 MB page.
            big = "\n\n".join(
                f"## Part {i}\n\n" + " ".join(rng.choices(WORDS, k=150)) for i in range(1200)
            )
            db = Database(db_path)
            with db.write() as conn:
                draft = Draft(conn, space, datetime.now(UTC))
                big_id = draft.add_page("Big page", markdown=big)
                draft.commit()
            db.close()
            big_markdown = [
                await _timed(client, base + f"/content/page/{big_id}", format="markdown")
                for _ in range(3)
            ]
            big_document = [
                await _timed(client, base + f"/content/page/{big_id}", format="document")
                for _ in range(3)
            ]
            with db.write() as conn:
                draft = Draft(conn, space, datetime.now(UTC))
                draft.remove(big_id)
                draft.commit()
            db.close()

    grown = {k: after.get(k, 0) - before.get(k, 0) for k in after}
    storage = _content_storage(grown)
    return {
        "pages": pages,
        "generate_s": round(generate_s, 2),
        "page_tree_cold_ms": round(pages_cold * 1000, 1),
        "page_tree_warm_ms_median": round(statistics.median(pages_warm) * 1000, 1),
        "page_1mb_markdown_ms_median": round(statistics.median(big_markdown) * 1000, 1),
        "page_1mb_document_ms_median": round(statistics.median(big_document) * 1000, 1),
        "search_queries": len(search),
        "search_p50_ms": round(percentile(search, 0.5) * 1000, 1),
        "search_p95_ms": round(percentile(search, 0.95) * 1000, 1),
        "search_word_in_every_page_ms_median": round(statistics.median(common) * 1000, 1),
        "links_first_ms": round(links_first * 1000, 1),
        "links_after_one_page_change_ms": round(links_after_change * 1000, 1),
        "revisions": revisions,
        "one_page_revision_commit_ms": round(revise_s * 1000, 2),
        "content_bytes": content_after,
        "content_bytes_before_revisions": content,
        "revision_store_bytes": storage,
        "revision_store_to_content": round(storage / content_after, 2),
        "search_index_bytes": _search_bytes(grown),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 5000])
    parser.add_argument("--revisions", type=int, default=500)
    args = parser.parse_args(argv)
    runs = [asyncio.run(measure(size, args.revisions)) for size in args.sizes]
    for run in runs:
        print(
            f"{run['pages']:>5} pages: tree {run['page_tree_warm_ms_median']} ms "
            f"(cold {run['page_tree_cold_ms']}), 1 MB page md {run['page_1mb_markdown_ms_median']}"
            f" / doc {run['page_1mb_document_ms_median']} ms, search p50 {run['search_p50_ms']} "
            f"p95 {run['search_p95_ms']} ms, links after a change "
            f"{run['links_after_one_page_change_ms']} ms, store/content after "
            f"{run['revisions']} revisions {run['revision_store_to_content']}x"
        )
    result: dict[str, Any] = {"runs": runs}
    if len(runs) >= 2:
        small, large = runs[0], runs[-1]
        factor = large["pages"] / small["pages"]
        result["growth"] = {
            "pages_factor": factor,
            **{
                key: round(large[key] / small[key], 2) if small[key] else None
                for key in (
                    "page_tree_warm_ms_median",
                    "search_p50_ms",
                    "search_p95_ms",
                    "links_after_one_page_change_ms",
                    "content_bytes",
                    "revision_store_bytes",
                )
            },
        }
        print(f"growth {small['pages']} -> {large['pages']} pages: {result['growth']}")
    write_result("content", result)
    return result


if __name__ == "__main__":
    main()
