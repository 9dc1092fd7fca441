"""Helpers of the comment tests: a page of the Webhooks Guide and its block keys."""

from __future__ import annotations

from typing import Any

import httpx

from ._support import DemoIds


def blocks(document: dict[str, Any]) -> list[dict[str, Any]]:
    """Every block of a document, depth first."""
    out: list[dict[str, Any]] = []

    def walk(nodes: list[Any]) -> None:
        for node in nodes:
            if isinstance(node, dict) and node.get("object") == "block":
                out.append(node)
                walk(node.get("nodes", []))

    walk(document["nodes"])
    return out


async def page_blocks(
    client: httpx.AsyncClient, space: str, page: str, base: str | None = None
) -> list[dict[str, Any]]:
    prefix = base or f"/v1/spaces/{space}/content"
    response = await client.get(f"{prefix}/page/{page}", params={"format": "document"})
    assert response.status_code == 200, response.text
    return blocks(response.json()["document"])


def guide(ids: DemoIds) -> tuple[str, str]:
    """The Webhooks Guide and its Setup page."""
    return ids.spaces["Webhooks Guide"], ids.content["page"]
