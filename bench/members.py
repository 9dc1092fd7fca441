"""The members list of a 10,000-member, 1,000-space organization: every page, every sort.

Builds a demo database, adds 1,000 spaces and 10,000 members to Northwind Labs (one in ten a
guest holding 1-3 space grants, one in five in a team), then walks the members list page by
page through its cursor for each sort, order, role filter and page size, in process (httpx
over ASGI, no network), timing every request. The goal: any page in <= 10 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from _harness import percentile, write_result

ROLES = ["read", "read", "read", "comment", "review", "edit", "create", "admin"]


def build(db: Path, *, members: int, spaces: int) -> str:
    from docdeck.server import add_bulk_spaces, ensure_demo

    ensure_demo(db)
    conn = sqlite3.connect(db)
    org = conn.execute("SELECT id FROM organizations WHERE title = 'Northwind Labs'").fetchone()[0]
    conn.close()
    space_ids = add_bulk_spaces(db, org, spaces)
    rng = random.Random(7)
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("BEGIN")
    teams = [f"bench-team-{i:03d}" for i in range(50)]
    conn.executemany(
        "INSERT INTO teams (id, organization_id, title, created_at) VALUES (?, ?, ?, ?)",
        [(t, org, f"Bench team {t[-3:]}", "2024-01-01T00:00:00.000000Z") for t in teams],
    )
    for team in teams[:10]:
        for space in rng.sample(space_ids, 5):
            conn.execute(
                "INSERT INTO space_grants (space_id, team_id, role) VALUES (?, ?, 'read')",
                (space, team),
            )
    for index in range(members):
        user = f"bench-user-{index:05d}"
        conn.execute(
            "INSERT INTO users (id, email, display_name) VALUES (?, ?, ?)",
            (user, f"member{index:05d}@bench.example", f"Bench Member {index:05d}"),
        )
        guest = index % 10 == 0
        joined = (
            f"2024-{1 + index % 12:02d}-{1 + index % 28:02d}T{index % 24:02d}:00:00.{index:06d}Z"
        )
        seen = None if index % 3 == 0 else f"2025-0{1 + index % 9}-01T00:00:00.{index:06d}Z"
        conn.execute(
            "INSERT INTO members (organization_id, user_id, role, joined_at, last_seen_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (org, user, None if guest else rng.choice(ROLES), joined, seen),
        )
        if guest:
            for space in rng.sample(space_ids, rng.randint(1, 3)):
                conn.execute(
                    "INSERT INTO space_grants (space_id, user_id, role) VALUES (?, ?, 'edit')",
                    (space, user),
                )
        if index % 5 == 0:
            conn.execute(
                "INSERT INTO team_members (team_id, user_id, role, added_at)"
                " VALUES (?, ?, 'member', '2024-01-01T00:00:00.000000Z')",
                (rng.choice(teams), user),
            )
    conn.execute("COMMIT")
    conn.close()
    return str(org)


async def walk(
    client: httpx.AsyncClient, path: str, params: dict[str, Any]
) -> tuple[list[float], list[float]]:
    """Every page of the list, following `next.page`: the wall time and the CPU time of each
    request. Server and client share this one thread, so the CPU time is the server's work
    plus the small share of httpx; on a busy machine it is the steadier figure."""
    times: list[float] = []
    cpu: list[float] = []
    page: str | None = None
    while True:
        query = dict(params) | ({"page": page} if page else {})
        began, began_cpu = time.perf_counter(), time.thread_time()
        response = await client.get(path, params=query)
        times.append(time.perf_counter() - began)
        cpu.append(time.thread_time() - began_cpu)
        response.raise_for_status()
        body = response.json()
        page = (body.get("next") or {}).get("page")
        if page is None:
            return times, cpu


def _row(times: list[float], cpu: list[float]) -> dict[str, Any]:
    return {
        "pages": len(times),
        "p50_ms": round(percentile(times, 0.5) * 1000, 2),
        "max_ms": round(max(times) * 1000, 2),
        "cpu_p50_ms": round(percentile(cpu, 0.5) * 1000, 2),
        "cpu_max_ms": round(max(cpu) * 1000, 2),
    }


async def run(db: Path, org: str, token: str, *, quick: bool) -> dict[str, Any]:
    from docdeck.server import create_app

    # Every page made afresh: the goal is the request path's, not the answer cache's.
    app = create_app(db, answer_cache=False)
    gc.freeze()  # as `docdeck serve` does once the app is built
    transport = httpx.ASGITransport(app=app)
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(transport=transport, base_url="http://b", headers=headers) as c:
        path = f"/v1/orgs/{org}/members"
        await c.get(path)  # warm-up: token cache, statement cache
        results: dict[str, Any] = {}
        sorts = (
            [("joinedAt", "desc")]
            if quick
            else [(sort, order) for sort in ("joinedAt", "lastSeenAt") for order in ("desc", "asc")]
        )
        for limit in (50, 100, 1000):
            for sort, order in sorts:
                for role in (None,) if quick else (None, "guest", "admin"):
                    params: dict[str, Any] = {"limit": limit, "sort": sort, "order": order}
                    if role:
                        params["role"] = role
                    name = f"limit={limit} sort={sort} order={order} role={role or 'any'}"
                    results[name] = _row(*await walk(c, path, params))
        times, cpu = [], []
        for text in ("member 0", "bench.example", "nobody"):
            began, began_cpu = time.perf_counter(), time.thread_time()
            (await c.get(path, params={"search": text, "limit": 100})).raise_for_status()
            times.append(time.perf_counter() - began)
            cpu.append(time.thread_time() - began_cpu)
        results["search (limit=100, 3 queries)"] = _row(times, cpu)
    return results


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--members", type=int, default=10_000)
    parser.add_argument("--spaces", type=int, default=1_000)
    parser.add_argument("--quick", action="store_true", help="only the default sort")
    parser.add_argument("--name", default="members", help="result file name")
    args = parser.parse_args(argv)
    from docdeck.server import ensure_demo, mint_token

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "members.db"
        began = time.perf_counter()
        org = build(db, members=args.members, spaces=args.spaces)
        built = time.perf_counter() - began
        token = mint_token(db, ensure_demo(db)[0].email)
        lists = asyncio.run(run(db, org, token, quick=args.quick))
    pages = {name: row for name, row in lists.items() if not name.startswith("search")}
    worst = max(row["max_ms"] for row in pages.values())
    worst_cpu = max(row["cpu_max_ms"] for row in pages.values())
    worst_100 = max(row["max_ms"] for name, row in pages.items() if "limit=1000" not in name)
    print(
        f"members: {args.members} members, {args.spaces} spaces in one organization "
        f"(built in {built:.1f} s); every page of every sort, in process"
    )
    for name, row in lists.items():
        print(
            f"  {name:<48} {row['pages']:>4} pages  wall p50 {row['p50_ms']:>7.2f} "
            f"max {row['max_ms']:>7.2f} ms   cpu p50 {row['cpu_p50_ms']:>6.2f} "
            f"max {row['cpu_max_ms']:>6.2f} ms"
        )
    print(
        f"  slowest page: {worst:.2f} ms wall, {worst_cpu:.2f} ms CPU; slowest page of "
        f"<= 100 rows: {worst_100:.2f} ms wall (goal: any page <= 10 ms)"
    )
    result = {
        "members": args.members,
        "spaces": args.spaces,
        "load_average_1min": os.getloadavg()[0],
        "slowest_page_ms": worst,
        "slowest_page_cpu_ms": worst_cpu,
        "slowest_page_up_to_100_rows_ms": worst_100,
        "lists": lists,
    }
    print(f"  -> {write_result(args.name, result)}")
    return result


if __name__ == "__main__":
    main()
