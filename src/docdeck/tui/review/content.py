"""What the review pane reads, kept per revision like the space screen's content.

A change request's side is read through its own routes (`{CR}/content/page/{id}`,
`{CR}/changes`), and cached under the change request's `revision`: a revision never
changes, so a reload that finds the same revision fetches nothing again, and an author's
new revision is a new key. The base side is the space's content at the base revision
(`{S}/revisions/{base}/page/{id}`), read through the space screen's cache, so what the
history or another change request of the same base already read is not read twice.

Page diffs are computed off the event loop (`asyncio.to_thread`: difflib on a long page
takes a while) and cached with the pair of revisions they compare.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import TYPE_CHECKING

from docdeck.gateway import Client
from docdeck.tui.content.revision_cache import RevisionContent, content_cache
from docdeck.tui.kit.session import session_of
from docdeck.tui.review.diff_model import PageDiff, diff_pages
from docdeck.tui.review.first_reads import CHANGES_LIMIT

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from docdeck.models import ChangeRequest, PageMarkdown, RevisionPage, RevisionSemanticChanges

__all__ = [
    "CHANGES_LIMIT",
    "DIFF_CONCURRENCY",
    "ChangeRequestContent",
    "base_revision",
    "change_request_content",
]

DIFF_CONCURRENCY = 4
"""Page diffs fetched at the same time while the rest of a change request is prefetched."""

KEPT = 16


def base_revision(change_request: ChangeRequest) -> str:
    """The revision the change request is compared against: main's revision taken in by
    its last update, else main's revision when it was created."""
    return change_request.revisionMergedAncestor or change_request.revisionInitial


class ChangeRequestContent(RevisionContent):
    """One revision of one change request."""

    def __init__(self, client: Client, space_id: str, number: int, revision_id: str) -> None:
        super().__init__(client, space_id, revision_id)
        self.number = number

    async def page(self, page_id: str) -> RevisionPage:
        """The page with its markdown (the rendered view needs the page, the diff its text):
        the answer the diff read, parsed as its page type when first asked for."""

        async def parse() -> RevisionPage:
            return self.client.content.page_of(await self._answer(page_id))

        return await self._once(("page", page_id), parse)

    async def markdown(self, page_id: str) -> str:
        return (await self._answer(page_id)).markdown or ""

    async def _as_document(self, page_id: str) -> RevisionPage:
        return await self.client.change_requests.content.page(
            self.space_id, self.number, page_id, format="document"
        )

    def adopt_answer(self, page_id: str, read: asyncio.Task[PageMarkdown]) -> None:
        """`read`, already sent (`docdeck open` reads the first diff's side ahead), as the
        page's answer (`_answer`)."""
        self.adopt(("page-markdown", page_id), read)

    async def _answer(self, page_id: str) -> PageMarkdown:
        """The page read as markdown, once for the diff and the rendered view alike; its text
        is read without building the page union's validator (`page_markdown`)."""
        return await self._once(
            ("page-markdown", page_id),
            lambda: self.client.change_requests.content.page_markdown(
                self.space_id, self.number, page_id
            ),
        )

    async def changes(self) -> RevisionSemanticChanges:
        return await self._once(
            "changes",
            lambda: self.client.change_requests.changes(
                self.space_id, self.number, limit=CHANGES_LIMIT
            ),
        )

    async def page_diff(
        self, base: RevisionContent, page_id: str, *, in_base: bool, in_change: bool
    ) -> PageDiff:
        """The page's diff from `base`; a side where the page does not exist is empty (an
        added or a deleted page). Both sides are asked for at once."""

        async def build() -> PageDiff:
            old, new = await asyncio.gather(
                base.markdown(page_id) if in_base else _empty(),
                self.markdown(page_id) if in_change else _empty(),
            )
            return await asyncio.to_thread(diff_pages, old, new)

        return await self._once(("diff", base.revision_id, page_id, in_base, in_change), build)


async def _empty() -> str:
    return ""


class ChangeRequestContents(OrderedDict[tuple[str, int, str], ChangeRequestContent]):
    """The change requests' sides read in this session, most recently used last."""


def change_request_content(
    node: DOMNode, client: Client, space_id: str, change_request: ChangeRequest
) -> tuple[ChangeRequestContent, RevisionContent]:
    """The change request's side and its base's side, from the session's caches."""
    cache = session_of(node).cache(ChangeRequestContents)
    key = (space_id, change_request.number, change_request.revision)
    found = cache.get(key)
    if found is None or found.client is not client:
        found = cache[key] = ChangeRequestContent(
            client, space_id, change_request.number, change_request.revision
        )
    cache.move_to_end(key)
    while len(cache) > KEPT:
        cache.popitem(last=False)
    base = content_cache(node).get(client, space_id, base_revision(change_request))
    return found, base
