"""The tree filter's field, which also asks the server, so it finds spaces not loaded yet.

The filter itself is instant and local (`OrgTree.set_filter`, which the screen calls
on each change); this field adds, a moment after the typing stops, one `GET {O}/search`
per loaded organization and fetches the spaces it names that the tree does not have, to
show them under "Found on the server". The worker is exclusive: each key cancels the
search in flight, so only the last text costs requests and a stale answer never lands.
"""

from __future__ import annotations

import asyncio

from textual import on
from textual.widgets import Input
from textual.worker import Worker

from docdeck.models import Space
from docdeck.tui.kit.entries import Entry, OrgEntry, SpaceEntry
from docdeck.tui.kit.formatting import quoted
from docdeck.tui.kit.workers import client_of, read, report_worker_failure
from docdeck.tui.orgs._org_tree import OrgTree

__all__ = ["SEARCH_DELAY", "SEARCH_LIMIT", "TreeFilter"]

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


class TreeFilter(Input):
    """The field above the tree: what is typed filters `tree` and is searched on the server."""

    def __init__(self, tree: OrgTree, *, placeholder: str = "", id: str | None = None) -> None:
        super().__init__(placeholder=placeholder, id=id)
        self.org_tree = tree

    @on(Input.Changed)
    def _search_on_change(self, event: Input.Changed) -> None:
        if event.input is self:
            self.search_server(event.value)

    def cancel_search(self) -> None:
        self.workers.cancel_group(self, "filter-search")

    def search_server(self, text: str) -> None:
        text = text.strip()
        self.cancel_search()
        if not text:
            return
        self._search(text)

    @read("filter-search", lambda self, text: f"Searching the server for {quoted(text)}")
    async def _search(self, text: str) -> None:
        await asyncio.sleep(SEARCH_DELAY)
        tree = self.org_tree
        orgs = [org for org in tree.model.children or () if isinstance(org, OrgEntry)]
        found = await asyncio.gather(*(self._found_in(org, text) for org in orgs))
        for org, spaces in zip(orgs, found, strict=True):
            tree.show_found(org, text, [SpaceEntry(space=space) for space in spaces])

    async def _found_in(self, org: OrgEntry, text: str) -> list[Space]:
        client = client_of(self)
        page = await client.orgs.search(org.organization.id, text, limit=SEARCH_LIMIT)
        loaded = _loaded_space_ids(org)
        missing = [hit.id for hit in page.items if hit.id not in loaded]
        return list(await asyncio.gather(*(client.spaces.get(space_id) for space_id in missing)))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        report_worker_failure(self, event)
