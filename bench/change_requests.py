"""Change requests on a generated space (500 and 5,000 pages): author N changes in one call,
list the change request's changes, update it from main and merge it, for N pages touched
(5 and 50). The times should grow with the pages touched, not with the size of the space
(issue 29's goal: merging 5 pages into 5,000 costs <= 1.5x the same in 500). `--repeat N`
runs N rounds of each, alternating the sizes, and the ratios are of the medians.

Main is moved first by another change request that edits other blocks of the same pages, so
the update and the merge are real three-way merges of every touched page. The sandbox app
runs in this process (httpx ASGI transport): the figures are the server's own work.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
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


async def _round(
    client: httpx.AsyncClient, space: str, pages: list[str], touched: int
) -> dict[str, Any]:
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


async def measure(
    sizes: list[int], touched: list[int], repeat: int = 1, seed: int = 11
) -> list[dict[str, Any]]:
    """Every size's space is built first; then the rounds alternate between the sizes
    (500, 5,000, 500, ...), so a machine getting busier or quieter moves both sides."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        spaces: list[tuple[int, str, list[str], httpx.AsyncClient, list[dict[str, Any]]]] = []
        for size in sizes:
            db_path = Path(tmp) / f"bench-{size}.db"
            ensure_demo(db_path)
            space, ids = _generate(db_path, size, rng)
            token = mint_token(db_path, "ada@northwind.dev")
            app = create_app(db_path, public_url="http://bench.test")
            client = httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app),
                base_url="http://bench.test",
                headers={"Authorization": f"Bearer {token}"},
                timeout=300,
            )
            await client.get(f"/v1/spaces/{space}/content/pages")  # warm the snapshot
            spaces.append((size, space, ids[len(ids) // 2 :], client, []))
        try:
            for _ in range(repeat):
                for count in touched:
                    for _size, space, leaves, client, rounds in spaces:
                        rng.shuffle(leaves)
                        rounds.append(await _round(client, space, leaves, count))
        finally:
            for *_, client, _ in spaces:
                await client.aclose()
    return [{"pages": size, "rounds": rounds} for size, _, _, _, rounds in spaces]


_TIMES = ("author_ms", "changes_ms", "update_ms", "merge_ms")


def _median_round(rounds: list[dict[str, Any]], touched: int) -> dict[str, Any] | None:
    """Each time's median over the rounds with `touched` pages touched."""
    same = [r for r in rounds if r["pages_touched"] == touched]
    if not same:
        return None
    return {t: statistics.median(r[t] for r in same) for t in _TIMES}


def _growth(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Ratios that answer the issue's question: each time (the median of the rounds) for the
    most pages touched against the fewest (same space: should follow what changed), and for
    the largest space against the smallest (same pages touched: should stay near 1)."""
    ratios: dict[str, dict[str, float]] = {}
    lines: list[str] = []
    for run in runs:
        counts = sorted({r["pages_touched"] for r in run["rounds"]})
        if len(counts) > 1:
            few, many = (
                _median_round(run["rounds"], counts[0]),
                _median_round(run["rounds"], counts[-1]),
            )
            assert few is not None and many is not None
            key = f"{run['pages']} pages: {counts[-1]} vs {counts[0]} touched"
            ratios[key] = {t: round(many[t] / max(few[t], 0.1), 2) for t in _TIMES}
    sizes = sorted(runs, key=lambda r: r["pages"])
    if len(sizes) > 1:
        small, large = sizes[0], sizes[-1]
        for touched in sorted({r["pages_touched"] for r in small["rounds"]}):
            a = _median_round(small["rounds"], touched)
            b = _median_round(large["rounds"], touched)
            if a is not None and b is not None:
                key = f"{touched} touched: {large['pages']} vs {small['pages']} pages"
                ratios[key] = {t: round(b[t] / max(a[t], 0.1), 2) for t in _TIMES}
    for key, row in ratios.items():
        lines.append(f"{key}: " + ", ".join(f"{t[:-3]} {v}x" for t, v in row.items()))
    return {"ratios": ratios, "lines": lines}


def _paired_merge_ratios(runs: list[dict[str, Any]]) -> dict[int, list[float]]:
    """The largest space's merge time over the smallest's, round by round: the two ran one
    after the other, so each ratio saw the same machine load."""
    sizes = sorted(runs, key=lambda r: r["pages"])
    if len(sizes) < 2:
        return {}
    out: dict[int, list[float]] = {}
    for small, large in zip(sizes[0]["rounds"], sizes[-1]["rounds"], strict=True):
        out.setdefault(small["pages_touched"], []).append(
            round(large["merge_ms"] / max(small["merge_ms"], 0.1), 2)
        )
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 5000])
    parser.add_argument("--touched", type=int, nargs="+", default=[5, 50])
    parser.add_argument("--repeat", type=int, default=1, help="rounds per size and count")
    parser.add_argument("--name", default="change_requests", help="result file name")
    args = parser.parse_args(argv)
    runs = asyncio.run(measure(args.sizes, args.touched, args.repeat))
    for run in runs:
        for r in run["rounds"]:
            print(
                f"{run['pages']:>5} pages, {r['pages_touched']:>3} touched: author "
                f"{r['author_ms']} ms, changes {r['changes_ms']} ms, update {r['update_ms']} ms "
                f"({r['update_result']}), merge {r['merge_ms']} ms ({r['merge_result']})"
            )
    for run in runs:
        for touched in sorted({r["pages_touched"] for r in run["rounds"]}):
            merges = [r["merge_ms"] for r in run["rounds"] if r["pages_touched"] == touched]
            print(
                f"{run['pages']:>5} pages, {touched:>3} touched: merge min {min(merges)} ms,"
                f" median {statistics.median(merges)} ms over {len(merges)} rounds"
            )
    paired = _paired_merge_ratios(runs)
    for touched, ratios in paired.items():
        print(
            f"merge of {touched} touched, round by round (sizes alternated): median "
            f"{statistics.median(ratios):.2f}x, min {min(ratios):.2f}x, max {max(ratios):.2f}x"
        )
    growth = _growth(runs)
    for line in growth["lines"]:
        print(line)
    load = os.getloadavg()[0]
    print(f"load average {load:.1f}")
    result = {
        "runs": runs,
        "growth": growth["ratios"],
        "merge_paired_ratios": paired,
        "goal": "merge of 5 pages: 5,000 vs 500 pages <= 1.5x",
        "load_average_1min": load,
    }
    path = write_result(args.name, result)
    print(f"written to {path}")
    return result


if __name__ == "__main__":
    main()
