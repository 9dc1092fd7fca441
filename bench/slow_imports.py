"""A write's latency while 45 imports from a slow website run (issue 28).

A loopback website sends its page one byte every 50 ms, so no read ever times out; 45
imports of it are started at once by an edit-role member, and while they run another user
posts `--comments` comments one after another. Before the outbound pool, the imports held
every write thread and a comment waited until they ended; now they wait in their own
bounded pool and end at their deadline (`--deadline`, 30 s as served; shorter here so the
bench ends soon). The sandbox runs in process (httpx ASGI transport, sync routes in the
thread pool as under `docdeck serve`); the load average goes with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx

from _harness import write_result
from docdeck.server import create_app, ensure_demo, mint_token
from docdeck.server.content.fetch import ImportPolicy

SPACE_TITLE = "Webhooks Guide"


class _Drip(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        try:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", "100000")
            self.end_headers()
            for _ in range(100_000):
                self.wfile.write(b"x")
                self.wfile.flush()
                time.sleep(0.05)
        except OSError:
            pass


class _Server(ThreadingHTTPServer):
    request_queue_size = 128
    daemon_threads = True


async def _run(args: argparse.Namespace, db: Path, site: str) -> dict[str, Any]:
    accounts = ensure_demo(db)
    del accounts
    policy = ImportPolicy(allow_loopback=True, deadline=args.deadline)
    app = create_app(db, public_url="http://bench.test", import_policy=policy)
    transport = httpx.ASGITransport(app=app)

    def client(email: str) -> httpx.AsyncClient:
        headers = {"Authorization": f"Bearer {mint_token(db, email)}"}
        return httpx.AsyncClient(
            transport=transport, base_url="http://bench.test", headers=headers, timeout=600
        )

    async with client("chen@northwind.dev") as editor, client("emeka@northwind.dev") as other:
        spaces = (await other.get("/v1/orgs")).json()["items"]
        org = spaces[0]["id"]
        found = (await other.get(f"/v1/orgs/{org}/spaces", params={"limit": 1000})).json()
        space = next(s["id"] for s in found["items"] if s["title"] == SPACE_TITLE)

        async def comment() -> float:
            started = time.perf_counter()
            response = await other.post(
                f"/v1/spaces/{space}/comments", json={"body": {"markdown": "still here"}}
            )
            assert response.status_code == 200, response.text
            return (time.perf_counter() - started) * 1000

        idle = [await comment() for _ in range(args.comments)]
        body = {"url": site, "source": "website"}
        started = time.perf_counter()
        imports = [
            asyncio.create_task(editor.post(f"/v1/spaces/{space}/content/import", json=body))
            for _ in range(args.imports)
        ]
        await asyncio.sleep(0.2)  # the imports are under way
        busy = [await comment() for _ in range(args.comments)]
        answers = await asyncio.gather(*imports)
        imports_s = time.perf_counter() - started
    return {
        "imports": args.imports,
        "deadline_s": args.deadline,
        "import_statuses": sorted({a.status_code for a in answers}),
        "all_imports_ended_s": round(imports_s, 2),
        "comment_idle_p50_ms": round(statistics.median(idle), 1),
        "comment_busy_p50_ms": round(statistics.median(busy), 1),
        "comment_busy_max_ms": round(max(busy), 1),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--imports", type=int, default=45)
    parser.add_argument("--comments", type=int, default=10)
    parser.add_argument("--deadline", type=float, default=5.0)
    args = parser.parse_args(argv)
    server = _Server(("127.0.0.1", 0), _Drip)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    site = f"http://127.0.0.1:{server.server_address[1]}/slow"
    load_before = os.getloadavg()[0]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            result = asyncio.run(_run(args, Path(tmp) / "bench.db", site))
    finally:
        server.shutdown()
        server.server_close()
    result["loadavg_before"] = round(load_before, 2)
    result["loadavg_after"] = round(os.getloadavg()[0], 2)
    for key, value in result.items():
        print(f"{key:>24}: {value}")
    write_result("slow_imports", result)
    return result


if __name__ == "__main__":
    main()
