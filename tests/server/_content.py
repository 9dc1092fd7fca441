"""Helpers of the content tests: the demo's documentation space and direct content edits."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from docdeck.server.content.edits import Draft
from docdeck.server.store import Database

from ._support import DemoIds

API_DOCS = "Public API Reference"


def _space(ids: DemoIds, title: str = API_DOCS) -> str:
    return f"/v1/spaces/{ids.spaces[title]}"


def _edit(db_path: Path, space_id: str, change: Any) -> str:
    """Applies `change(draft)` to the space's content as one new revision; returns its id."""
    db = Database(db_path)
    try:
        with db.write() as conn:
            draft = Draft(conn, space_id, datetime.now(UTC))
            change(draft)
            return draft.commit()
    finally:
        db.close()


def _by_title(pages: list[dict[str, Any]], title: str) -> dict[str, Any]:
    stack = list(pages)
    while stack:
        page = stack.pop()
        if page["title"] == title:
            return page
        stack += page.get("pages", [])
    raise AssertionError(f"no page {title!r}")
