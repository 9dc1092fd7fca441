"""What `y` (copy) and `o` (open) act on: the values a selection offers, most useful first.

The rule `y` follows is the first value: the id of the selected resource in the
tree, or of the highlighted row's member in a table (ids are what the API and
the CLI take). `Y` offers all of them in a chooser.
"""

from __future__ import annotations

from dataclasses import dataclass

from docdeck.models import Member, TeamMembership
from docdeck.tui.kit.entries import CollectionEntry, Entry, OrgEntry, SpaceEntry, TeamEntry

__all__ = ["CopyValue", "app_url", "entry_values", "member_values"]


@dataclass(frozen=True)
class CopyValue:
    label: str
    """What the value is ("Space id", "App URL"), for the chooser and the notification."""
    value: str


def app_url(entry: Entry | None) -> str | None:
    """The resource's page in the platform's web app (`urls.app`), if it has one."""
    if isinstance(entry, OrgEntry):
        return entry.organization.urls.app
    if isinstance(entry, SpaceEntry | CollectionEntry):
        return entry.value.urls.app
    return None


def entry_values(entry: Entry | None) -> list[CopyValue]:
    values: list[CopyValue] = []
    if isinstance(entry, OrgEntry):
        org = entry.organization
        values = [
            CopyValue("Organization id", org.id),
            CopyValue("App URL", org.urls.app),
            CopyValue("API URL", org.urls.location),
            CopyValue("Title", org.title),
        ]
    elif isinstance(entry, SpaceEntry):
        space = entry.value
        values = [
            CopyValue("Space id", space.id),
            CopyValue("App URL", space.urls.app),
            CopyValue("API URL", space.urls.location),
        ]
        if space.urls.published:
            values.append(CopyValue("Published URL", space.urls.published))
        values.append(CopyValue("Title", space.title))
    elif isinstance(entry, CollectionEntry):
        collection = entry.value
        values = [
            CopyValue("Collection id", collection.id),
            CopyValue("App URL", collection.urls.app),
            CopyValue("API URL", collection.urls.location),
            CopyValue("Title", collection.title),
        ]
    elif isinstance(entry, TeamEntry):
        values = [CopyValue("Team id", entry.value.id), CopyValue("Title", entry.title)]
    return values


def member_values(member: Member | TeamMembership | None) -> list[CopyValue]:
    """A table row's member: the user id first (the key of the row and of every member call)."""
    if isinstance(member, TeamMembership):
        member = member.organization
    if member is None:
        return []
    values = [CopyValue("User id", member.id)]
    if member.user.email:
        values.append(CopyValue("Email", member.user.email))
    values.append(CopyValue("Name", member.user.displayName))
    return values
