"""Hot GETs of `docdeck serve` beside a one-route bare FastAPI app, in the same run.

The load generator is wrk (`apt-get install wrk`), written in C, so the client is not the
bottleneck (the previous Python client saw 264-466 req/s where wrk sees 650-1,300). Without
wrk, several Python client processes stand in, and the report says so.

Each endpoint's run is preceded by a run of the bare app (`_bare_api.py`, same uvicorn
settings) and the last one followed by one; an endpoint is compared with the mean of the bare
runs on either side of it, so a machine that gets busier or quieter during the bench moves both
sides of each ratio. Reported per endpoint: requests/s and p50/p99 latency, each as a ratio to
the bare app, and the server's CPU time per request (from /proc), also as a ratio. Endpoints:
the three hot GETs on the demo, three content reads of the demo's guide (its page tree, a page
as markdown, its change request #1's changes), the threads of the demo's API reference, the
structure of its developer portal site, and the members list of a 10,000-member,
1,000-space organization (bench/members.py builds it); each twice, from a server that keeps
answers while the database is unchanged (`server/http/answer_cache.py`, what wrk's repeated
GET meets) and from one started with `--no-answer-cache` (every answer made afresh, as after a
write). `--only WORD...` keeps the endpoints whose name holds a word, `--no-fresh` the first
server only.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from _harness import PYTHON, BenchError, Server, percentile, write_result

BARE = "bare FastAPI (1 route)"
_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0}


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _ms(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", text).groups()  # type: ignore[union-attr]
    return float(number) * _UNITS[unit]


def _wrk(url: str, token: str | None, args: argparse.Namespace) -> dict[str, Any]:
    command = ["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{args.seconds}s"]
    command += ["--latency", "--timeout", "10s", url]
    if token:
        command += ["-H", f"Authorization: Bearer {token}"]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    latency = dict(re.findall(r"^ +(50|75|90|99)% +(\S+) *$", out, re.MULTILINE))
    if "99" not in latency:
        raise BenchError(f"unexpected wrk output:\n{out}")
    requests = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    failed = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    return {
        "requests": requests,
        "requests_per_s": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),  # type: ignore[union-attr]
        "p50_ms": _ms(latency["50"]),
        "p99_ms": _ms(latency["99"]),
        "non_2xx": int(failed.group(1)) if failed else 0,
        "socket_errors": errors.group(1) if errors else "",
    }


def _python_client(url: str, token: str | None, seconds: float, connections: int) -> list[float]:
    async def run() -> list[float]:
        latencies: list[float] = []
        deadline = time.perf_counter() + seconds
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        limits = httpx.Limits(max_connections=connections)
        async with httpx.AsyncClient(headers=headers, limits=limits, timeout=30) as http:

            async def worker() -> None:
                while time.perf_counter() < deadline:
                    began = time.perf_counter()
                    (await http.get(url)).raise_for_status()
                    latencies.append(time.perf_counter() - began)

            await asyncio.gather(*(worker() for _ in range(connections)))
        return latencies

    return asyncio.run(run())


def _python_clients(url: str, token: str | None, args: argparse.Namespace) -> dict[str, Any]:
    """Stand-in for wrk: `--threads` client processes sharing `--connections`."""
    share = max(1, args.connections // args.threads)
    with multiprocessing.Pool(args.threads) as pool:
        parts = pool.starmap(_python_client, [(url, token, args.seconds, share)] * args.threads)
    latencies = [x for part in parts for x in part]
    return {
        "requests": len(latencies),
        "requests_per_s": len(latencies) / args.seconds,
        "p50_ms": percentile(latencies, 0.5) * 1000,
        "p99_ms": percentile(latencies, 0.99) * 1000,
        "non_2xx": 0,
        "socket_errors": "",
    }


def _measure(url: str, token: str | None, pid: int, args: argparse.Namespace) -> dict[str, Any]:
    before = _cpu_seconds(pid)
    result = _wrk(url, token, args) if args.client == "wrk" else _python_clients(url, token, args)
    result["server_cpu_us_per_request"] = (
        (_cpu_seconds(pid) - before) / max(1, result["requests"]) * 1e6
    )
    return result


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class BareApp:
    def __init__(self) -> None:
        self.port = _free_port()
        script = Path(__file__).with_name("_bare_api.py")
        self.process = subprocess.Popen(
            [PYTHON, str(script), str(self.port)], stdout=subprocess.PIPE, text=True
        )
        assert self.process.stdout is not None
        if self.process.stdout.readline().strip() != "ready":
            self.process.kill()
            raise BenchError("the bare FastAPI app did not start")
        self.url = f"http://127.0.0.1:{self.port}/bare"

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=15)


def _targets(
    server: Server, big: Server, big_org: str, label: str = ""
) -> list[tuple[str, Server, str, str]]:
    token = server.token()
    headers = {"Authorization": f"Bearer {token}"}
    orgs = httpx.get(f"{server.base_url}/v1/orgs", headers=headers).raise_for_status().json()
    org_id = orgs["items"][0]["id"]
    spaces_url = f"{server.base_url}/v1/orgs/{org_id}/spaces"
    spaces = httpx.get(spaces_url, headers=headers).raise_for_status().json()["items"]
    space_url = f"{server.base_url}/v1/spaces/{spaces[0]['id']}"
    # The demo's guide: its first page with a body, and its change request #1.
    guide = next(s["id"] for s in spaces if s["title"] == "Webhooks Guide")
    guide_url = f"{server.base_url}/v1/spaces/{guide}"
    tree = httpx.get(f"{guide_url}/content/pages", headers=headers).raise_for_status().json()
    stack = list(tree["pages"])
    while stack[0]["type"] != "document":
        stack += stack.pop(0).get("pages", [])
    page = stack[0]["id"]
    # The demo's space with the most threads, and its site with the most structure.
    reference = next(s["id"] for s in spaces if s["title"] == "Public API Reference")
    sites_url = f"{server.base_url}/v1/orgs/{org_id}/sites"
    sites = httpx.get(sites_url, headers=headers).raise_for_status().json()["items"]
    portal = next(s["id"] for s in sites if s["title"] == "Developer Portal")
    return [
        (f"GET /v1/orgs{label}", server, token, f"{server.base_url}/v1/orgs"),
        (f"GET /v1/orgs/{{org}}/spaces{label}", server, token, spaces_url),
        (f"GET /v1/spaces/{{space}}{label}", server, token, space_url),
        (f"GET {{S}}/content/pages{label}", server, token, f"{guide_url}/content/pages"),
        (
            f"GET {{S}}/content/page/{{page}}?format=markdown{label}",
            server,
            token,
            f"{guide_url}/content/page/{page}?format=markdown",
        ),
        (
            f"GET {{S}}/change-requests/{{cr}}/changes{label}",
            server,
            token,
            f"{guide_url}/change-requests/1/changes",
        ),
        (
            f"GET {{S}}/comments{label}",
            server,
            token,
            f"{server.base_url}/v1/spaces/{reference}/comments",
        ),
        (
            f"GET {{org}}/sites/{{site}}/structure{label}",
            server,
            token,
            f"{sites_url}/{portal}/structure",
        ),
        (
            f"GET {{org}}/members (10,000 members, 1,000 spaces){label}",
            big,
            big.token(),
            f"{big.base_url}/v1/orgs/{big_org}/members",
        ),
    ]


def _median(rows: list[dict[str, Any]], key: str) -> float:
    return float(statistics.median(row[key] for row in rows))


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=int, default=5, help="length of each run")
    parser.add_argument("--rounds", type=int, default=2, help="runs per endpoint")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads")
    parser.add_argument("--connections", type=int, default=32, help="wrk connections")
    parser.add_argument("--client", choices=("wrk", "python"), default=None)
    parser.add_argument("--name", default="load", help="result file name")
    parser.add_argument(
        "--only",
        nargs="*",
        default=None,
        help="measure only the endpoints whose name contains one of these (e.g. content changes)",
    )
    parser.add_argument(
        "--no-fresh", action="store_true", help="skip the servers with the answer cache off"
    )
    args = parser.parse_args(argv)
    args.client = args.client or ("wrk" if shutil.which("wrk") else "python")
    if args.client == "python":
        print("load: wrk not found; Python client processes stand in (they saturate first)")
    import members

    runs: dict[str, list[dict[str, Any]]] = {}
    bare_runs: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        big_db = Path(tmp) / "big.db"
        big_org = members.build(big_db, members=10_000, spaces=1_000)
        bare = BareApp()
        try:
            # The same GETs with the answer cache off (`serve --no-answer-cache`): what a
            # request costs when it is made afresh, e.g. the first after any write.
            big_fresh_db = Path(tmp) / "big-fresh.db"
            shutil.copyfile(big_db, big_fresh_db)
            fresh = ("--no-answer-cache",)
            with (
                Server(Path(tmp) / "bench.db") as server,
                Server(big_db, demo=False) as big,
                Server(Path(tmp) / "bench-fresh.db", options=fresh) as server_fresh,
                Server(big_fresh_db, demo=False, options=fresh) as big_fresh,
            ):
                targets = _targets(server, big, big_org)
                if not args.no_fresh:
                    targets += _targets(server_fresh, big_fresh, big_org, " [cache off]")
                if args.only:
                    targets = [t for t in targets if any(word in t[0] for word in args.only)]
                httpx.get(bare.url)  # warm-up, not counted
                for _, _, token, url in targets:
                    httpx.get(url, headers={"Authorization": f"Bearer {token}"})
                for started in (server, big, server_fresh, big_fresh):
                    # The routes built just after start-up (and the demo content loaded
                    # with them) would otherwise land in the first measured run.
                    httpx.get(f"{started.base_url}/openapi.json", timeout=60)
                for _ in range(args.rounds):
                    for name, owner, token, url in targets:
                        bare_runs.append(_measure(bare.url, None, bare.process.pid, args))
                        runs.setdefault(name, []).append(
                            _measure(url, token, owner.process.pid, args)
                        )
                        runs[name][-1]["bare_index"] = len(bare_runs) - 1
                bare_runs.append(_measure(bare.url, None, bare.process.pid, args))
        finally:
            bare.stop()

    endpoints: dict[str, Any] = {}
    for name, rows in runs.items():
        pairs = [(bare_runs[r["bare_index"]], bare_runs[r["bare_index"] + 1]) for r in rows]
        ratio = [
            r["requests_per_s"] / ((a["requests_per_s"] + b["requests_per_s"]) / 2)
            for r, (a, b) in zip(rows, pairs, strict=True)
        ]
        p99 = [
            r["p99_ms"] / ((a["p99_ms"] + b["p99_ms"]) / 2)
            for r, (a, b) in zip(rows, pairs, strict=True)
        ]
        cpu = [
            r["server_cpu_us_per_request"]
            / ((a["server_cpu_us_per_request"] + b["server_cpu_us_per_request"]) / 2)
            for r, (a, b) in zip(rows, pairs, strict=True)
        ]
        endpoints[name] = {
            "requests_per_s": round(_median(rows, "requests_per_s"), 1),
            "p50_ms": round(_median(rows, "p50_ms"), 2),
            "p99_ms": round(_median(rows, "p99_ms"), 2),
            "server_cpu_us_per_request": round(_median(rows, "server_cpu_us_per_request"), 1),
            "ratio_requests_per_s_to_bare": round(statistics.median(ratio), 3),
            "ratio_p99_to_bare": round(statistics.median(p99), 3),
            "ratio_cpu_per_request_to_bare": round(statistics.median(cpu), 3),
            "non_2xx": sum(r["non_2xx"] for r in rows),
            "runs": rows,
        }
    bare_summary = {
        "requests_per_s": round(_median(bare_runs, "requests_per_s"), 1),
        "p50_ms": round(_median(bare_runs, "p50_ms"), 2),
        "p99_ms": round(_median(bare_runs, "p99_ms"), 2),
        "server_cpu_us_per_request": round(_median(bare_runs, "server_cpu_us_per_request"), 1),
        "runs": bare_runs,
    }
    extras = [m for m in ("uvloop", "httptools") if _importable(m)]
    print(
        f"load: {args.client} ({args.threads} threads, {args.connections} connections, "
        f"{args.seconds} s runs, {args.rounds} rounds), one uvicorn worker each, "
        f"uvicorn extras: {', '.join(extras) or 'none'}; load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"  {BARE:<62} {bare_summary['requests_per_s']:>8.0f} req/s  "
        f"p50 {bare_summary['p50_ms']:>6.2f}  p99 {bare_summary['p99_ms']:>6.2f} ms  "
        f"cpu {bare_summary['server_cpu_us_per_request']:>6.0f} us/req"
    )
    for name, row in endpoints.items():
        print(
            f"  {name:<62} {row['requests_per_s']:>8.0f} req/s  p50 {row['p50_ms']:>6.2f}  "
            f"p99 {row['p99_ms']:>6.2f} ms  cpu {row['server_cpu_us_per_request']:>6.0f} us/req"
            f"  = {row['ratio_requests_per_s_to_bare']:.2f}x bare req/s, p99 "
            f"{row['ratio_p99_to_bare']:.2f}x, cpu/req {row['ratio_cpu_per_request_to_bare']:.2f}x"
            + (f"  NON-2XX {row['non_2xx']}" if row["non_2xx"] else "")
        )
    result = {
        "client": args.client,
        "threads": args.threads,
        "connections": args.connections,
        "seconds": args.seconds,
        "rounds": args.rounds,
        "uvicorn_extras": extras,
        "load_average_1min": os.getloadavg()[0],
        "goal": (
            "every hot GET >= 0.9x the bare app's requests/s, p99 no worse; the content reads"
            " served from the answer cache >= 2x"
        ),
        "bare": bare_summary,
        "endpoints": endpoints,
    }
    print(f"  -> {write_result(args.name, result)}")
    return result


def _importable(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
