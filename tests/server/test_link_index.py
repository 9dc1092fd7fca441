"""The link index follows revisions page by page: after a change, only the changed pages'
links and the links into pages whose anchors changed are resolved again, and the usages,
the pages linking to each target and the counts are updated from the parent's index. Over
random edits, the index made that way must equal one made from scratch."""

from __future__ import annotations

import bisect
import random
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from docdeck.server.content import links as link_analysis
from docdeck.server.content import persistent, snapshots
from docdeck.server.content.edits import Draft
from docdeck.server.content.links import LinkIndex, anchor_sets, link_index
from docdeck.server.content.snapshots import current_revision_id, get_text, load_snapshot
from docdeck.server.content.tree import tree_of
from docdeck.server.store import Database

from ._content import API_DOCS
from ._support import DemoIds

HOST = "sandbox.test"
KINDS = (
    *("page", "anchor", "missing-anchor", "missing", "own", "file", "url", "app"),
    *("heading", "unheading", "unlink", "new-page"),
)


def _plain(index: LinkIndex) -> dict[str, Any]:
    """What the routes read of an index, as plain values."""
    return {
        "by_source": {
            source: [
                (lk.target.kind, lk.target.status, lk.target.ref, lk.target.anchor) for lk in links
            ]
            for source, links in index.by_source.items()
        },
        "sources": len(index.by_source),
        "incoming": dict(index.incoming),
        "usages": [(u.target.key, u.target.status, u.target.page, u.sources) for u in index.usages],
        "positions": [index.usages.position(u.target.sort_key) for u in index.usages],
        "counts": {s: index.count(s) for s in (None, "broken", "in-app", "ok")},
        "statuses": {s: list(index.with_status(s)) for s in ("broken", "in-app", "ok")},
        "pages": [index.usages[n : n + 7] for n in range(0, len(index.usages), 7)],
    }


def _from_scratch(conn: sqlite3.Connection, space: str) -> LinkIndex:
    cache = snapshots._cache
    snapshots._cache = snapshots._Cache(8)  # nothing derived in memory
    try:
        return link_index(conn, load_snapshot(conn, current_revision_id(conn, space)), HOST)
    finally:
        snapshots._cache = cache


