"""The block keys of every page of the demo workspace are the keys they had before task lists
and alerts came from markdown-it's own rules (they were a plugin's checkboxes and a regex on the
quote's first line). Comments target blocks by key, so a key that changes orphans its threads:
the parser's configuration may change, the keys may not.

The recorded keys are `data/demo_block_keys.json` (space title, page path, then every key of
the page's document in depth-first order: blocks, inlines, table fragments). When a change to
the document format changes keys on purpose, it ships a migration of the stored comment
targets and rewrites this file with `DOCDECK_RECORD_BLOCK_KEYS=1`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import httpx

from ._support import DemoIds

RECORDED = Path(__file__).parent / "data" / "demo_block_keys.json"


def _keys(nodes: list[Any], out: list[str]) -> list[str]:
    for node in nodes:
        if not isinstance(node, dict):
            continue
        if "key" in node:
            out.append(f"{node.get('type', node.get('object'))}:{node['key']}")
        _keys(node.get("nodes", []), out)
        _keys(node.get("fragments", []), out)
    return out


def _pages(pages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for page in pages:
        out.append(page)
        out.extend(_pages(page.get("pages", [])))
    return out


async def _demo_keys(admin: httpx.AsyncClient, ids: DemoIds) -> dict[str, dict[str, list[str]]]:
    found: dict[str, dict[str, list[str]]] = {}
    for title, space in sorted(ids.spaces.items()):
        revision = (await admin.get(f"/v1/spaces/{space}/content")).json()
        for page in _pages(revision.get("pages", [])):
            if page.get("type") != "document":
                continue
            response = await admin.get(
                f"/v1/spaces/{space}/content/page/{page['id']}", params={"format": "document"}
            )
            assert response.status_code == 200, response.text
            keys = _keys(response.json()["document"]["nodes"], [])
            found.setdefault(title, {})[page["path"]] = keys
    return found


async def test_the_demo_pages_keep_their_block_keys(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    found = await _demo_keys(admin, ids)
    if os.environ.get("DOCDECK_RECORD_BLOCK_KEYS") == "1":
        RECORDED.write_text(json.dumps(found, indent=1, ensure_ascii=False) + "\n")
    recorded = json.loads(RECORDED.read_text())
    assert sum(len(keys) for pages in recorded.values() for keys in pages.values()) > 500
    assert found.keys() == recorded.keys()
    for title, pages in recorded.items():
        assert found[title].keys() == pages.keys(), title
        for path, keys in pages.items():
            assert found[title][path] == keys, f"{title} / {path}"
