"""The site editor at scale: a site of 50 sections in 5 groups with 10 site spaces each.

The real app runs headless (120x40) against `docdeck serve` on loopback in another process
(the server's work is not the TUI's). Measured:

- open: Enter on the site in the org tree until the whole structure (555 rows) is drawn;
- move: a move key (J) until the moved row is redrawn in its new place, 20 times;
- burst: 30 move keys queued at once as a held key sends them, until the one sort request
  is answered; the event loop's worst delay meanwhile (a probe task asks to wake every
  5 ms; the goal is no stall over 50 ms) and the number of sort requests (one).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from textual import events
from textual.pilot import Pilot

from _harness import Server, write_result
from _tui import CountingTransport, find_node, run_app, settle, tree_of
from docdeck.models import SiteSectionCreate, SiteSectionGroupCreate
from docdeck.server import ensure_demo
from docdeck.server.ids import new_id, to_db
from docdeck.server.sites import structure as site_structure
from docdeck.server.store import Database
from docdeck.tui.sites import SiteScreen
from space_screen import LoopProbe

SITE = "Bench Site"


def _prepare(db: Path, groups: int, sections: int, variants: int) -> None:
    ensure_demo(db)
    base = Database(db)
    try:
        with base.write() as conn:
            org = conn.execute(
                "SELECT id FROM organizations WHERE title = 'Northwind Labs'"
            ).fetchone()[0]
            spaces = [
                row[0]
                for row in conn.execute(
                    "SELECT id FROM spaces WHERE organization_id = ? AND deleted_at IS NULL "
                    "ORDER BY title",
                    (org,),
                )
            ]
            site_id = new_id()
            conn.execute(
                """INSERT INTO sites (id, organization_id, type, title, visibility, published,
                basename, created_at) VALUES (?, ?, 'ultimate', ?, 'public', 0, 'bench', ?)""",
                (site_id, org, SITE, to_db(datetime.now(UTC))),
            )
            site = conn.execute("SELECT * FROM sites WHERE id = ?", (site_id,)).fetchone()
            ids: list[str] = []
            for index in range(sections):
                first = spaces[index % len(spaces)]
                section = site_structure.add_section(
                    conn, site, SiteSectionCreate(spaceId=first, title=f"Section {index:02}")
                )
                for variant in range(1, variants):
                    space = spaces[(index + variant) % len(spaces)]
                    site_structure.add_site_space(conn, site, space, section)
                ids.append(section)
            per = sections // groups
            for group in range(groups):
                site_structure.add_group(
                    conn,
                    site,
                    SiteSectionGroupCreate(
                        title=f"Group {group}", sections=ids[group * per : (group + 1) * per]
                    ),
                )
    finally:
        base.close()


async def _until(check: Any, timeout: float = 60.0) -> float:
    began = time.perf_counter()
    while not check():
        if time.perf_counter() - began > timeout:
            raise TimeoutError("gave up waiting")
        await asyncio.sleep(0.001)
    return time.perf_counter() - began


def _drawn(screen: SiteScreen, title: str, line: int) -> bool:
    """The structure view's line `line` (on screen) shows `title`."""
    view = screen.view
    strip = view.render_line(line - int(view.scroll_offset.y))
    return title in strip.text


async def _body(pilot: Pilot[None], transport: CountingTransport) -> dict[str, Any]:
    tree = tree_of(pilot)
    org = find_node(tree, "Northwind")
    tree.select_entry(org.data)
    org.expand()
    await settle(pilot)
    sites = find_node(tree, "Sites")
    tree.select_entry(sites.data)
    sites.expand()
    await settle(pilot)
    tree.select_entry(find_node(tree, SITE).data)
    await settle(pilot)
    began = time.perf_counter()
    await pilot.press("enter")
    app = pilot.app
    await _until(lambda: isinstance(app.screen, SiteScreen) and app.screen.loaded)
    screen = app.screen
    assert isinstance(screen, SiteScreen)
    rows = len(screen.view.model.rows)
    await _until(lambda: _drawn(screen, "Group 0", 0))
    open_s = time.perf_counter() - began
    await settle(pilot)

    # One key until the row is redrawn one line down (a section inside its group).
    section = screen.view.model.top[0].children[0]
    screen.view.put_cursor_on(section)
    await settle(pilot)
    moves: list[float] = []
    for _ in range(20):
        at = screen.view.model.index(section)
        began = time.perf_counter()
        await pilot.press("J")
        target = screen.view.model.index(section)
        if target == at:
            raise RuntimeError(f"J did not move the row (at {at}, focus {app.focused})")
        await _until(lambda t=target: _drawn(screen, section.title, t), timeout=5)
        moves.append(time.perf_counter() - began)
        if section is screen.view.model.siblings(section)[-1]:
            break
    await _until(lambda: screen._burst is None)
    await settle(pilot)
    # The harness's own share: a cursor key (j), which sends nothing and moves no row.
    cursor: list[float] = []
    for _ in range(10):
        began = time.perf_counter()
        await pilot.press("j")
        cursor.append(time.perf_counter() - began)

    # 30 keys queued as a held key sends them: one sort when they stop, no long stall.
    transport.reset()
    sorts_before = screen.sorts_sent
    probe = LoopProbe()
    probe.start()
    driver = app._driver
    assert driver is not None
    began = time.perf_counter()
    for key in ["K"] * 25 + ["J"] * 5:  # from the end of its level to its 6th place
        event = events.Key(key, key)
        event.set_sender(app)
        driver.send_message(event)
    await _until(lambda: screen.sorts_sent > sorts_before)
    await settle(pilot)
    burst_s = time.perf_counter() - began
    loop = probe.stop()
    sorts = [sent for sent in transport.log if "/structure/sort" in sent.target]
    return {
        "rows": rows,
        "open_to_whole_tree_ms": round(open_s * 1000, 1),
        "move_key_to_redrawn_ms": {
            "median": round(statistics.median(moves) * 1000, 1),
            "max": round(max(moves) * 1000, 1),
            "samples": len(moves),
        },
        "cursor_key_baseline_ms": round(statistics.median(cursor) * 1000, 1),
        "burst_30_keys": {
            "until_sorted_ms": round(burst_s * 1000, 1),
            "sort_requests": len(sorts),
            "loop": loop,
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--groups", type=int, default=5)
    parser.add_argument("--sections", type=int, default=50)
    parser.add_argument("--variants", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        _prepare(db, args.groups, args.sections, args.variants)
        with Server(db, demo=False) as server:
            result = asyncio.run(run_app(server.base_url, server.token(), _body))
    import os

    result["load_average"] = os.getloadavg()
    print(result)
    write_result("site_editor", result)


if __name__ == "__main__":
    main()