def _edit(rng: random.Random, conn: sqlite3.Connection, space: str, draft: Draft) -> str:
    """One random change to one page: links to pages (with anchors that exist or not),
    missing pages, files, URLs; headings added or removed; links removed; sometimes a new
    page (the tree changes: the index is made afresh)."""
    snapshot = load_snapshot(conn, current_revision_id(conn, space))
    tree = tree_of(snapshot)
    anchors = anchor_sets(conn, snapshot)
    documents = [p for p in tree.order if snapshot.pages[p].get("type") == "document"]
    # Half of the edits and links are on a few pages, so headings added and removed there
    # fix and break the anchors other pages link to.
    few = documents[:4]
    page = rng.choice(few if rng.random() < 0.5 else documents)
    markdown = get_text(conn, snapshot.pages[page].get("body"))
    other = rng.choice(few if rng.random() < 0.5 else documents)
    path = tree.paths[other]
    known = sorted(anchors.get(other, set())) or ["none"]
    files = [e["name"] for e in snapshot.files.values()]
    kind = rng.choice(KINDS)
    href = {
        "page": f"/{path}.md",
        "anchor": f"/{path}.md#{rng.choice(known)}",
        "missing-anchor": f"/{path}.md#gone-{rng.randrange(3)}",
        "missing": f"/nowhere-{rng.randrange(3)}.md",
        "own": f"#{rng.choice(sorted(anchors.get(page, set())) or ['gone-0'])}",
        "file": f".gitbook/assets/{rng.choice(files) if files else 'none.pdf'}",
        "url": f"https://example.com/{rng.randrange(3)}",
        "app": f"https://{HOST}/app/orgs/{rng.randrange(3)}",
    }.get(kind)
    if href is not None:
        draft.set_markdown(page, markdown + f"\n\nSee [that]({href}).\n")
    elif kind == "heading":  # may fix links to a missing anchor (`gone-N`)
        draft.set_markdown(page, markdown + f"\n\n## Gone {rng.randrange(3)}\n\nText.\n")
    elif kind == "unheading":
        lines = markdown.split("\n")
        heads = [n for n, line in enumerate(lines) if line.startswith("#")]
        if heads:
            del lines[rng.choice(heads)]
        draft.set_markdown(page, "\n".join(lines))
    elif kind == "unlink":
        draft.set_markdown(page, markdown.replace("](", "] ("))
    else:
        draft.add_page(f"New {rng.randrange(1000)}", markdown="See [up](/nowhere-1.md).\n")
    return kind


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_index_updated_page_by_page_equals_one_made_afresh(
    ids: DemoIds, sandbox_db: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    rng = random.Random(seed)
    space = ids.spaces[API_DOCS]
    made_afresh: list[str] = []
    full = link_analysis._full_index

    def counted(resolver: Any) -> LinkIndex:
        made_afresh.append(resolver.snapshot.info.id)
        return full(resolver)

    monkeypatch.setattr(link_analysis, "_full_index", counted)
    # Small chunks and early folds, so a few dozen edits split, empty and fold them.
    monkeypatch.setattr(persistent, "CHUNK", 3)
    monkeypatch.setattr(persistent, "FOLD_MIN", 4)
    db = Database(sandbox_db)
    try:
        with db.read() as conn:
            link_index(conn, load_snapshot(conn, current_revision_id(conn, space)), HOST)
        kinds = []
        for _ in range(60):
            with db.write() as conn:
                draft = Draft(conn, space, datetime.now(UTC))
                kinds.append(_edit(rng, conn, space, draft))
                draft.commit()
            made_afresh.clear()
            with db.read() as conn:
                snapshot = load_snapshot(conn, current_revision_id(conn, space))
                updated = link_index(conn, snapshot, HOST)
                assert bool(made_afresh) == (kinds[-1] == "new-page"), kinds
                assert _plain(updated) == _plain(_from_scratch(conn, space)), kinds
        assert {"anchor", "heading", "unheading", "unlink"} <= set(kinds)
    finally:
        db.close()


def test_layered_and_sorted_chunks_agree_with_a_dict_and_a_sorted_list(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(persistent, "CHUNK", 2)
    monkeypatch.setattr(persistent, "FOLD_MIN", 3)
    rng = random.Random(5)
    plain: dict[int, str] = {n: str(n) for n in range(0, 40, 3)}
    layered = persistent.Layered(dict(plain))
    items = sorted(plain)
    chunks = persistent.SortedChunks.of(list(items), lambda n: (n,))
    history = [(layered, dict(plain), chunks, list(items))]
    for step in range(300):
        put = {rng.randrange(60): f"v{step}" for _ in range(rng.randrange(9))}
        gone = {rng.randrange(60) for _ in range(rng.randrange(9))} - put.keys()
        layered = layered.updated(put, gone)
        plain = {k: v for k, v in {**plain, **put}.items() if k not in gone}
        chunks = chunks.updated(sorted(put), [(k,) for k in gone])
        items = sorted(plain)
        history.append((layered, dict(plain), chunks, list(items)))
    for layered, plain, chunks, items in history:  # earlier versions are unchanged
        assert dict(layered) == plain and len(layered) == len(plain)
        assert all(
            layered.get(k) == plain.get(k) and (k in layered) == (k in plain) for k in range(60)
        )
        assert list(chunks) == items and len(chunks) == len(items)
        assert [chunks.position((k,)) for k in range(61)] == [
            bisect.bisect_left(items, k) for k in range(61)
        ]
        assert all(chunks.find((k,)) == (k if k in plain else None) for k in range(60))
        assert all(chunks[a:b] == items[a:b] for a in range(0, 30, 4) for b in range(a, 40, 5))
        window = persistent.Window(chunks, 2, max(2, len(items) - 1))
        assert list(window) == items[2 : max(2, len(items) - 1)]
