"""Comments under load: list a space's threads (every page, markdown and document bodies), post
comments and replies, and react, with many requests in flight at once.

A space is seeded with `--threads` comments (each with two replies and reactions) through the
API itself, in concurrent batches, so the seeding is the "post under concurrency" figure. Then:
walking every page of the space's threads at limit 100 (markdown and `format=document`), one
thread read, and 50 concurrent reactions on one thread by five users (each adding ten emoji),
whose final counts are checked exact. The sandbox runs in this process (httpx ASGI transport,
sync routes in the thread pool as under `docdeck serve`): the figures are the server's own
work. The load average is recorded before and after, since the machine is shared.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from _harness import write_result
from docdeck.server import create_app, ensure_demo, mint_token

USERS = [
    "ada@northwind.dev",
    "bruno@northwind.dev",
    "chen@northwind.dev",
    "dana@northwind.dev",
    "emeka@northwind.dev",
]
EMOJI = ["👍", "🎉", "❤️", "🚀", "👀", "😄", "🙏", "🔥", "✅", "💡"]
SPACE_TITLE = "Webhooks Guide"


def _summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "n": len(ordered),
        "p50_ms": round(statistics.median(ordered), 1),
        "p95_ms": round(ordered[max(0, int(len(ordered) * 0.95) - 1)], 1),
        "max_ms": round(ordered[-1], 1),
    }


async def _timed(call: Any, times: list[float]) -> httpx.Response:
    began = time.perf_counter()
    response = await call
    times.append((time.perf_counter() - began) * 1000)
    assert response.status_code < 300, response.text
    return response  # type: ignore[no-any-return]


async def _space_id(client: httpx.AsyncClient) -> str:
    orgs = (await client.get("/v1/orgs")).json()["items"]
    for org in orgs:
        spaces = (await client.get(f"/v1/orgs/{org['id']}/spaces", params={"limit": 1000})).json()
        for space in spaces["items"]:
            if space["title"] == SPACE_TITLE:
                return str(space["id"])
    raise SystemExit(f"no {SPACE_TITLE!r} in the demo")


async def _seed(
    clients: list[httpx.AsyncClient], base: str, threads: int, concurrency: int
) -> dict[str, Any]:
    post_times: list[float] = []
    reply_times: list[float] = []
    react_times: list[float] = []
    gate = asyncio.Semaphore(concurrency)

    async def one(index: int) -> None:
        async with gate:
            who = clients[index % len(clients)]
            body = {
                "body": {
                    "markdown": f"Thread {index}: is **this** right? `code` [l](https://x.dev)"
                }
            }
            made = await _timed(who.post(base, json=body), post_times)
            url = f"{base}/{made.json()['id']}"
            for offset in (1, 2):
                replier = clients[(index + offset) % len(clients)]
                reply = {"body": {"markdown": f"Reply {offset} to {index}"}}
                await _timed(replier.post(f"{url}/replies", json=reply), reply_times)
            reaction = {"addedReactions": [EMOJI[index % len(EMOJI)]]}
            await _timed(clients[(index + 3) % len(clients)].put(url, json=reaction), react_times)

    began = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(threads)))
    wall = time.perf_counter() - began
    writes = len(post_times) + len(reply_times) + len(react_times)
    return {
        "threads": threads,
        "concurrency": concurrency,
        "post": _summary(post_times),
        "reply": _summary(reply_times),
        "react": _summary(react_times),
        "writes_per_s": round(writes / wall, 1),
    }


async def _walk(client: httpx.AsyncClient, base: str, body_format: str | None) -> dict[str, Any]:
    times: list[float] = []
    params: dict[str, Any] = {"limit": 100}
    if body_format:
        params["format"] = body_format
    seen = 0
    while True:
        page = (await _timed(client.get(base, params=params), times)).json()
        seen += len(page["items"])
        following = (page.get("next") or {}).get("page")
        if not following:
            break
        params["page"] = following
    return {"format": body_format or "markdown", "items": seen, **_summary(times)}


async def _concurrent_reactions(clients: list[httpx.AsyncClient], base: str) -> dict[str, Any]:
    thread = (await clients[0].post(base, json={"body": {"markdown": "react here"}})).json()
    url = f"{base}/{thread['id']}"
    times: list[float] = []
    calls = [
        _timed(client.put(url, json={"addedReactions": [emoji]}), times)
        for client in clients
        for emoji in EMOJI
    ]
    began = time.perf_counter()
    await asyncio.gather(*calls)
    wall = time.perf_counter() - began
    reactions = (await clients[0].get(url)).json()["reactions"]
    counts = {r["emoji"]: r["count"] for r in reactions}
    exact = counts == dict.fromkeys(EMOJI, len(clients))
    return {
        "in_flight": len(calls),
        "wall_ms": round(wall * 1000, 1),
        "exact": exact,
        **_summary(times),
    }


async def measure(threads: int, concurrency: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(tmp) / "bench.db"
        ensure_demo(db_path)
        tokens = [mint_token(db_path, email) for email in USERS]
        app = create_app(db_path, public_url="http://bench.test")
        transport = httpx.ASGITransport(app=app)
        clients = [
            httpx.AsyncClient(
                transport=transport,
                base_url="http://bench.test",
                headers={"Authorization": f"Bearer {token}"},
                timeout=300,
            )
            for token in tokens
        ]
        try:
            space = await _space_id(clients[0])
            base = f"/v1/spaces/{space}/comments"
            seeded = await _seed(clients, base, threads, concurrency)
            listing = [
                await _walk(clients[2], base, None),
                await _walk(clients[2], base, "document"),
            ]
            read_times: list[float] = []
            first = (await clients[2].get(base, params={"limit": 1})).json()["items"][0]["id"]
            for _ in range(20):
                await _timed(clients[2].get(f"{base}/{first}/replies"), read_times)
            reactions = await _concurrent_reactions(clients, base)
        finally:
            for client in clients:
                await client.aclose()
    return {
        "seed": seeded,
        "list": listing,
        "replies_of_one_thread": _summary(read_times),
        "concurrent_reactions": reactions,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=500)
    parser.add_argument("--concurrency", type=int, default=16)
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    run = asyncio.run(measure(args.threads, args.concurrency))
    load_after = os.getloadavg()
    run["load_average"] = {
        "before": [round(x, 2) for x in load_before],
        "after": [round(x, 2) for x in load_after],
    }
    seed = run["seed"]
    print(
        f"seeded {seed['threads']} threads at {seed['concurrency']} in flight: post p50 "
        f"{seed['post']['p50_ms']} ms p95 {seed['post']['p95_ms']} ms, reply p50 "
        f"{seed['reply']['p50_ms']} ms, react p50 {seed['react']['p50_ms']} ms, "
        f"{seed['writes_per_s']} writes/s"
    )
    for walk in run["list"]:
        print(
            f"list ({walk['format']}): {walk['items']} threads in {walk['n']} pages of 100, "
            f"p50 {walk['p50_ms']} ms, p95 {walk['p95_ms']} ms, max {walk['max_ms']} ms"
        )
    reacted = run["concurrent_reactions"]
    print(
        f"{reacted['in_flight']} reactions in flight on one thread: {reacted['wall_ms']} ms, "
        f"p95 {reacted['p95_ms']} ms, counts exact: {reacted['exact']}"
    )
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f}")
    path = write_result("comments", run)
    print(f"written to {path}")
    return run


if __name__ == "__main__":
    main()
