"""The review inbox: open change requests across an organization where I am the author or a
requested reviewer, newest first.

The API has no organization-wide list of change requests, so the inbox is gathered from the
spaces: the organization's spaces (one list), then each space with open change requests
(`changeRequestsOpen` says which; the rest are skipped) lists them, and each one I did not
write is asked for its requested reviewers. All of it runs concurrently with at most
`INBOX_CONCURRENCY` requests in flight. A space that cannot be read is named in the result,
and the rest are still shown.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from docdeck.gateway import Client
from docdeck.models import ChangeRequest, Space
from docdeck.models.change_requests import ChangeRequestRequestedReviewer
from docdeck.tui.kit.errors import describe

__all__ = ["INBOX_CONCURRENCY", "Inbox", "InboxItem", "gather_inbox"]

INBOX_CONCURRENCY = 6
"""Requests in flight at once while the inbox is gathered."""


@dataclass(frozen=True)
class InboxItem:
    space: Space
    change_request: ChangeRequest
    why: str
    """'author' or 'review requested'."""


@dataclass
class Inbox:
    items: list[InboxItem] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    """One line per space (or change request) that could not be read."""
    retry_note: str = ""
    """Offers `r` when reading again may help one of `problems` (`Problem.retry_note`)."""
    spaces: int = 0
    """Spaces with open change requests that were looked at."""


async def gather_inbox(
    client: Client, org_id: str, me: str, *, concurrency: int = INBOX_CONCURRENCY
) -> Inbox:
    limit = asyncio.Semaphore(concurrency)
    inbox = Inbox()
    spaces = [s async for s in client.spaces.list(org_id, limit=1000)]
    wanted = [s for s in spaces if s.changeRequestsOpen]
    inbox.spaces = len(wanted)

    async def open_of(space: Space) -> list[ChangeRequest]:
        async with limit:
            found = client.change_requests.list(space.id, status="open", limit=100)
            return [cr async for cr in found]

    async def asked(space: Space, cr: ChangeRequest) -> list[ChangeRequestRequestedReviewer]:
        async with limit:
            found = client.change_requests.requested_reviewers.list(space.id, cr.id)
            return [r async for r in found]

    async def one_change_request(space: Space, cr: ChangeRequest) -> None:
        if cr.createdBy.id == me:
            inbox.items.append(InboxItem(space, cr, "author"))
            return
        try:
            requested = await asked(space, cr)
        except Exception as error:
            problem = describe(error, "Reading requested reviewers")
            inbox.problems.append(f"{space.title} #{cr.number}: {problem.brief or problem.message}")
            inbox.retry_note = inbox.retry_note or problem.retry_note
            return
        if any(r.user is not None and r.user.id == me for r in requested):
            inbox.items.append(InboxItem(space, cr, "review requested"))

    async def one_space(space: Space) -> None:
        try:
            found = await open_of(space)
        except Exception as error:
            problem = describe(error, f"Reading the change requests of {space.title}")
            inbox.problems.append(f"{space.title}: {problem.brief or problem.message}")
            inbox.retry_note = inbox.retry_note or problem.retry_note
            return
        await asyncio.gather(*(one_change_request(space, cr) for cr in found))

    await asyncio.gather(*(one_space(space) for space in wanted))
    inbox.items.sort(key=lambda item: item.change_request.updatedAt, reverse=True)
    return inbox
