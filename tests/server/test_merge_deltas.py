"""Merges in a large space look only at what changed: the entries the revisions' deltas list
since their chains meet (`snapshots.changed_keys`), and the tree around the pages the merge
brought (`merge._repair_tree`). The results must be those of comparing every entry."""

from __future__ import annotations

import itertools
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest

from docdeck.server.change_requests import merge as merge_engine
from docdeck.server.content import snapshots
from docdeck.server.content.snapshots import Snapshot, changed_keys, load_snapshot

from ._content import _edit
from ._support import DemoIds

BODY = "# {title}\n\nFirst paragraph of {title}.\n\nLast paragraph of {title}.\n"
TOP, MIDDLE, LEAVES = 10, 10, 10
"""1,110 pages: 10 at the top, 10 below each, 10 below each of those."""


class Large:
    """A space of 1,110 pages, changed through change requests as a client would."""

    def __init__(self, client: httpx.AsyncClient, space: str, tree: dict[str, list[str]]) -> None:
        self.client, self.id, self.tree = client, space, tree

    async def new_cr(self) -> str:
        response = await self.client.post(f"/v1/spaces/{self.id}/change-requests", json={})
        assert response.status_code == 201, response.text
        return f"/v1/spaces/{self.id}/change-requests/{response.json()['number']}"

    async def author(self, cr: str, changes: list[dict[str, Any]]) -> dict[str, Any]:
        response = await self.client.post(f"{cr}/content?compat=false", json={"changes": changes})
        assert response.status_code == 200, response.text
        return dict(response.json())

    async def merge(self, cr: str) -> str:
        response = await self.client.post(f"{cr}/merge")
        assert response.status_code == 200, response.text
        return str(response.json()["result"])

    async def on_main(self, changes: list[dict[str, Any]]) -> None:
        cr = await self.new_cr()
        await self.author(cr, changes)
        assert await self.merge(cr) == "merge"

    async def pages(self) -> dict[str, dict[str, Any]]:
        got = await self.client.get(f"/v1/spaces/{self.id}/content/pages")
        found: dict[str, dict[str, Any]] = {}
        stack = [(page, None) for page in got.json()["pages"]]
        while stack:
            page, parent = stack.pop()
            found[page["id"]] = {**page, "parent": parent}
            stack += [(kid, page["id"]) for kid in page.get("pages", [])]
        return found

    async def markdown(self, page: str) -> str:
        response = await self.client.get(
            f"/v1/spaces/{self.id}/content/page/{page}", params={"format": "markdown"}
        )
        assert response.status_code == 200, response.text
        return str(response.json()["markdown"])


async def _large(admin: httpx.AsyncClient, ids: DemoIds, sandbox_db: Path) -> Large:
    created = await admin.post(f"/v1/orgs/{ids.northwind}/spaces", json={"title": "Large"})
    space = str(created.json()["id"])
    tree: dict[str, list[str]] = {}

    def fill(draft: Any) -> None:
        for a in range(TOP):
            top = draft.add_page(f"Top {a}", markdown=BODY.format(title=f"Top {a}"))
            tree[top] = []
            for b in range(MIDDLE):
                title = f"Middle {a}.{b}"
                middle = draft.add_page(title, parent=top, markdown=BODY.format(title=title))
                tree[top].append(middle)
                tree[middle] = []
                for c in range(LEAVES):
                    title = f"Leaf {a}.{b}.{c}"
                    leaf = draft.add_page(title, parent=middle, markdown=BODY.format(title=title))
                    tree[middle].append(leaf)

    _edit(sandbox_db, space, fill)
    return Large(admin, space, tree)


_NEW = {"operation": "insert_page", "document": {"markdown": "New.\n"}}


def _edit_first(page: str, title: str, tag: str) -> dict[str, Any]:
    text = BODY.format(title=title).replace("First paragraph", f"First paragraph ({tag})")
    return {"operation": "update_page", "page": page, "document": {"markdown": text}}


def _edit_last(page: str, title: str, tag: str) -> dict[str, Any]:
    text = BODY.format(title=title).replace("Last paragraph", f"Last paragraph ({tag})")
    return {"operation": "update_page", "page": page, "document": {"markdown": text}}


def _every_entry(old: Snapshot, new: Snapshot) -> set[tuple[str, str]]:
    return {key for key, _ in set(old.hashes.items()) ^ set(new.hashes.items())}


def _revisions(sandbox_db: Path, space: str) -> tuple[sqlite3.Connection, list[Snapshot]]:
    conn = sqlite3.connect(sandbox_db)
    conn.row_factory = sqlite3.Row  # as the server's connections
    ids = [r[0] for r in conn.execute("SELECT id FROM revisions WHERE space_id = ?", (space,))]
    return conn, [load_snapshot(conn, revision) for revision in ids]


