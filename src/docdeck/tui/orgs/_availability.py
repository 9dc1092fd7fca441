"""Which of the browser's actions apply to the tree's selection (and the row of a detail
table), and whether the caller's `permissions` allow them (`Availability`)."""

from __future__ import annotations

from dataclasses import dataclass

from docdeck.models import Member, TeamMembership
from docdeck.tui.kit.availability import ALLOWED, NOT_HERE, Availability, allowed_if
from docdeck.tui.kit.copy_values import app_url, entry_values, member_values
from docdeck.tui.kit.entries import (
    CollectionEntry,
    DeletedEntry,
    Entry,
    MembersEntry,
    OrgEntry,
    SiteEntry,
    SitesEntry,
    SpaceEntry,
    TeamEntry,
    container_of,
    org_of,
)

__all__ = ["Selection", "availability"]


@dataclass(frozen=True)
class Selection:
    entry: Entry | None = None
    member: Member | None = None
    """The member highlighted in the Members table."""
    membership: TeamMembership | None = None
    """The team member highlighted in a team's table."""
    row_focused: bool = False
    """A detail table has focus: copying takes its highlighted row."""


_NO_CREATE = "your organization role cannot create content"
_SPACE_ADMIN = "needs the admin role in the space"
_COLLECTION_ADMIN = "needs the admin role in the collection"
_TEAM_ADMIN = "needs to be a team owner or an organization admin"


def _sites(entry: Entry | None, verb: str, *, admin: bool) -> Availability:
    """Creating a site on the Sites node (or a site under it), deleting a site."""
    if admin and not isinstance(entry, SiteEntry):
        return NOT_HERE
    if not isinstance(entry, SitesEntry | SiteEntry):
        return NOT_HERE
    org = org_of(entry)
    if org is None:
        return NOT_HERE
    permissions = org.organization.permissions
    role = "the admin role" if admin else "the create role"
    return allowed_if(
        permissions.admin or (not admin and permissions.createContent),
        f"You may not {verb}: it needs {role} in the organization.",
        f"needs {role} in the organization",
    )


def _in_container(entry: Entry | None, what: str) -> Availability:
    if isinstance(entry, SitesEntry | SiteEntry):
        return NOT_HERE  # n there creates a site
    container = container_of(entry)
    if isinstance(container, CollectionEntry):
        return allowed_if(
            container.value.permissions.create,
            f"You may not create {what} in the collection “{container.title}” "
            "(it needs the create role there).",
            "needs the create role in the collection",
        )
    if isinstance(container, OrgEntry):
        return allowed_if(
            container.organization.permissions.createContent,
            f"You may not create {what} in “{container.title}” "
            "(your organization role does not allow creating content).",
            _NO_CREATE,
        )
    return NOT_HERE


def _space_admin(entry: Entry | None, verb: str, *, deleted: bool = False) -> Availability:
    if not isinstance(entry, SpaceEntry) or entry.deleted != deleted:
        return NOT_HERE
    return allowed_if(
        entry.value.permissions.admin,
        f"You may not {verb} “{entry.title}”: it {_SPACE_ADMIN}.",
        _SPACE_ADMIN,
    )


def _collection_admin(entry: CollectionEntry, verb: str) -> Availability:
    return allowed_if(
        entry.value.permissions.admin,
        f"You may not {verb} the collection “{entry.title}”: it {_COLLECTION_ADMIN}.",
        _COLLECTION_ADMIN,
    )


def _team_admin(entry: TeamEntry, verb: str) -> Availability:
    return allowed_if(
        entry.value.permissions.admin,
        f"You may not {verb} the team “{entry.title}”: only its owners and admins may.",
        _TEAM_ADMIN,
    )


def _rename_or_delete(entry: Entry | None, verb: str) -> Availability:
    if isinstance(entry, SpaceEntry):
        return _space_admin(entry, verb)
    if isinstance(entry, CollectionEntry):
        return _collection_admin(entry, verb)
    if isinstance(entry, TeamEntry):
        return _team_admin(entry, verb)
    return NOT_HERE


def _duplicate(entry: Entry | None) -> Availability:
    if not isinstance(entry, SpaceEntry) or entry.deleted:
        return NOT_HERE
    org = org_of(entry)
    return allowed_if(
        org is None or org.organization.permissions.createContent,
        f"You may not duplicate spaces: {_NO_CREATE}.",
        _NO_CREATE,
    )


def _change_role(selection: Selection) -> Availability:
    entry = selection.entry
    if not isinstance(entry, MembersEntry) or selection.member is None:
        return NOT_HERE
    org = org_of(entry)
    return allowed_if(
        org is None or org.organization.permissions.admin,
        "Only organization admins may change a member's role.",
        "needs organization admin",
    )


def _team_members(selection: Selection, *, needs_row: bool, verb: str) -> Availability:
    entry = selection.entry
    if not isinstance(entry, TeamEntry):
        return NOT_HERE
    if needs_row and selection.membership is None:
        return NOT_HERE
    return _team_admin(entry, verb)


def _copy(selection: Selection) -> Availability:
    if selection.row_focused and member_values(selection.member or selection.membership):
        return ALLOWED
    return ALLOWED if entry_values(selection.entry) else NOT_HERE


def availability(action: str, selection: Selection) -> Availability:
    """The state of a browser action for the current selection."""
    entry = selection.entry
    match action:
        case "new_site":
            return _sites(entry, "create a site", admin=False)
        case "delete_site":
            return _sites(entry, "delete a site", admin=True)
        case "new_space":
            return _in_container(entry, "spaces")
        case "new_collection":
            return _in_container(entry, "collections")
        case "rename":
            return _rename_or_delete(entry, "rename")
        case "delete":
            return _rename_or_delete(entry, "delete")
        case "move":
            return _space_admin(entry, "move")
        case "duplicate":
            return _duplicate(entry)
        case "restore":
            if isinstance(entry, DeletedEntry):
                return NOT_HERE
            return _space_admin(entry, "restore", deleted=True)
        case "change_role":
            return _change_role(selection)
        case "add_team_member":
            return _team_members(selection, needs_row=False, verb="add members to")
        case "remove_team_member":
            return _team_members(selection, needs_row=True, verb="remove members from")
        case "toggle_team_role":
            return _team_members(selection, needs_row=True, verb="change roles in")
        case "copy" | "copy_choose":
            return _copy(selection)
        case "open":
            return ALLOWED if app_url(entry) is not None else NOT_HERE
    return ALLOWED
