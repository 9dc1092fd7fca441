"""CPU time per request of the hot GETs, in process: each request is sent straight into the
ASGI app (no HTTP, no client), so what is measured is the app's own work, beside the bare
one-route FastAPI app (`_bare_api.py`) measured the same way in the same run.

Usage: python bench/request_cpu.py [--repeat 5] [--requests 1000] [--profile PATH] [--members]
With `--profile`, each endpoint's requests run once more under cProfile, and the stats are
printed (sorted by own time) for PATH (an endpoint's name, e.g. `/v1/orgs`).
With `--members`, the demo's Northwind Labs is first grown to 10,000 members and 1,000 spaces
(`members.build`, as `load.py` does) and its members list (a page of 50) is measured too, as
`{O}/members`.

The app is made with `create_app(answer_cache=False)`, as `docdeck serve --no-answer-cache`
runs: every answer is made afresh, so what is measured is the request path itself.

A shared machine is noisy: the minimum over `--repeat` runs is reported, and comparing two
branches means running this on both, alternating (`--alternate OTHER_SRC` does it: OTHER_SRC
is another checkout's `src`, run in a subprocess between this checkout's runs).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import json
import os
import pstats
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _scope(path: str, token: str | None) -> dict[str, Any]:
    path_only, _, query = path.partition("?")
    headers = [(b"host", b"127.0.0.1:8080"), (b"user-agent", b"wrk"), (b"accept", b"*/*")]
    if token:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path_only,
        "raw_path": path_only.encode(),
        "root_path": "",
        "query_string": query.encode(),
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8080),
        "state": {},
    }


async def _run(app: Any, path: str, token: str | None, count: int) -> tuple[float, int]:
    """CPU seconds for `count` requests, and the last status."""
    status = 0

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    began = time.process_time()
    for _ in range(count):
        await app(_scope(path, token), receive, send)
    return time.process_time() - began, status


def _targets(db: Path, big: bool = False) -> tuple[Any, str, list[str]]:
    import httpx

    from docdeck.server import create_app, ensure_demo, mint_token

    big_org = None
    if big:
        import members

        big_org = members.build(db, members=10_000, spaces=1_000)
    accounts = ensure_demo(db)
    token = mint_token(db, accounts[0].email)
    app = create_app(db, answer_cache=False)  # the request path itself, made afresh each time

    async def first() -> tuple[str, str]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
            headers = {"Authorization": f"Bearer {token}"}
            orgs = (await http.get("/v1/orgs", headers=headers)).json()
            # the demo's first organization (Northwind Labs); with `--members` the other one,
            # as Northwind then holds 1,000 more spaces
            org = next(o["id"] for o in orgs["items"] if o["id"] != big_org)
            spaces = (await http.get(f"/v1/orgs/{org}/spaces", headers=headers)).json()
            return org, spaces["items"][0]["id"]

    org, space = asyncio.run(first())
    # the demo's API reference and portal live in Northwind Labs, which `--members` grows past
    # one page of spaces: found by title in the database
    conn = sqlite3.connect(db)
    (reference,) = conn.execute(
        "SELECT id FROM spaces WHERE title = 'Public API Reference'"
    ).fetchone()
    portal, portal_org = conn.execute(
        "SELECT id, organization_id FROM sites WHERE title = 'Developer Portal'"
    ).fetchone()
    (guide,) = conn.execute("SELECT id FROM spaces WHERE title = 'Webhooks Guide'").fetchone()
    conn.close()

    async def first_page() -> str:
        """The guide's first page with a body, as `load.py` picks it."""
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
            headers = {"Authorization": f"Bearer {token}"}
            tree = (await http.get(f"/v1/spaces/{guide}/content/pages", headers=headers)).json()
        stack = list(tree["pages"])
        while stack[0]["type"] != "document":
            stack += stack.pop(0).get("pages", [])
        return str(stack[0]["id"])

    page = asyncio.run(first_page())

    paths = [
        "/v1/orgs",
        f"/v1/orgs/{org}/spaces",
        f"/v1/spaces/{space}",
        f"/v1/spaces/{reference}/comments",
        f"/v1/orgs/{portal_org}/sites/{portal}/structure",
        f"/v1/spaces/{guide}/content/pages",
        f"/v1/spaces/{guide}/content/page/{page}?format=markdown",
        f"/v1/spaces/{guide}/change-requests/1/changes",
    ]
    if big_org is not None:
        paths.append(f"/v1/orgs/{big_org}/members")
    return app, token, paths


