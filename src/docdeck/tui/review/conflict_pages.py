"""Finding a change request's pages that hold conflict markers, and saving their resolution.

Only pages the change request changed can hold markers (an update writes them into pages
changed on both sides), so the pages come from `GET {CR}/changes`, not the whole tree; their
markdown is read concurrently, a few at a time.
"""

from __future__ import annotations

import asyncio

from textual.notifications import SeverityLevel

from docdeck.gateway import Client
from docdeck.tui.review.conflicts import ConflictedPage, has_markers, parse_conflicts

__all__ = ["conflicted_pages", "describe_result", "save_resolutions"]

_AT_ONCE = 6


async def conflicted_pages(client: Client, space_id: str, number: int) -> list[ConflictedPage]:
    changes = await client.change_requests.changes(space_id, number, limit=1000)
    candidates: dict[str, str] = {}
    for change in changes.changes:
        kind = getattr(change, "type", "")
        page = getattr(change, "page", None)
        if kind in ("page_created", "page_edited") and page is not None:
            candidates.setdefault(page.id, getattr(page, "title", "") or page.id)
    gate = asyncio.Semaphore(_AT_ONCE)

    async def read(page_id: str, title: str) -> ConflictedPage | None:
        async with gate:
            page = await client.change_requests.content.page_markdown(space_id, number, page_id)
        markdown = page.markdown
        if not markdown or not has_markers(markdown):
            return None
        found = parse_conflicts(page_id, page.title or title, markdown)
        return found if found.conflicts else None

    read_all = [read(page_id, title) for page_id, title in candidates.items()]
    return [page for page in await asyncio.gather(*read_all) if page is not None]


async def save_resolutions(
    client: Client, space_id: str, number: int, pages: list[ConflictedPage]
) -> None:
    """Every fully resolved page in one authoring call: one new revision."""
    changes = [
        {
            "operation": "update_page",
            "page": page.page_id,
            "document": {"markdown": page.markdown()},
        }
        for page in pages
        if page.resolved
    ]
    if changes:
        await client.change_requests.content.update(space_id, number, changes)


_RESULTS: dict[tuple[str, str], tuple[str, str, SeverityLevel]] = {
    ("update", "update"): (
        "Updated from main",
        "#{number} now has main's latest changes.",
        "information",
    ),
    ("update", "conflicts"): (
        "Update found conflicts",
        "Main and #{number} changed the same blocks: the pages now hold conflict markers. "
        "Keep one side or edit each conflict, then merge.",
        "warning",
    ),
    ("merge", "merge"): ("Merged", "#{number} is merged into main.", "information"),
    ("merge", "conflicts"): (
        "Merged with conflicts",
        "#{number} is merged, but main changed some of the same blocks: each kept the "
        "change request's side. Check those pages on main.",
        "warning",
    ),
}
"""(action, result) -> title, message (of `{number}`) and severity."""


def describe_result(action: str, result: str, number: int) -> tuple[str, str, SeverityLevel]:
    """Title, message and severity for the `result` of an update or a merge, as answered."""
    known = _RESULTS.get((action, result))
    if known is None:
        return (
            f"Unexpected {action} result",
            f"The server answered result “{result}” for #{number}; press r to see its state.",
            "error",
        )
    title, message, severity = known
    return title, message.format(number=number), severity
