"""What `y` (copy) and `o` (open) act on: the values a selection offers, most useful first.

The rule `y` follows is the first value: the id of the selected resource in the
tree, or of the highlighted row's member in a table (ids are what the API and
the CLI take). `Y` offers all of them in a chooser.

The tree's entries and the member models are imported by the functions that read them:
`CopyValue` is in every screen's first imports (a review pane opened first, `docdeck
open`, has no tree, and its first diff does not wait for the entries' 16 dataclasses).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from docdeck.models import (
        CollectionUrls,
        Member,
        OrganizationUrls,
        SpaceUrls,
        TeamMembership,
    )
    from docdeck.tui.kit.entries import Entry

__all__ = ["CopyValue", "app_url", "entry_values", "member_values"]


@dataclass(frozen=True)
class CopyValue:
    label: str
    """What the value is ("Space id", "App URL"), for the chooser and the notification."""
    value: str


def app_url(entry: Entry | None) -> str | None:
    """The resource's page in the platform's web app (`urls.app`), if it has one."""
    from docdeck.tui.kit.entries import CollectionEntry, OrgEntry, SpaceEntry

    if isinstance(entry, OrgEntry):
        return entry.organization.urls.app
    if isinstance(entry, SpaceEntry | CollectionEntry):
        return entry.value.urls.app
    return None


def _resource_values(
    kind: str,
    resource_id: str,
    title: str,
    urls: OrganizationUrls | SpaceUrls | CollectionUrls,
    published: str | None = None,
) -> list[CopyValue]:
    """An organization's, space's or collection's values: its id, its pages in the app and
    the API, where it is published (spaces that are), its title."""
    values = [
        CopyValue(f"{kind} id", resource_id),
        CopyValue("App URL", urls.app),
        CopyValue("API URL", urls.location),
    ]
    if published:
        values.append(CopyValue("Published URL", published))
    values.append(CopyValue("Title", title))
    return values


def entry_values(entry: Entry | None) -> list[CopyValue]:
    from docdeck.tui.kit.entries import CollectionEntry, OrgEntry, SpaceEntry, TeamEntry

    values: list[CopyValue] = []
    if isinstance(entry, OrgEntry):
        org = entry.organization
        values = _resource_values("Organization", org.id, org.title, org.urls)
    elif isinstance(entry, SpaceEntry):
        space = entry.value
        values = _resource_values("Space", space.id, space.title, space.urls, space.urls.published)
    elif isinstance(entry, CollectionEntry):
        collection = entry.value
        values = _resource_values("Collection", collection.id, collection.title, collection.urls)
    elif isinstance(entry, TeamEntry):
        values = [CopyValue("Team id", entry.value.id), CopyValue("Title", entry.title)]
    return values


def member_values(member: Member | TeamMembership | None) -> list[CopyValue]:
    """A table row's member: the user id first (the key of the row and of every member call)."""
    from docdeck.models import TeamMembership

    if isinstance(member, TeamMembership):
        member = member.organization
    if member is None:
        return []
    values = [CopyValue("User id", member.id)]
    if member.user.email:
        values.append(CopyValue("Email", member.user.email))
    values.append(CopyValue("Name", member.user.displayName))
    return values