def measure(repeat: int, requests: int, profile: str | None, big: bool = False) -> dict[str, Any]:
    sys.path.insert(0, str(HERE))
    import _bare_api

    gc.collect()
    gc.freeze()
    with tempfile.TemporaryDirectory() as tmp:
        app, token, paths = _targets(Path(tmp) / "bench.db", big)
        gc.collect()
        gc.freeze()  # as `docdeck serve` does once the app is built
        names = [
            "bare",
            "/v1/orgs",
            "{O}/spaces",
            "{S}",
            "{S}/comments",
            "{O}/sites/{site}/structure",
            "{S}/content/pages",
            "{S}/content/page/{page}?format=markdown",
            "{S}/change-requests/{cr}/changes",
        ]
        names = [*names, "{O}/members"][: len(paths) + 1]
        plan = [(_bare_api.app, "/bare", None)] + [(app, p, token) for p in paths]
        best: dict[str, float] = {}

        async def all_runs() -> None:
            for a, p, t in plan:
                await _run(a, p, t, 200)  # warm-up
            for _ in range(repeat):
                for name, (a, p, t) in zip(names, plan, strict=True):
                    seconds, status = await _run(a, p, t, requests)
                    if status != 200:
                        raise SystemExit(f"{p}: status {status}")
                    best[name] = min(best.get(name, 1e9), seconds / requests * 1e6)

        asyncio.run(all_runs())
        if profile:
            match = [i for i, n in enumerate(names) if profile in (n, plan[i][1])]
            index = match[0] if match else names.index(profile)
            a, p, t = plan[index]
            profiler = cProfile.Profile()
            profiler.enable()
            asyncio.run(_run(a, p, t, requests))
            profiler.disable()
            pstats.Stats(profiler).sort_stats("tottime").print_stats(45)
    return {name: round(us, 1) for name, us in best.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--profile", default=None)
    parser.add_argument("--alternate", default=None, help="another checkout's src directory")
    parser.add_argument("--rounds", type=int, default=3, help="alternations with --alternate")
    parser.add_argument("--json", action="store_true", help="print one JSON line only")
    parser.add_argument(
        "--members", action="store_true", help="also a 10,000-member organization's members"
    )
    args = parser.parse_args()
    if args.alternate:
        mine = str(HERE.parent / "src")
        rows: dict[str, list[dict[str, float]]] = {"this": [], "other": []}
        for _ in range(args.rounds):
            for label, src in (("this", mine), ("other", args.alternate)):
                env = {**os.environ, "PYTHONPATH": src}
                out = subprocess.run(
                    [
                        sys.executable,
                        __file__,
                        "--json",
                        "--repeat",
                        str(args.repeat),
                        "--requests",
                        str(args.requests),
                        *(["--members"] if args.members else []),
                    ],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
                rows[label].append(json.loads(out.strip().splitlines()[-1]))
        print(f"load average {os.getloadavg()}")
        for name in rows["this"][0]:
            this = min(r[name] for r in rows["this"])
            other = min(r[name] for r in rows["other"])
            print(
                f"  {name:<12} this {this:7.1f} us   other {other:7.1f} us   "
                f"this/other {this / other:.3f}   "
                f"runs {[r[name] for r in rows['this']]} vs {[r[name] for r in rows['other']]}"
            )
        return
    result = measure(args.repeat, args.requests, args.profile, args.members)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"load average {os.getloadavg()}: CPU us per request (min of {args.repeat})")
        for name, us in result.items():
            print(f"  {name:<12} {us:7.1f} us  ({us / result['bare']:.2f}x bare)")


if __name__ == "__main__":
    main()
