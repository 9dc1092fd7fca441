"""Bounded versions of the hostile test's load checks, kept in the suite so later areas keep
them true: a few hundred concurrent writes lose nothing, and every write the server
acknowledged survives the server process being killed with SIGKILL mid-load."""

from __future__ import annotations

import asyncio
import re
import signal
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path

import httpx
import pytest

from docdeck.server import create_app, mint_token

from ._support import ADMIN, DemoIds

URL = re.compile(r"sandbox API at (http://127\.0\.0\.1:\d+)/v1")
WRITERS = 8
KILL_AFTER = 60
"""Acknowledged creates per round before the kill; writers keep going until it lands."""


async def test_a_few_hundred_concurrent_writes_lose_nothing(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    spaces = f"/v1/orgs/{ids.northwind}/spaces"
    team = f"/v1/orgs/{ids.northwind}/teams/{ids.teams['Platform']}/members"
    target = f"/v1/spaces/{ids.spaces['Webhooks Guide']}"
    before = (await admin.get(spaces, params={"limit": 0})).json()["count"]
    creates = [admin.post(spaces, json={"title": f"Load {i:03d}"}) for i in range(200)]
    renames = [admin.patch(target, json={"title": f"Rename {i:03d}"}) for i in range(60)]
    members = [
        admin.put(team, json={"add": [email], "remove": []})
        for email in ("freya@northwind.dev", "dana@northwind.dev") * 20
    ]
    answers = await asyncio.gather(*creates, *renames, *members)
    assert {r.status_code for r in answers[:200]} == {201}
    assert {r.status_code for r in answers[200:260]} == {200}
    assert {r.status_code for r in answers[260:]} == {204}
    listed = (await admin.get(spaces, params={"limit": 1000})).json()
    assert listed["count"] == before + 200
    titles = {s["title"] for s in listed["items"]}
    assert {f"Load {i:03d}" for i in range(200)} <= titles
    assert (await admin.get(target)).json()["title"].startswith("Rename ")
    team_emails = {
        m["organization"]["user"]["email"] for m in (await admin.get(team)).json()["items"]
    }
    assert {"freya@northwind.dev", "dana@northwind.dev"} <= team_emails


def _start(db: Path) -> tuple[subprocess.Popen[str], str]:
    server = subprocess.Popen(
        [sys.executable, "-m", "docdeck", "serve", "--port", "0", "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert server.stdout is not None
    stdout = server.stdout
    with ThreadPoolExecutor(max_workers=1) as pool:
        try:
            line = pool.submit(stdout.readline).result(timeout=60)
        except FutureTimeout:
            server.kill()
            raise AssertionError("docdeck serve printed no banner within 60 s") from None
    found = URL.search(line)
    assert found, line
    return server, found.group(1)


def _load_until_killed(base: str, token: str, org: str, server: subprocess.Popen[str]) -> list[str]:
    """Writers create spaces until the server dies; returns the ids it acknowledged (201)."""
    acknowledged: list[str] = []
    lock = threading.Lock()
    stop = threading.Event()

    def writer(index: int) -> None:
        with httpx.Client(
            base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=10
        ) as client:
            n = 0
            while not stop.is_set():
                n += 1
                try:
                    answer = client.post(f"/v1/orgs/{org}/spaces", json={"title": f"W{index}-{n}"})
                except httpx.HTTPError:
                    return  # the server is gone: this write was never acknowledged
                assert answer.status_code == 201, answer.text
                with lock:
                    acknowledged.append(answer.json()["id"])

    with ThreadPoolExecutor(max_workers=WRITERS) as pool:
        futures = [pool.submit(writer, i) for i in range(WRITERS)]
        for _ in range(3000):
            with lock:
                if len(acknowledged) >= KILL_AFTER:
                    break
            threading.Event().wait(0.01)
        server.send_signal(signal.SIGKILL)  # mid-loop: writers are still sending
        server.wait(timeout=20)
        stop.set()
        for future in futures:
            future.result(timeout=30)
    return acknowledged


@pytest.mark.loopback
def test_every_acknowledged_write_survives_kill_9(sandbox_db: Path, ids: DemoIds) -> None:
    token = mint_token(sandbox_db, ADMIN)
    acknowledged: list[str] = []
    for _ in range(2):
        server, base = _start(sandbox_db)
        try:
            acknowledged += _load_until_killed(base, token, ids.northwind, server)
        finally:
            if server.poll() is None:
                server.kill()
                server.wait(timeout=20)
    assert len(acknowledged) >= 2 * KILL_AFTER
    server, base = _start(sandbox_db)  # restarted on the same file after the last kill
    try:
        with httpx.Client(
            base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=10
        ) as client:
            missing = [i for i in acknowledged if client.get(f"/v1/spaces/{i}").status_code != 200]
            listed = client.get(f"/v1/orgs/{ids.northwind}/spaces", params={"limit": 1000}).json()
    finally:
        server.terminate()
        server.wait(timeout=20)
    assert missing == []
    assert set(acknowledged) <= {s["id"] for s in listed["items"]}
    # The file is consistent for an in-process app too (no half-written transaction).
    assert create_app(sandbox_db) is not None
