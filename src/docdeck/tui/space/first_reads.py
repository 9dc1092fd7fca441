"""What `docdeck open <space or page>` shows first, asked by the launcher before the gateway
is imported: standard library only (it runs in the launcher's thread while Textual starts).

The space screen's first page needs the space, its breadcrumb (the collections above it
and its organization), the revision's page tree and the page's markdown. `OpenReads` and
the screen (`docdeck.tui.open_at`, `docdeck.tui.space`) ask exactly these through the
client once it exists; with a running sandbox the launcher has asked them already, over a
plain socket (`docdeck._cli.first_answer.Reads`), and the client is handed the answers
(`docdeck.gateway.Prefetched`). The paths are the ones the gateway builds (a test holds
them to the client's own); an answer that matches no request the client makes is unused.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import quote

from docdeck.tui.kit.open_target import Getter

__all__ = ["first_readable", "space_reads"]

TRAIL_DEPTH = 16
"""Collections followed up from a space at most (a loop in bad data ends there)."""


def _depth_first(pages: Any) -> Iterator[dict[str, Any]]:
    for page in pages if isinstance(pages, list) else ():
        if isinstance(page, dict):
            yield page
            yield from _depth_first(page.get("pages"))


def first_readable(revision: Any) -> str | None:
    """The id of the first document page of a revision's JSON in reading order (depth
    first: `SpacePages.first_readable`), or None."""
    pages = revision.get("pages") if isinstance(revision, dict) else None
    for page in _depth_first(pages):
        if page.get("type") == "document" and isinstance(page.get("id"), str):
            return str(page["id"])
    return None


def space_reads(space: str, page: str | None = None) -> Callable[[Getter], None]:
    """The reads of a space's first page (`page`, else its first readable one)."""

    def read(get: Getter) -> None:
        s = quote(space, safe="")
        found = get(f"/v1/spaces/{s}")
        if not isinstance(found, dict):
            return
        revision = get(f"/v1/spaces/{s}/content")
        shown = page or first_readable(revision)
        at = found.get("revision")
        if shown and isinstance(at, str) and at:
            p, r = quote(shown, safe=""), quote(at, safe="")
            get(f"/v1/spaces/{s}/revisions/{r}/page/{p}", {"format": "markdown"})
        parent = found.get("parent")
        for _ in range(TRAIL_DEPTH):
            if not isinstance(parent, str) or not parent:
                break
            collection = get(f"/v1/collections/{quote(parent, safe='')}")
            parent = collection.get("parent") if isinstance(collection, dict) else None
        organization = found.get("organization")
        if isinstance(organization, str) and organization:
            get(f"/v1/orgs/{quote(organization, safe='')}")

    return read
