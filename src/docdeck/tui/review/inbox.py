"""The review inbox: open change requests across every organization I belong to, and how I am
involved in each (author, asked to review, reviewed, commented).

Three views of one gathering (`INBOX_VIEWS`): what waits for me (I wrote it or am asked to
review it), what I reviewed (the platform drops a reviewer from the requested reviewers once
they review, so after requesting changes a reviewer finds the change request here), and
everything I am involved in.

The API has no organization-wide list of change requests, so the inbox is gathered from the
spaces: my organizations (one list), their spaces (one list each), then each space with open
change requests (`changeRequestsOpen` says which; the rest are skipped) lists them, and each
one I did not write is asked for its requested reviewers, its reviews and the threads I
started (`authors=[me]`, one item). All of it runs concurrently with at most
`INBOX_CONCURRENCY` requests in flight. A space or change request that cannot be read is
named in the result, and the rest are still shown.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from docdeck.gateway import Client
from docdeck.models import ChangeRequest, Organization, Space
from docdeck.models.change_requests import ChangeRequestReview
from docdeck.tui.kit.errors import describe

__all__ = ["INBOX_CONCURRENCY", "INBOX_VIEWS", "Inbox", "InboxItem", "gather_inbox"]

INBOX_CONCURRENCY = 6
"""Requests in flight at once while the inbox is gathered."""

INBOX_VIEWS: dict[str, str] = {
    "waiting": "waiting for me: I wrote it or am asked to review it",
    "reviewed": "reviewed by me",
    "involved": "involved: author, asked, reviewer or commenter",
}
"""Each view's name and what its title line says it holds."""

ROLES = ("author", "asked", "reviewed", "commented")


@dataclass(frozen=True)
class InboxItem:
    organization: Organization
    space: Space
    change_request: ChangeRequest
    roles: tuple[str, ...]
    """How I am involved, in `ROLES` order."""
    my_review: ChangeRequestReview | None = None
    """My latest review, when I reviewed it."""

    @property
    def why(self) -> str:
        """What the waiting view says: 'author' or 'review requested'."""
        return "author" if "author" in self.roles else "review requested"

    def says(self, view: str) -> str:
        """The Why column in a view: in `reviewed`, my verdict (✔ approved, ✘ changes
        requested, ○ made on an older revision: outdated, as the change-request list marks
        it); elsewhere how I am involved."""
        if view == "waiting":
            return self.why
        if view == "reviewed" and self.my_review is not None:
            review = self.my_review
            mark, verdict = {
                "approved": ("✔", "approved"),
                "changes-requested": ("✘", "changes"),
            }.get(review.status, ("·", review.status))
            outdated = review.revision != self.change_request.revision
            if review.outdated is not None:
                outdated = review.outdated
            return f"○ {verdict}" if outdated else f"{mark} {verdict}"
        return ", ".join(self.roles)

    def shown_in(self, view: str) -> bool:
        if view == "waiting":
            return "author" in self.roles or "asked" in self.roles
        if view == "reviewed":
            return "reviewed" in self.roles
        return bool(self.roles)


@dataclass
class Inbox:
    items: list[InboxItem] = field(default_factory=list)
    """Every change request I am involved in; `view()` picks a view's."""
    problems: list[str] = field(default_factory=list)
    """One line per space (or change request) that could not be read."""
    retry_note: str = ""
    """Offers `r` when reading again may help one of `problems` (`Problem.retry_note`)."""
    spaces: int = 0
    """Spaces with open change requests that were looked at."""
    organizations: int = 0

    def view(self, name: str) -> list[InboxItem]:
        return [item for item in self.items if item.shown_in(name)]


async def gather_inbox(client: Client, me: str, *, concurrency: int = INBOX_CONCURRENCY) -> Inbox:
    limit = asyncio.Semaphore(concurrency)
    inbox = Inbox()
    organizations = [org async for org in client.orgs.list(limit=1000)]
    inbox.organizations = len(organizations)

    def failed(where: str, error: Exception, doing: str) -> None:
        problem = describe(error, doing)
        inbox.problems.append(f"{where}: {problem.brief or problem.message}")
        inbox.retry_note = inbox.retry_note or problem.retry_note

    async def spaces_of(org: Organization) -> list[tuple[Organization, Space]]:
        try:
            async with limit:
                found = [s async for s in client.spaces.list(org.id, limit=1000)]
        except Exception as error:
            failed(org.title, error, f"Reading the spaces of {org.title}")
            return []
        return [(org, space) for space in found if space.changeRequestsOpen]

    async def open_of(space: Space) -> list[ChangeRequest]:
        async with limit:
            found = client.change_requests.list(space.id, status="open", limit=100)
            return [cr async for cr in found]

    async def asked(space: Space, cr: ChangeRequest) -> bool:
        async with limit:
            found = client.change_requests.requested_reviewers.list(space.id, cr.id)
            requested = [r async for r in found]
        return any(r.user is not None and r.user.id == me for r in requested)

    async def my_review(space: Space, cr: ChangeRequest) -> ChangeRequestReview | None:
        async with limit:
            reviews = [r async for r in client.change_requests.reviews.list(space.id, cr.id)]
        mine = [r for r in reviews if r.reviewer.id == me]
        return max(mine, key=lambda r: r.updatedAt) if mine else None

    async def commented(space: Space, cr: ChangeRequest) -> bool:
        """A thread I started, or a reply of mine in another's thread. The API filters
        threads by author, not replies: the threads with replies are each asked for theirs
        (one request a thread, only when no thread of mine was found)."""
        async with limit:
            page = await client.comments.list(
                space.id, change_request=cr.number, authors=[me], limit=1
            )
            if page.items:
                return True
            found = client.comments.list(space.id, change_request=cr.number, limit=100)
            answered = [thread async for thread in found if thread.replies]
        for thread in answered:
            async with limit:
                replies = client.comments.replies.list(
                    space.id, thread.id, change_request=cr.number, limit=100
                )
                if any([reply.postedBy.id == me async for reply in replies]):
                    return True
        return False

    async def one_change_request(org: Organization, space: Space, cr: ChangeRequest) -> None:
        if cr.createdBy.id == me:
            inbox.items.append(InboxItem(org, space, cr, ("author",)))
            return
        try:
            was_asked, review, did_comment = await asyncio.gather(
                asked(space, cr), my_review(space, cr), commented(space, cr)
            )
        except Exception as error:
            failed(f"{space.title} #{cr.number}", error, "Reading reviewers and comments")
            return
        roles = tuple(
            role
            for role, yes in (
                ("asked", was_asked),
                ("reviewed", review is not None),
                ("commented", did_comment),
            )
            if yes
        )
        if roles:
            inbox.items.append(InboxItem(org, space, cr, roles, review))

    async def one_space(org: Organization, space: Space) -> None:
        try:
            found = await open_of(space)
        except Exception as error:
            failed(space.title, error, f"Reading the change requests of {space.title}")
            return
        await asyncio.gather(*(one_change_request(org, space, cr) for cr in found))

    wanted = [
        pair for found in await asyncio.gather(*map(spaces_of, organizations)) for pair in found
    ]
    inbox.spaces = len(wanted)
    await asyncio.gather(*(one_space(org, space) for org, space in wanted))
    inbox.items.sort(key=lambda item: item.change_request.updatedAt, reverse=True)
    return inbox
