"""Hot GETs against `docdeck serve` under concurrent load from a second process.

The server runs in a subprocess on a loopback port; this process is the client:
`--concurrency` httpx connections hammer one endpoint at a time for at most
`--seconds` or `--requests`, whichever ends first. Reports requests/s and
p50/p95 latency per endpoint, and any non-200 answers.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from _harness import Server, percentile, write_result


async def _hammer(
    http: httpx.AsyncClient, path: str, *, concurrency: int, seconds: float, requests: int
) -> dict[str, Any]:
    latencies: list[float] = []
    failures: dict[str, int] = {}
    budget = requests
    deadline = time.perf_counter() + seconds

    async def worker() -> None:
        nonlocal budget
        while budget > 0 and time.perf_counter() < deadline:
            budget -= 1
            began = time.perf_counter()
            try:
                answer = await http.get(path)
                await answer.aread()
                status = str(answer.status_code)
            except httpx.HTTPError as error:
                status = type(error).__name__
            latencies.append(time.perf_counter() - began)
            if status != "200":
                failures[status] = failures.get(status, 0) + 1

    for _ in range(min(20, requests)):  # warm-up, not counted
        await http.get(path)
    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    elapsed = time.perf_counter() - started
    return {
        "requests": len(latencies),
        "seconds": round(elapsed, 3),
        "requests_per_s": round(len(latencies) / elapsed, 1),
        "p50_ms": round(percentile(latencies, 0.50) * 1000, 2),
        "p95_ms": round(percentile(latencies, 0.95) * 1000, 2),
        "max_ms": round(max(latencies) * 1000, 2),
        "failures": failures,
    }


async def _run(base_url: str, token: str, args: argparse.Namespace) -> dict[str, Any]:
    limits = httpx.Limits(
        max_connections=args.concurrency, max_keepalive_connections=args.concurrency
    )
    async with httpx.AsyncClient(
        base_url=base_url,
        headers={"Authorization": f"Bearer {token}"},
        limits=limits,
        timeout=httpx.Timeout(30),
    ) as http:
        orgs = (await http.get("/v1/orgs")).raise_for_status().json()["items"]
        org_id = orgs[0]["id"]
        spaces = (await http.get(f"/v1/orgs/{org_id}/spaces")).raise_for_status().json()["items"]
        endpoints = {
            "GET /v1/orgs": "/v1/orgs",
            "GET /v1/orgs/{org}/spaces": f"/v1/orgs/{org_id}/spaces",
            "GET /v1/spaces/{space}": f"/v1/spaces/{spaces[0]['id']}",
        }
        results = {}
        for name, path in endpoints.items():
            results[name] = await _hammer(
                http,
                path,
                concurrency=args.concurrency,
                seconds=args.seconds,
                requests=args.requests,
            )
        return results


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=5.0, help="time cap per endpoint")
    parser.add_argument("--requests", type=int, default=3000, help="request cap per endpoint")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp, Server(Path(tmp) / "bench.db") as server:
        endpoints = asyncio.run(_run(server.base_url, server.token(), args))
    print(
        f"load: hot GETs over loopback, {args.concurrency} concurrent connections, "
        f"one uvicorn worker (server in its own process)"
    )
    for name, row in endpoints.items():
        failed = f", failures {row['failures']}" if row["failures"] else ""
        print(
            f"  {name:<28} {row['requests_per_s']:>8.1f} req/s   p50 {row['p50_ms']:>6.2f} ms   "
            f"p95 {row['p95_ms']:>6.2f} ms   ({row['requests']} requests){failed}"
        )
    result = {
        "concurrency": args.concurrency,
        "seconds_cap": args.seconds,
        "requests_cap": args.requests,
        "endpoints": endpoints,
    }
    print(f"  -> {write_result('load', result)}")
    return result


if __name__ == "__main__":
    main()
