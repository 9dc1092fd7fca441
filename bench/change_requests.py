"""Change requests on a generated space (500 and 5,000 pages): author N changes in one call,
list the change request's changes, update it from main and merge it, for N pages touched
(5 and 50). The times should grow with the pages touched, not with the size of the space.

Main is moved first by another change request that edits other blocks of the same pages, so
the update and the merge are real three-way merges of every touched page. The sandbox app
runs in this process (httpx ASGI transport): the figures are the server's own work.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from _harness import write_result
from content import _generate
from docdeck.server import create_app, ensure_demo, mint_token


async def _ms(call: Any) -> tuple[float, httpx.Response]:
    began = time.perf_counter()
    response = await call
    elapsed = (time.perf_counter() - began) * 1000
    assert response.status_code < 300, response.text
    return round(elapsed, 1), response


async def _page_markdown(client: httpx.AsyncClient, base: str, page: str) -> str:
    response = await client.get(f"{base}/content/page/{page}", params={"format": "markdown"})
    return str(response.json()["markdown"])


async def _round(client: httpx.AsyncClient, space: str, pages: list[str], touched: int) -> dict:
    base = f"/v1/spaces/{space}"
    chosen = pages[:touched]
    bodies = {p: await _page_markdown(client, base, p) for p in chosen}

    async def new_cr() -> str:
        created = await client.post(f"{base}/change-requests", json={"subject": "bench"})
        return f"{base}/change-requests/{created.json()['id']}"

    def edits(tag: str, first: bool) -> list[dict[str, Any]]:
        out = []
        for page, body in bodies.items():
            lines = body.split("\n\n")
            index = 0 if first else len(lines) - 1
            lines[index] = f"{lines[index]} ({tag})"
            out.append(
                {
                    "operation": "update_page",
                    "page": page,
                    "document": {"markdown": "\n\n".join(lines)},
                }
            )
        return out

    main_cr = await new_cr()
    await client.post(f"{main_cr}/content", json={"changes": edits("main", first=False)})
    cr = await new_cr()
    author_ms, _ = await _ms(client.post(f"{cr}/content", json={"changes": edits("cr", True)}))
    await _ms(client.post(f"{main_cr}/merge"))  # main moves past the change request's base
    changes_ms, listed = await _ms(client.get(f"{cr}/changes", params={"limit": 1000}))
    update_ms, updated = await _ms(client.post(f"{cr}/update"))
    merge_ms, merged = await _ms(client.post(f"{cr}/merge"))
    return {
        "pages_touched": touched,
        "author_ms": author_ms,
        "changes_ms": changes_ms,
        "changes_listed": len(listed.json()["changes"]),
        "update_ms": update_ms,
        "update_result": updated.json()["result"],
        "merge_ms": merge_ms,
        "merge_result": merged.json()["result"],
    }


async def measure(size: int, touched: list[int], seed: int = 11) -> dict[str, Any]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(tmp) / "bench.db"
        ensure_demo(db_path)
        space, ids = _generate(db_path, size, rng)
        token = mint_token(db_path, "ada@northwind.dev")
        app = create_app(db_path, public_url="http://bench.test")
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app),
            base_url="http://bench.test",
            headers={"Authorization": f"Bearer {token}"},
            timeout=300,
        ) as client:
            await client.get(f"/v1/spaces/{space}/content/pages")  # warm the snapshot
            leaves = ids[len(ids) // 2 :]
            rounds = []
            for count in touched:
                rng.shuffle(leaves)
                rounds.append(await _round(client, space, leaves, count))
    return {"pages": size, "rounds": rounds}


_TIMES = ("author_ms", "changes_ms", "update_ms", "merge_ms")


def _growth(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Ratios that answer the issue's question: each time for the most pages touched against
    the fewest (same space: should follow what changed), and for the largest space against
    the smallest (same pages touched: should stay near 1)."""
    ratios: dict[str, dict[str, float]] = {}
    lines: list[str] = []
    for run in runs:
        rounds = sorted(run["rounds"], key=lambda r: r["pages_touched"])
        if len(rounds) > 1:
            few, many = rounds[0], rounds[-1]
            key = f"{run['pages']} pages: {many['pages_touched']} vs {few['pages_touched']} touched"
            ratios[key] = {t: round(many[t] / max(few[t], 0.1), 2) for t in _TIMES}
    sizes = sorted(runs, key=lambda r: r["pages"])
    if len(sizes) > 1:
        small, large = sizes[0], sizes[-1]
        for touched in sorted({r["pages_touched"] for r in small["rounds"]}):
            a = next(r for r in small["rounds"] if r["pages_touched"] == touched)
            b = next((r for r in large["rounds"] if r["pages_touched"] == touched), None)
            if b is not None:
                key = f"{touched} touched: {large['pages']} vs {small['pages']} pages"
                ratios[key] = {t: round(b[t] / max(a[t], 0.1), 2) for t in _TIMES}
    for key, row in ratios.items():
        lines.append(f"{key}: " + ", ".join(f"{t[:-3]} {v}x" for t, v in row.items()))
    return {"ratios": ratios, "lines": lines}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 5000])
    parser.add_argument("--touched", type=int, nargs="+", default=[5, 50])
    args = parser.parse_args(argv)
    runs = [asyncio.run(measure(size, args.touched)) for size in args.sizes]
    for run in runs:
        for r in run["rounds"]:
            print(
                f"{run['pages']:>5} pages, {r['pages_touched']:>3} touched: author "
                f"{r['author_ms']} ms, changes {r['changes_ms']} ms, update {r['update_ms']} ms "
                f"({r['update_result']}), merge {r['merge_ms']} ms ({r['merge_result']})"
            )
    growth = _growth(runs)
    for line in growth["lines"]:
        print(line)
    result = {"runs": runs, "growth": growth["ratios"]}
    path = write_result("change_requests", result)
    print(f"written to {path}")
    return result


if __name__ == "__main__":
    main()
