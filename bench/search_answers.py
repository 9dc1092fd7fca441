"""Search answers, byte for byte: a check that a change to search leaves every answer as it was.

A fixed list of queries (content.py's domain words, content_growth.py's 100 queries, rare
words, prefixes, no match, unicode, odd input) is asked of a generated space and of the
demo's spaces: `GET {S}/search` with every page of every answer followed by its cursor (50
a page, and 7 a page for the first pages), and `GET /v1/orgs/{O}/search`; then the same
with `MAX_PAGES` lowered to 4, so the cut at `MAX_PAGES` pages and at `MAX_PAGES * 5`
sections falls inside the answers. Each answer's bytes are hashed; the hashes are written
to `--out`. The database is built once (`--db`; page ids are random, so two builds differ)
and each run works on a copy of it, so two versions of the server see the same data:

    .venv/bin/python bench/search_answers.py --db /tmp/sa/space.db --out /tmp/sa/after.json
    PYTHONPATH=/tmp/before/src .venv/bin/python bench/search_answers.py \\
        --db /tmp/sa/space.db --out /tmp/sa/before.json
    .venv/bin/python bench/search_answers.py --compare /tmp/sa/before.json /tmp/sa/after.json
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import random
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

from content import WORDS, _generate
from content_growth import queries
from docdeck.server import create_app, ensure_demo, mint_token
from docdeck.server.search import index as full_text

ODD = [
    "",
    "   ",
    "a",
    "order",
    "Order",
    "ORDER",
    "ord",
    "o",
    "orde",
    "order customer",
    "customer order",
    "order customer webhook",
    "zzzzzz",
    "qqq nothing matches this",
    "café",
    "cafe",
    "Straße",
    "日本語",
    "🙂",
    "naïve résumé",
    '"order"',
    "order*",
    "-order",
    "order OR refund",
    "NOT order",
    "token NEAR refund",
    "(order",
    "order)",
    "'; DROP TABLE spaces; --",
    "%",
    "_",
    "ord%",
    "x" * 512,
    " ".join(["order"] * 70),
    "webhook signature",
    "refund retry",
    "api",
    "the",
]


def _queries() -> list[str]:
    rare = [w for w in queries(random.Random(11)) if " " not in w][:10]
    prefixes = [w[:3] for w in WORDS[:10]] + [w[:2] for w in WORDS[:5]]
    return list(dict.fromkeys([*WORDS, *queries(random.Random(7)), *rare, *prefixes, *ODD]))


def build(db_path: Path, pages: int) -> None:
    db_path.parent.mkdir(parents=True, exist_ok=True)
    ensure_demo(db_path)
    _generate(db_path, pages, random.Random(7))
    conn = sqlite3.connect(db_path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


async def _answers(db_path: Path, asked: list[str]) -> dict[str, str]:
    conn = sqlite3.connect(db_path)
    spaces = [r[0] for r in conn.execute("SELECT id FROM spaces ORDER BY id")]
    orgs = [r[0] for r in conn.execute("SELECT id FROM organizations ORDER BY id")]
    conn.close()
    token = mint_token(db_path, "ada@northwind.dev")
    app = create_app(db_path, public_url="http://b.test", answer_cache=False)
    out: dict[str, str] = {}
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url="http://b.test",
        headers={"Authorization": f"Bearer {token}"},
        timeout=300,
    ) as client:

        async def walk(url: str, query: str, limit: int, most: int) -> None:
            params: dict[str, Any] = {"query": query, "limit": limit}
            for n in range(most):
                response = await client.get(url, params=params)
                key = f"{url} {query!r} limit={limit} page={n}"
                out[key] = f"{response.status_code} " + hashlib.sha256(response.content).hexdigest()
                following = response.json().get("next") if response.status_code == 200 else None
                if not following:
                    return
                params = {"query": query, "limit": limit, "page": following["page"]}

        for space in spaces:
            for query in asked:
                await walk(f"/v1/spaces/{space}/search", query, 50, 1000)
                await walk(f"/v1/spaces/{space}/search", query, 7, 3)
                await walk(f"/v1/spaces/{space}/search", query, 0, 1)
        for org in orgs:
            for query in asked:
                await walk(f"/v1/orgs/{org}/search", query, 50, 5)
    return out


def run(db_path: Path, out: Path) -> dict[str, Any]:
    asked = _queries()
    answers: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for max_pages in (full_text.MAX_PAGES, 4):
            copy = Path(tmp) / f"copy-{max_pages}"
            copy.mkdir()
            for each in db_path.parent.glob(db_path.name + "*"):  # the file, its WAL, its key
                shutil.copy2(each, copy / each.name)
            saved = full_text.MAX_PAGES
            full_text.MAX_PAGES = max_pages
            try:
                found = asyncio.run(_answers(copy / db_path.name, asked))
            finally:
                full_text.MAX_PAGES = saved
            answers.update({f"MAX_PAGES={max_pages} {k}": v for k, v in found.items()})
    out.write_text(json.dumps(answers, indent=1, sort_keys=True) + "\n")
    return answers


def compare(before: Path, after: Path) -> int:
    a, b = json.loads(before.read_text()), json.loads(after.read_text())
    differ = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
    for key in differ[:20]:
        print(f"differs: {key}: {a.get(key)} -> {b.get(key)}")
    statuses = {v.split()[0] for v in a.values()}
    print(f"{len(a)} answers before, {len(b)} after (statuses {sorted(statuses)})")
    print(f"{len(differ)} differ")
    return 1 if differ else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--db", type=Path, help="the database (built if missing)")
    parser.add_argument("--pages", type=int, default=1500, help="pages of the generated space")
    parser.add_argument("--out", type=Path, help="where the answers' hashes go")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    if args.db is None or args.out is None:
        parser.error("--db and --out are needed (or --compare)")
    if not args.db.exists():
        build(args.db, args.pages)
    answers = run(args.db, args.out)
    print(f"{len(answers)} answers hashed to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
