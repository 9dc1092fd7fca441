"""The tree filter also asks the server, so it finds spaces that are not loaded yet.

The filter itself is instant and local (`OrgTree.set_filter`); this adds, a
moment after the typing stops, one `GET {O}/search` per loaded organization and
fetches the spaces it names that the tree does not have, to show them under
"Found on the server". The worker is exclusive: each key cancels the search in
flight, so only the last text costs requests and a stale answer never lands.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from functools import partial

from docdeck.models import Space
from docdeck.tui.kit.entries import Entry, OrgEntry, SpaceEntry
from docdeck.tui.kit.formatting import quoted
from docdeck.tui.orgs._browser_base import BrowserBase

__all__ = ["SEARCH_DELAY", "SEARCH_LIMIT", "ServerSearch"]

SEARCH_DELAY = 0.3
"""Seconds of no typing before the server is asked."""
SEARCH_LIMIT = 20
"""Hits asked per organization: a filter is for finding, not for listing everything."""


def _loaded_space_ids(entry: Entry) -> set[str]:
    ids: set[str] = set()
    for child in entry.children or ():
        if isinstance(child, SpaceEntry):
            ids.add(child.value.id)
        ids |= _loaded_space_ids(child)
    return ids


class ServerSearch(BrowserBase):
    def search_server(self, text: str) -> None:
        text = text.strip()
        self.workers.cancel_group(self, "filter-search")
        if not text:
            return
        search: Callable[[], Awaitable[None]] = partial(self._search, text)
        self.run_worker(
            search,  # a callable: no coroutine is made for a search cancelled before it starts
            name=f"Searching the server for {quoted(text)}",
            group="filter-search",
            exclusive=True,
            exit_on_error=False,
        )

    async def _search(self, text: str) -> None:
        await asyncio.sleep(SEARCH_DELAY)
        tree = self.org_tree
        orgs = [org for org in tree.model.children or () if isinstance(org, OrgEntry)]
        found = await asyncio.gather(*(self._found_in(org, text) for org in orgs))
        for org, spaces in zip(orgs, found, strict=True):
            tree.show_found(org, text, [SpaceEntry(space=space) for space in spaces])

    async def _found_in(self, org: OrgEntry, text: str) -> list[Space]:
        client = self.client
        page = await client.orgs.search(org.organization.id, text, limit=SEARCH_LIMIT)
        loaded = _loaded_space_ids(org)
        missing = [hit.id for hit in page.items if hit.id not in loaded]
        return list(await asyncio.gather(*(client.spaces.get(space_id) for space_id in missing)))
