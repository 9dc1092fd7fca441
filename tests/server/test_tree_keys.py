"""The stored depth-first sort keys and live-space counters (kept by triggers) always equal
what the data says, whatever sequence of creates, moves, duplicates, deletes, restores and
transfers ran, so a list page read through the index is the list the tree order defines and
its `count` is right."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import httpx

from ._support import ADMIN, Api, DemoIds

_SEGMENT = "printf('%024.9f', {a}.position + 1e12) || ':' || {a}.id || '/'"
COMPUTED = f"""WITH RECURSIVE tree(id, path) AS (
    SELECT c.id, {_SEGMENT.format(a="c")} FROM collections c WHERE c.parent_id IS NULL
    UNION ALL SELECT c.id, tree.path || {_SEGMENT.format(a="c")} FROM collections c
        JOIN tree ON c.parent_id = tree.id)
SELECT 'c', c.id, c.tree_path, tree.path FROM collections c JOIN tree ON tree.id = c.id
UNION ALL
SELECT 's', s.id, s.tree_key, COALESCE(tree.path, '') || {_SEGMENT.format(a="s")}
    FROM spaces s LEFT JOIN tree ON tree.id = s.parent_id"""


COUNTS = """SELECT o.id, c.live, (SELECT COUNT(*) FROM spaces s
    WHERE s.organization_id = o.id AND s.deleted_at IS NULL)
    FROM organizations o LEFT JOIN live_space_counts c ON c.organization_id = o.id"""


def mismatches(db: Path) -> list[tuple[str, ...]]:
    """Stored keys and live-space counters that differ from what the data says."""
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute(COMPUTED).fetchall()
        counts = conn.execute(COUNTS).fetchall()
    finally:
        conn.close()
    assert rows and counts
    return [row for row in rows if row[2] != row[3]] + [c for c in counts if c[1] != c[2]]


async def _ids(client: httpx.AsyncClient, path: str) -> list[str]:
    return [item["id"] for item in (await client.get(path, params={"limit": 1000})).json()["items"]]


async def test_stored_keys_follow_every_change(api: Api, ids: DemoIds, sandbox_db: Path) -> None:
    assert mismatches(sandbox_db) == []  # the migration's backfill
    admin = api(ADMIN)
    rng = random.Random(7)
    org = ids.northwind
    for step in range(120):
        spaces = await _ids(admin, f"/v1/orgs/{org}/spaces")
        collections = await _ids(admin, f"/v1/orgs/{org}/collections")
        parent = rng.choice([None, *collections])
        action = rng.randrange(8)
        if action == 0:
            await admin.post(f"/v1/orgs/{org}/spaces", json={"title": f"S{step}", "parent": parent})
        elif action == 1:
            await admin.post(
                f"/v1/orgs/{org}/collections", json={"title": f"C{step}", "parent": parent}
            )
        elif action == 2 and spaces:
            await admin.post(f"/v1/spaces/{rng.choice(spaces)}/duplicate")
        elif action == 3 and spaces:
            await admin.post(f"/v1/spaces/{rng.choice(spaces)}/move", json={"parent": parent})
        elif action == 4 and collections:
            await admin.post(
                f"/v1/collections/{rng.choice(collections)}/move", json={"parent": parent}
            )
        elif action == 5 and len(spaces) > 1:
            moved, anchor = rng.sample(spaces, 2)
            await admin.post(
                f"/v1/spaces/{moved}/move",
                json={"position": {"before": {"type": "space", "space": anchor}}},
            )
        elif action == 6 and collections and rng.random() < 0.3:
            await admin.delete(f"/v1/collections/{rng.choice(collections)}")
        elif action == 7 and spaces:
            victim = rng.choice(spaces)
            await admin.delete(f"/v1/spaces/{victim}")
            if rng.random() < 0.5:
                await admin.post(f"/v1/spaces/{victim}/restore")
        assert mismatches(sandbox_db) == [], f"after step {step} (action {action})"
    # Transfers move whole subtrees between organizations.
    collections = await _ids(admin, f"/v1/orgs/{org}/collections")
    spaces = await _ids(admin, f"/v1/orgs/{org}/spaces")
    await admin.post(f"/v1/collections/{collections[0]}/transfer", json={"organization": ids.lumen})
    await admin.post(f"/v1/spaces/{spaces[-1]}/transfer", json={"organization": ids.lumen})
    assert mismatches(sandbox_db) == []
