"""What the space screen fetched, kept per revision: a revision never changes.

Every read goes through `RevisionContent._once`: the first caller starts the request,
callers meanwhile await the same task, later callers get the answer without a request.
A failed read is forgotten, so asking again (`r`, or moving back to the page) retries.
The cache lives in the session (`content_cache(widget)`), so leaving a space and opening it
again, or opening it at an older revision and back, fetches nothing twice. Reads that
depend on the space's *current* content (link analysis, search) are kept under the
revision that was current when they were asked for, so they are re-asked when it moves.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from docdeck.gateway import Client
from docdeck.tui.content.page_tree import SpacePages
from docdeck.tui.kit.session import session_of
from docdeck.tui.kit.workers import read_ahead

if TYPE_CHECKING:  # the link models' module is imported when a link is first read
    from textual.dom import DOMNode

    from docdeck.models import (
        ContentLocation,
        ContentReferenceUsage,
        LinkList,
        ListPage,
        Revision,
        RevisionPage,
        RevisionSemanticChanges,
        SearchPageResult,
    )
    from docdeck.tui.content.block_map import BlockMap

__all__ = ["ContentCache", "RevisionContent", "content_cache"]

T = TypeVar("T")

KEPT_REVISIONS = 16
"""Revisions whose content stays in memory (the least recently used ones go first)."""

LINKS_PAGE = 200
"""Links read per request: each item carries its pages and space in full, so a page of
200 is already a few hundred KB to parse; smaller answers keep the screen drawing."""

SEARCH_PAGE = 50
"""Search results read per request: a screen holds well under 50 pages with their sections,
and a page of 100 over a 5,000-page space took the sandbox twice as long to answer and
the screen 0.1-0.9 s to lay out; the next page is read when the reader gets there."""


class RevisionContent:
    """One revision of one space, and everything read from it."""

    def __init__(self, client: Client, space_id: str, revision_id: str | None) -> None:
        self.client = client
        self.space_id = space_id
        self.revision_id = revision_id
        self._tasks: dict[Any, asyncio.Future[Any]] = {}
        self.requests = 0
        """How many requests this revision's reads sent (tests check nothing is sent twice)."""

    async def _once(self, key: Any, fetch: Callable[[], Awaitable[T]], *, shield: bool = True) -> T:
        """`shield=False`: a caller cancelled (a newer search) cancels the request too."""
        task = self._ask(key, fetch)
        return await (asyncio.shield(task) if shield else task)

    def _ask(self, key: Any, fetch: Callable[[], Awaitable[T]]) -> asyncio.Future[T]:
        """The read for `key`: the one under way or kept, else one started now."""
        task = self._tasks.get(key)
        if task is None or (task.done() and (task.cancelled() or task.exception())):
            self.requests += 1
            # A caller cancelled meanwhile (an exclusive worker replaced) must not cancel the
            # request another caller, or the next visit, waits for.
            task = self._tasks[key] = read_ahead(_run(fetch))
        return task

    def adopt(self, key: Any, task: asyncio.Task[Any]) -> None:
        """A read already under way (`docdeck open`'s early requests) as the one for `key`,
        unless one is kept: callers then await it instead of asking again."""
        kept = self._tasks.get(key)
        if kept is None or (kept.done() and (kept.cancelled() or kept.exception())):
            self._tasks[key] = task

    def cached(self, key: Any) -> Any | None:
        """The answer for `key` if it is in (None while loading, failed or never asked)."""
        task = self._tasks.get(key)
        if task is None or not task.done() or task.cancelled() or task.exception():
            return None
        return task.result()

    async def revision(self) -> Revision:
        return await self._once(
            "revision",
            lambda: self.client.content.revision_in_steps(self.space_id, self.revision_id),
        )

    async def pages(self) -> SpacePages:
        async def build() -> SpacePages:
            return _tree_of(await self.revision())

        return await self._once("pages", build)

    def pages_now(self) -> SpacePages | None:
        """The page tree at once if the revision is in (None: `pages` reads it): no turn
        of the event loop, so a screen can show the tree as it mounts."""
        pages = self.cached("pages")
        if pages is None and (revision := self.cached("revision")) is not None:
            pages = _tree_of(revision)
            done: asyncio.Future[SpacePages] = asyncio.get_running_loop().create_future()
            done.set_result(pages)
            self._tasks["pages"] = done
        return cast("SpacePages | None", pages)

    async def markdown(self, page_id: str) -> str:
        return await self._once(("markdown", page_id), self._markdown_read(page_id))

    def ask_markdown(self, page_id: str) -> None:
        """The page's markdown asked for now, not awaited (`markdown` then finds it under
        way): `docdeck open`'s first diff asks for its base side as soon as the change
        request names the base, not several turns of the event loop later, each behind
        the review pane's compose and mount."""
        self._ask(("markdown", page_id), self._markdown_read(page_id))

    def _markdown_read(self, page_id: str) -> Callable[[], Awaitable[str]]:
        async def fetch() -> str:
            page = await self.client.content.page_markdown(
                self.space_id, page_id, revision=self.revision_id
            )
            return page.markdown or ""

        return fetch

    async def blocks(self, page_id: str) -> BlockMap:
        """The page's blocks (their `key`s, from `format=document`) with their markdown
        lines: what a comment on a block targets (`docdeck.tui.content.block_map`)."""

        # Imported here: it brings markdown-it, which the first diff of `docdeck open`
        # does not need (25-40 ms of its start).
        from docdeck.tui.content.block_map import block_map

        async def build() -> BlockMap:
            markdown = await self.markdown(page_id)
            page = await self._as_document(page_id)
            document = getattr(page, "document", None)
            nodes = {"nodes": document.nodes} if document is not None else {"nodes": []}
            return await asyncio.to_thread(block_map, nodes, markdown)

        return await self._once(("blocks", page_id), build)

    async def _as_document(self, page_id: str) -> RevisionPage:
        """The page with its body as a document (`format=document`): its blocks' keys."""
        return await self.client.content.page(
            self.space_id, page_id, format="document", revision=self.revision_id
        )

    async def links(self) -> tuple[list[ContentReferenceUsage], LinkList]:
        """Every link of the space (all pages of the list) and the first page's stats."""

        async def fetch() -> tuple[list[ContentReferenceUsage], LinkList]:
            first = await self.client.content.links.space(self.space_id, limit=1000)
            items = list(first.items)
            cursor = first.next.page if first.next else None
            while cursor:
                more = await self.client.content.links.space(self.space_id, limit=1000, page=cursor)
                items.extend(more.items)
                cursor = more.next.page if more.next else None
            return items, first

        return await self._once("links", fetch)

    async def link_stats(self) -> LinkList:
        """The counts alone (`stats` covers the whole list whatever the filter): one
        broken link is asked for, so the answer stays small in a space of thousands."""
        return await self._once(
            "link-stats",
            lambda: self.client.content.links.space(self.space_id, status="broken", limit=1),
        )

    async def backlinks(self, file_id: str) -> list[ContentLocation]:
        async def fetch() -> list[ContentLocation]:
            found = self.client.content.links.file_backlinks(self.space_id, file_id)
            return [item async for item in found]

        return await self._once(("backlinks", file_id), fetch)

    async def changes(self) -> RevisionSemanticChanges:
        assert self.revision_id is not None
        revision_id = self.revision_id
        return await self._once(
            "changes", lambda: self.client.content.changes(self.space_id, revision_id, limit=1000)
        )

    async def search(self, query: str, page: str | None = None) -> ListPage[SearchPageResult]:
        """One page of the results (`page`: the cursor of the page before's `next`)."""

        async def fetch() -> ListPage[SearchPageResult]:
            return await self.client.content.search(
                self.space_id, query, page=page, limit=SEARCH_PAGE
            )

        return await self._once(("search", query, page), fetch, shield=False)


def _tree_of(revision: Revision) -> SpacePages:
    return SpacePages(revision.pages, revision.files)


async def _run(fetch: Callable[[], Awaitable[T]]) -> T:
    return await fetch()


class ContentCache:
    """The revisions read in this session, most recently used last."""

    def __init__(self) -> None:
        self._revisions: OrderedDict[tuple[str, str | None], RevisionContent] = OrderedDict()

    def get(self, client: Client, space_id: str, revision_id: str | None) -> RevisionContent:
        key = (space_id, revision_id)
        found = self._revisions.get(key)
        if found is None or found.client is not client:
            found = self._revisions[key] = RevisionContent(client, space_id, revision_id)
        self._revisions.move_to_end(key)
        while len(self._revisions) > KEPT_REVISIONS:
            self._revisions.popitem(last=False)
        return found


def content_cache(node: DOMNode) -> ContentCache:
    """The session's content cache, made on first use."""
    return session_of(node).cache(ContentCache)