async def _history(large: Large) -> tuple[str, dict[str, str]]:
    """A change request and main both change the same pages (other paragraphs), main
    deletes a page the change request adds a child to, the change request deletes a page
    main adds a child to, both add a page of the same title under one parent; the change
    request is updated from main, main moves again, and it is merged."""
    tops = list(large.tree)[:: MIDDLE + 1]
    middle = large.tree[tops[0]][0]
    leaves = large.tree[middle]
    gone_in_main, gone_in_cr = large.tree[tops[1]][1], large.tree[tops[1]][2]
    cr = await large.new_cr()
    added = await large.author(
        cr,
        [
            *(_edit_first(leaf, f"Leaf 0.0.{i}", "cr") for i, leaf in enumerate(leaves[:5])),
            {**_NEW, "title": "Twin", "ref": "twin", "into": middle},
            {**_NEW, "title": "Stray of the CR", "ref": "stray", "into": gone_in_main},
            {"operation": "delete_page", "page": gone_in_cr},
        ],
    )
    made = {c["ref"]: c["page"]["id"] for c in added["changes"] if c.get("ref")}
    stray_of_cr, twin_of_cr = made["stray"], made["twin"]
    await large.on_main(
        [
            *(_edit_last(leaf, f"Leaf 0.0.{i}", "main") for i, leaf in enumerate(leaves[:5])),
            {**_NEW, "title": "Twin", "into": middle},
            {"operation": "delete_page", "page": gone_in_main},
            {**_NEW, "title": "Stray of main", "into": gone_in_cr},
        ]
    )
    updated = await large.client.post(f"{cr}/update")
    assert updated.status_code == 200, updated.text
    await large.on_main([_edit_last(leaves[6], "Leaf 0.0.6", "main again")])
    await large.author(cr, [_edit_first(leaves[7], "Leaf 0.0.7", "cr again")])
    return cr, {
        "middle": middle,
        "stray_of_cr": stray_of_cr,
        "twin_of_cr": twin_of_cr,
        **{f"leaf{i}": leaf for i, leaf in enumerate(leaves)},
    }


async def test_a_merge_in_a_large_space_merges_what_changed_on_both_sides(
    admin: httpx.AsyncClient, ids: DemoIds, sandbox_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    large = await _large(admin, ids, sandbox_db)
    cr, named = await _history(large)

    # The merge the route is about to make, both ways: only the entries the deltas list,
    # and every entry compared (no chain walked): the same merged content.
    conn, _ = _revisions(sandbox_db, large.id)
    row = conn.execute(
        "SELECT c.revision_id, c.revision_merged_ancestor, s.revision_id AS main, c.number"
        " FROM change_requests c JOIN spaces s ON s.id = c.space_id"
        " WHERE c.space_id = ? AND c.number = ?",
        (large.id, int(cr.rsplit("/", 1)[1])),
    ).fetchone()
    base, ours, main = (load_snapshot(conn, r) for r in (row[1], row[0], row[2]))
    assert len(snapshots._listed_between(conn, base.info.id, ours.info.id) or range(999)) < 40
    assert len(snapshots._listed_between(conn, base.info.id, main.info.id) or range(999)) < 40

    def merged() -> tuple[Any, ...]:
        out = merge_engine.merge_snapshots(
            conn, base, ours, main, onto=main, number=row[3], keep_cr=True
        )
        return out.pages, out.files, out.variables, out.bodies, sorted(out.conflicts)

    by_deltas = merged()
    monkeypatch.setattr(snapshots, "DELTA_STEPS", 0)
    assert merged() == by_deltas
    monkeypatch.undo()
    conn.close()

    assert await large.merge(cr) == "merge"
    pages = await large.pages()
    for i in range(5):
        text = await large.markdown(named[f"leaf{i}"])
        assert f"First paragraph (cr) of Leaf 0.0.{i}" in text
        assert f"Last paragraph (main) of Leaf 0.0.{i}" in text
    assert "main again" in await large.markdown(named["leaf6"])
    assert "cr again" in await large.markdown(named["leaf7"])
    twins = sorted(p["slug"] for p in pages.values() if p["title"] == "Twin")
    assert twins == ["twin", "twin-2"]
    # The update brought main's twin into the change request as `twin-2`; the merge keeps
    # the change request's side.
    assert pages[named["twin_of_cr"]]["slug"] == "twin"
    assert all(p["parent"] == named["middle"] for p in pages.values() if p["title"] == "Twin")
    strays = {p["title"]: p["parent"] for p in pages.values() if p["title"].startswith("Stray")}
    assert strays == {"Stray of the CR": None, "Stray of main": None}  # parents deleted
    assert len(pages) == TOP * (1 + MIDDLE * (1 + LEAVES)) - 2 * (1 + LEAVES) + 4


@pytest.mark.parametrize("checkpoints", [False, True])
async def test_changed_entries_agree_with_comparing_every_entry(
    admin: httpx.AsyncClient,
    ids: DemoIds,
    sandbox_db: Path,
    monkeypatch: pytest.MonkeyPatch,
    checkpoints: bool,
) -> None:
    """Between any two revisions of the space (main's, the change requests', updates,
    merges), with and without checkpoints cutting the chains of deltas."""
    large = await _large(admin, ids, sandbox_db)
    if checkpoints:  # a checkpoint once a chain holds a few rows more than the space
        monkeypatch.setattr(snapshots, "CHECKPOINT_SLACK", 3 - 2 * 1_110)
    cr, _ = await _history(large)
    assert await large.merge(cr) == "merge"
    conn, revisions = _revisions(sandbox_db, large.id)
    bases = [
        r[0] for r in conn.execute("SELECT base_id FROM revisions WHERE space_id = ?", (large.id,))
    ]
    assert (None in bases[1:]) is checkpoints
    for old, new in itertools.permutations(revisions, 2):
        assert changed_keys(conn, old, new) == _every_entry(old, new), (old.info, new.info)
    conn.close()
