"""What expanding a tree entry asks the gateway: one round trip per level, siblings concurrently.

An organization's children need its collections and its spaces; both lists are
asked for at once. Every collection of the organization (nested ones included)
comes in that one request and is kept on the organization entry, so opening a
collection only asks for its spaces. Long lists are fetched a page at a time and
end in a "load more…" entry that stands for the next page.
"""

from __future__ import annotations

import asyncio
from typing import Any

from docdeck.gateway import Client
from docdeck.models import Collection, ListPage, Space
from docdeck.tui.kit.entries import (
    CollectionEntry,
    DeletedEntry,
    Entry,
    LoadMoreEntry,
    MembersEntry,
    OrgEntry,
    RootEntry,
    SiteEntry,
    SitesEntry,
    SpaceEntry,
    TeamEntry,
    TeamsEntry,
    admin_entries,
)
from docdeck.tui.orgs.first_request import PAGE_SIZE

__all__ = ["PAGE_SIZE", "load_children", "load_more", "sort_collections"]


COLLECTIONS_PAGE_SIZE = 1000
"""Collections come whole: they are few, and nesting needs all of them to place any."""


def _more(page: ListPage[Any]) -> list[Entry]:
    return [LoadMoreEntry(page=page.next.page)] if page.next is not None else []


def sort_collections(collections: list[Collection], parent: str | None) -> list[Collection]:
    return [collection for collection in collections if collection.parent == parent]


async def _all_collections(client: Client, org_id: str) -> list[Collection]:
    return await client.collections.list(org_id, nested=True, limit=COLLECTIONS_PAGE_SIZE).all()


def _org_spaces(page: ListPage[Space]) -> list[Entry]:
    """The organization level shows only spaces outside collections."""
    return [SpaceEntry(space=space) for space in page.items if space.parent is None]


async def _load_org(client: Client, entry: OrgEntry) -> list[Entry]:
    org_id = entry.organization.id
    collections, spaces = await asyncio.gather(
        _all_collections(client, org_id),
        client.spaces.list(org_id, limit=PAGE_SIZE),
    )
    entry.collections = collections
    children: list[Entry] = [
        CollectionEntry(collection=collection) for collection in sort_collections(collections, None)
    ]
    children += _org_spaces(spaces)
    children += _more(spaces)
    children += [MembersEntry(), TeamsEntry(), SitesEntry()]
    if entry.organization.permissions.admin:
        # Listing deleted spaces is for admins: not offered to others rather than a 403.
        children.append(DeletedEntry())
    children += admin_entries(entry.organization)
    return children


async def _load_collection(client: Client, entry: CollectionEntry) -> list[Entry]:
    org = entry.parent
    while org is not None and not isinstance(org, OrgEntry):
        org = org.parent
    assert org is not None
    collection_id = entry.value.id
    if org.collections is None:
        collections, spaces = await asyncio.gather(
            _all_collections(client, org.organization.id),
            client.collections.spaces(collection_id, limit=PAGE_SIZE),
        )
        org.collections = collections
    else:
        spaces = await client.collections.spaces(collection_id, limit=PAGE_SIZE)
    children: list[Entry] = [
        CollectionEntry(collection=collection)
        for collection in sort_collections(org.collections, collection_id)
    ]
    children += [SpaceEntry(space=space) for space in spaces.items]
    children += _more(spaces)
    return children


async def load_children(client: Client, entry: Entry) -> list[Entry]:
    """The first page of an entry's children, as new entries (not yet attached)."""
    if isinstance(entry, RootEntry):
        orgs = await client.orgs.list(limit=PAGE_SIZE)
        return [OrgEntry(org=org) for org in orgs.items] + _more(orgs)
    if isinstance(entry, OrgEntry):
        return await _load_org(client, entry)
    if isinstance(entry, CollectionEntry):
        return await _load_collection(client, entry)
    if isinstance(entry, TeamsEntry):
        org = entry.parent
        assert isinstance(org, OrgEntry)
        teams = await client.teams.list(org.organization.id, limit=PAGE_SIZE)
        children: list[Entry] = [TeamEntry(team=team) for team in teams.items]
        return children + _more(teams)
    if isinstance(entry, SitesEntry):
        org = entry.parent
        assert isinstance(org, OrgEntry)
        sites = await client.sites.list(org.organization.id, limit=PAGE_SIZE)
        return [SiteEntry(site=site) for site in sites.items] + _more(sites)
    if isinstance(entry, DeletedEntry):
        org = entry.parent
        assert isinstance(org, OrgEntry)
        deleted = await client.spaces.list_deleted(org.organization.id)
        return [SpaceEntry(space=space) for space in deleted]
    return []


async def load_more(client: Client, owner: Entry, more: LoadMoreEntry) -> list[Entry]:
    """The page a "load more…" entry stands for, followed by a new one if pages remain."""
    if isinstance(owner, RootEntry):
        orgs = await client.orgs.list(page=more.page, limit=PAGE_SIZE)
        return [OrgEntry(org=org) for org in orgs.items] + _more(orgs)
    if isinstance(owner, OrgEntry):
        spaces = await client.spaces.list(owner.organization.id, page=more.page, limit=PAGE_SIZE)
        return _org_spaces(spaces) + _more(spaces)
    if isinstance(owner, CollectionEntry):
        spaces = await client.collections.spaces(owner.value.id, page=more.page, limit=PAGE_SIZE)
        return [SpaceEntry(space=space) for space in spaces.items] + _more(spaces)
    if isinstance(owner, TeamsEntry):
        org = owner.parent
        assert isinstance(org, OrgEntry)
        teams = await client.teams.list(org.organization.id, page=more.page, limit=PAGE_SIZE)
        return [TeamEntry(team=team) for team in teams.items] + _more(teams)
    if isinstance(owner, SitesEntry):
        org = owner.parent
        assert isinstance(org, OrgEntry)
        sites = await client.sites.list(org.organization.id, page=more.page, limit=PAGE_SIZE)
        return [SiteEntry(site=site) for site in sites.items] + _more(sites)
    raise ValueError(f"{type(owner).__name__} has no paged children")
