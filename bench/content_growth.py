"""What a space's size costs: link analysis after a one-page change and search, in a
generated space of 5,000 pages against the same in one of 500 (issue 29's goals: links
<= 2x, search p95 <= 3x), the sizes alternated round by round.

Both spaces are built first with `content.py`'s generator (realistic pages in three levels,
links to other pages, a few broken). Each round, for each size in turn: one page is changed
(as `content.py` does it: a new body, new headings), then `GET {S}/links?limit=50` is timed;
then the same 100 queries as `content.py`'s (one to three words, prefixes, odd input) are
timed on `GET {S}/search`. The ratios are of the medians (links) and of the p95 over every
round's queries (search), and also taken round by round, where both sizes saw the same load.
The sandbox app runs in this process (httpx ASGI transport; what is built before the first
request is frozen out of the garbage collector's walks, as `docdeck serve` does): the
figures are the server's own work, not the network's.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from _harness import percentile, write_result
from content import VOCABULARY, WORDS, _generate, _revise
from docdeck.server import create_app, ensure_demo, mint_token


def queries(rng: random.Random) -> list[str]:
    """`content.py`'s queries: what people type, then odd input."""
    middle = VOCABULARY[20:2000]
    found = [" ".join(rng.sample(middle, rng.choice((1, 1, 2, 3)))) for _ in range(90)]
    found += [w[:4] for w in rng.sample(middle, 5)]
    found += ['"quoted phrase', "NEAR(order", "🙂 emoji", "order AND", "x" * 512]
    return found


async def _ms(client: httpx.AsyncClient, url: str, **params: Any) -> float:
    began = time.perf_counter()
    response = await client.get(url, params=params)
    elapsed = (time.perf_counter() - began) * 1000
    assert response.status_code == 200, response.text[:300]
    return elapsed


async def measure(sizes: list[int], rounds: int, seed: int = 7) -> dict[str, Any]:
    rng = random.Random(seed)
    asked = queries(random.Random(seed))
    spaces: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            db_path = Path(tmp) / f"growth-{size}.db"
            ensure_demo(db_path)
            space, ids = _generate(db_path, size, rng)
            token = mint_token(db_path, "ada@northwind.dev")
            client = httpx.AsyncClient(
                transport=httpx.ASGITransport(app=create_app(db_path, public_url="http://b.test")),
                base_url="http://b.test",
                headers={"Authorization": f"Bearer {token}"},
                timeout=300,
            )
            gc.freeze()  # as `docdeck serve` does once the app is built
            base = f"/v1/spaces/{space}"
            await _ms(client, base + "/links", limit=50)  # the first analysis, kept in memory
            await _ms(client, base + "/search", query=WORDS[0])
            spaces.append({"size": size, "db": db_path, "space": space, "ids": ids, "c": client})
        links: dict[int, list[float]] = {size: [] for size in sizes}
        search: dict[int, list[list[float]]] = {size: [] for size in sizes}
        try:
            for _ in range(rounds):
                for s in spaces:
                    _revise(s["db"], s["space"], s["ids"], 1, rng)
                    base = f"/v1/spaces/{s['space']}"
                    links[s["size"]].append(await _ms(s["c"], base + "/links", limit=50))
                    search[s["size"]].append(
                        [await _ms(s["c"], base + "/search", query=q) for q in asked]
                    )
        finally:
            for s in spaces:
                await s["c"].aclose()
    small, large = sizes[0], sizes[-1]
    every = {size: [t for one in search[size] for t in one] for size in sizes}
    return {
        "sizes": sizes,
        "rounds": rounds,
        "queries": len(asked),
        "links_after_one_page_change_ms": {
            size: [round(t, 2) for t in links[size]] for size in sizes
        },
        "links_median_ms": {size: round(statistics.median(links[size]), 2) for size in sizes},
        "links_ratio_of_medians": round(
            statistics.median(links[large]) / statistics.median(links[small]), 2
        ),
        "links_ratios_round_by_round": [
            round(b / a, 2) for a, b in zip(links[small], links[large], strict=True)
        ],
        "search_p50_ms": {size: round(percentile(every[size], 0.5), 2) for size in sizes},
        "search_p95_ms": {size: round(percentile(every[size], 0.95), 2) for size in sizes},
        "search_p95_ratio": round(
            percentile(every[large], 0.95) / percentile(every[small], 0.95), 2
        ),
        "search_p95_ratios_round_by_round": [
            round(percentile(b, 0.95) / percentile(a, 0.95), 2)
            for a, b in zip(search[small], search[large], strict=True)
        ],
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs=2, default=[500, 5000])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--name", default="content_growth", help="result file name")
    args = parser.parse_args(argv)
    before = os.getloadavg()[0]
    result = asyncio.run(measure(args.sizes, args.rounds))
    result["load_average_1min"] = {"before": round(before, 2), "after": os.getloadavg()[0]}
    result["goals"] = {"links_ratio": 2.0, "search_p95_ratio": 3.0}
    small, large = args.sizes
    print(
        f"links after a one-page change: {large} pages {result['links_median_ms'][large]} ms, "
        f"{small} pages {result['links_median_ms'][small]} ms (medians of {args.rounds}): "
        f"{result['links_ratio_of_medians']}x (goal <= 2x); round by round "
        f"{result['links_ratios_round_by_round']}"
    )
    print(
        f"search p95: {large} pages {result['search_p95_ms'][large]} ms, {small} pages "
        f"{result['search_p95_ms'][small]} ms: {result['search_p95_ratio']}x (goal <= 3x); "
        f"round by round {result['search_p95_ratios_round_by_round']}"
    )
    print(f"load average {result['load_average_1min']}")
    path = write_result(args.name, result)
    print(f"written to {path}")
    return result


if __name__ == "__main__":
    main()
