"""What `docdeck open <change request>` shows first, asked by the launcher before the gateway
is imported: standard library only (it runs in the launcher's thread while Textual starts).

The review pane's first diff needs the space, the change request, its changes and both
sides of the first page whose body changed. `OpenReads` (`docdeck.tui.open_at`) asks
exactly these through the client once it exists; with a running sandbox the launcher has
asked them already, over a plain socket (`docdeck._cli.first_answer.Reads`), and the
client is handed the answers (`docdeck.gateway.Prefetched`): no request of the first
diff waits for httpx, nor for Textual's start. The paths and queries here are the ones
the gateway builds (a test holds them to the client's own); an answer that does not
match a request the client makes is simply not used.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any
from urllib.parse import quote

from docdeck.tui.kit.open_target import Getter

__all__ = ["CHANGES_LIMIT", "body_changed", "change_request_reads", "first_changed_page"]

CHANGES_LIMIT = 1000
"""Changes read at once (the platform answers 10 without a limit)."""


def body_changed(kinds: Collection[str], attributes: Collection[str]) -> bool:
    """Whether a changed page's text differs between its sides: it was added or deleted, or
    its `document` attribute was edited (`ChangedPage.body_changed`)."""
    return "added" in kinds or "deleted" in kinds or "document" in attributes


_KINDS = {
    "page_created": "added",
    "page_deleted": "deleted",
    "page_edited": "edited",
    "page_moved": "moved",
}


def first_changed_page(changes: Any) -> tuple[str, bool, bool] | None:
    """(page id, in base, in change request) of the first page of `GET {CR}/changes`'s JSON
    whose body changed, in the order the review pane lists pages
    (`review.changes.review_changes`: by first mention); None when there is none or the
    answer is not of that shape."""
    entries: dict[str, tuple[list[str], set[str]]] = {}
    listed = changes.get("changes") if isinstance(changes, dict) else None
    for change in listed if isinstance(listed, list) else ():
        if not isinstance(change, dict):
            return None
        kind = _KINDS.get(change.get("type"))  # type: ignore[arg-type]
        page = change.get("page")
        if kind is None:
            continue
        if not isinstance(page, dict) or not isinstance(page.get("id"), str):
            return None
        kinds, attributes = entries.setdefault(page["id"], ([], set()))
        kinds.append(kind)
        edited = change.get("attributes")
        if kind == "edited" and isinstance(edited, dict):
            attributes.update(edited)
    for page_id, (kinds, attributes) in entries.items():
        if body_changed(kinds, attributes):
            return page_id, "added" not in kinds, "deleted" not in kinds
    return None


def change_request_reads(space: str, number: str) -> Callable[[Getter], None]:
    """The reads of a change request's first diff, in the order they can be asked."""

    def read(get: Getter) -> None:
        s, n = quote(space, safe=""), quote(number, safe="")
        get(f"/v1/spaces/{s}")
        change_request = get(f"/v1/spaces/{s}/change-requests/{n}")
        changes = get(f"/v1/spaces/{s}/change-requests/{n}/changes", {"limit": str(CHANGES_LIMIT)})
        first = first_changed_page(changes)
        if first is None or not isinstance(change_request, dict):
            return
        page_id, in_base, in_change = first
        p = quote(page_id, safe="")
        markdown = {"format": "markdown"}
        if in_change:
            get(f"/v1/spaces/{s}/change-requests/{n}/content/page/{p}", markdown)
        base = change_request.get("revisionMergedAncestor") or change_request.get("revisionInitial")
        if in_base and isinstance(base, str) and base:
            get(f"/v1/spaces/{s}/revisions/{quote(base, safe='')}/page/{p}", markdown)

    return read
