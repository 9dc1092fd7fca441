"""The review pane on a change request of 50 changed pages: time to the first diff, and to
every page's diff read and computed (the background prefetch), with the requests sent.

A generated space (500 pages) gets a change request editing 50 of its pages (a paragraph
near the top and one near the end of each, so every page has two hunks), authored through
the API. The real app runs headless (120x40) against `docdeck serve` on loopback in another
process, and is driven as a user would: Enter on the space, `5`, Enter on the change request.

- first diff: from Enter on the change request until the first page's diff is on screen;
  the requests sent before it, and how many dependent round trips that was;
- total: until all 50 diffs are in the cache (fetched at most 4 at a time, both sides of a
  page at once);
- the largest event-loop delay meanwhile (no frame can be drawn while it is blocked);
- reopen: Escape and Enter again: everything comes from the per-revision caches.

The machine's load average is recorded with the result: other work on a shared machine
makes single figures vary.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from textual.pilot import Pilot

from _harness import Server, write_result
from _tui import CountingTransport, find_node, run_app, settle, tree_of
from content import _generate
from docdeck.server import ensure_demo
from docdeck.tui.review import ChangeRequestsView, ReviewScreen
from docdeck.tui.review._diff_view import DiffView
from docdeck.tui.review.diff_model import PageDiff
from space_screen import LoopProbe


def _prepare(db: Path, pages: int) -> tuple[str, list[str]]:
    ensure_demo(db)
    return _generate(db, pages, random.Random(13))


def _edited(markdown: str, tag: str) -> str:
    blocks = markdown.split("\n\n")
    blocks[0 if len(blocks) < 3 else 1] += f" ({tag}, near the top)"
    blocks[-1] += f" ({tag}, at the end)"
    return "\n\n".join(blocks)


async def _author(base_url: str, token: str, space: str, pages: list[str]) -> int:
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=base_url, headers=headers, timeout=300) as client:
        base = f"/v1/spaces/{space}"
        created = await client.post(f"{base}/change-requests", json={"subject": "Fifty pages"})
        number = int(created.json()["number"])
        changes = []
        for page in pages:
            got = await client.get(f"{base}/content/page/{page}", params={"format": "markdown"})
            markdown = str(got.json()["markdown"])
            changes.append(
                {
                    "operation": "update_page",
                    "page": page,
                    "document": {"markdown": _edited(markdown, "bench")},
                }
            )
        answer = await client.post(
            f"{base}/change-requests/{number}/content", json={"changes": changes}
        )
        assert answer.status_code == 200, answer.text
        return number


async def _until(check: Any, timeout: float = 120.0) -> float:
    began = time.perf_counter()
    while not check():
        if time.perf_counter() - began > timeout:
            raise TimeoutError("the pane did not get there")
        await asyncio.sleep(0.002)
    return time.perf_counter() - began


def _diffs_done(screen: ReviewScreen) -> int:
    content, _base = screen.sides()
    return sum(
        1
        for key in list(content._tasks)
        if isinstance(key, tuple) and key[0] == "diff" and content.cached(key) is not None
    )


def _round_trips(log: list[Any], until: float) -> int:
    """The longest chain of requests before `until` where each started after the one before
    it had its answer: the dependent round trips (requests in flight together count once)."""
    sent = sorted((s for s in log if s.started < until), key=lambda s: s.started)
    depth: list[int] = []
    for index, s in enumerate(sent):
        before = [depth[i] for i in range(index) if sent[i].finished <= s.started]
        depth.append(1 + max(before, default=0))
    return max(depth, default=0)


async def _body(
    pilot: Pilot[None], transport: CountingTransport, pages: int, number: int, changed: int
) -> dict[str, Any]:
    tree = tree_of(pilot)
    node = find_node(tree, "Northwind Labs")
    tree.select_entry(node.data)
    node.expand()
    await settle(pilot)
    tree.select_entry(find_node(tree, f"Generated {pages}").data)
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)
    await pilot.press("5")
    await settle(pilot)
    view = pilot.app.screen.query_one(ChangeRequestsView)
    await _until(lambda: view.loaded)
    row = [cr.number for cr in view.shown].index(number)
    view.table.move_cursor(row=row, animate=False)
    await settle(pilot)

    out: dict[str, Any] = {}
    for attempt in ("open", "reopen"):
        out[attempt] = await _open_once(pilot, transport, changed)
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
    return out


MARKS: dict[str, float] = {}
"""When the pane was mounted and first showed a diff, as the app saw it (not as the polling
loop, which runs late while the app is busy)."""


def _marking() -> None:
    """Marks the pane's mount and the first diff its `DiffView` is given to show."""
    mount, shown = ReviewScreen.on_mount, DiffView.show_diff

    def on_mount(self: ReviewScreen) -> None:
        MARKS.setdefault("mounted", time.perf_counter())
        mount(self)

    def show_diff(self: DiffView, page_id: str, diff: PageDiff) -> None:
        MARKS.setdefault("diff_shown", time.perf_counter())
        shown(self, page_id, diff)

    ReviewScreen.on_mount = on_mount  # type: ignore[method-assign]
    DiffView.show_diff = show_diff  # type: ignore[method-assign]


async def _open_once(
    pilot: Pilot[None], transport: CountingTransport, changed: int
) -> dict[str, Any]:
    transport.reset()
    MARKS.clear()
    probe = LoopProbe()
    probe.start()
    began = time.perf_counter()
    await pilot.press("enter")
    await _until(lambda: isinstance(pilot.app.screen, ReviewScreen))
    screen = pilot.app.screen
    assert isinstance(screen, ReviewScreen)
    await _until(lambda: screen.diff_view.diff is not None and screen.diff_view.display)
    first = time.perf_counter()
    await _until(lambda: _diffs_done(screen) >= changed)
    total = time.perf_counter()
    loop = probe.stop()
    shown = MARKS["diff_shown"]
    before_first = [
        f"{s.method} {s.target.split('?')[0].rsplit('/', 2)[-2:]} "
        f"{(s.started - began) * 1000:.0f}-{(s.finished - began) * 1000:.0f} ms"
        for s in transport.log
        if s.started < shown
    ]
    return {
        "screen_mounted_s": round(MARKS["mounted"] - began, 3),
        "first_diff_in_app_s": round(MARKS["diff_shown"] - began, 3),
        "first_diff_s": round(first - began, 3),
        "all_diffs_s": round(total - began, 3),
        "requests_before_first_diff": len(before_first),
        "round_trips_before_first_diff": _round_trips(transport.log, shown),
        "first_diff_requests": before_first,
        "requests_total": len(transport.log),
        "most_in_flight": transport.most_in_flight,
        "loop": loop,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=500)
    parser.add_argument("--changed", type=int, default=50)
    args = parser.parse_args()
    _marking()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        space, ids = _prepare(db, args.pages)
        with Server(db) as server:
            token = server.token()
            number = asyncio.run(_author(server.base_url, token, space, ids[-args.changed :]))
            result = asyncio.run(
                run_app(
                    server.base_url,
                    token,
                    lambda pilot, transport: _body(
                        pilot, transport, args.pages, number, args.changed
                    ),
                )
            )
    result = {
        "space_pages": args.pages,
        "changed_pages": args.changed,
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(),
        **result,
    }
    for key, value in result.items():
        print(f"{key}: {value}")
    print(write_result("review", result))


if __name__ == "__main__":
    main()
