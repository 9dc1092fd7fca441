"""The readable fields of each resource, in the order a person scans them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from docdeck.models import Collection, Organization, Space, Team

if TYPE_CHECKING:
    from docdeck.models import Site  # imported on first use, not with the browser
from docdeck.tui.kit.formatting import RESTORE_WINDOW, datetime_text, emoji_text, role_text, yes_no
from docdeck.tui.orgs._field_list import Field

__all__ = ["collection_fields", "org_fields", "site_fields", "space_fields", "team_fields"]

_VISIBILITY = {
    "public": "public — anyone, indexed by search engines",
    "unlisted": "unlisted — anyone with the link, not indexed",
    "share-link": "share link — anyone with the secret link",
    "visitor-auth": "visitor authentication — signed-in visitors",
    "in-collection": "in collection — whoever can see the collection",
    "private": "private — members only",
}
_TRIAL = {"notapplicable": "not applicable", "none": "none"}
_EDIT_MODE = {"live": "live — edits go straight in", "locked": "locked — no edits"}


def _url(url: str | None) -> Text:
    if not url:
        return Text("—")
    return Text(url, style=f"link {url}")


def _can(permissions: dict[str, object]) -> Text:
    # `is True`: a field a newer platform added (kept, not a flag) is no permission.
    allowed = [name for name, value in permissions.items() if value is True]
    return Text(", ".join(allowed) if allowed else "nothing", style="dim")


def org_fields(org: Organization) -> list[Field]:
    fields: list[Field] = [
        ("Title", Text(org.title, style="bold")),
        ("Plan", org.plan),
        ("Type", org.type + (f" ({org.communityType})" if org.communityType else "")),
        ("Email domains", ", ".join(org.emailDomains) or "—"),
        ("Hostname", org.hostname or "—"),
        ("Default role", role_text(org.defaultRole)),
        ("Invite links", yes_no(org.inviteLinks)),
        ("Created", datetime_text(org.createdAt)),
        ("Trial", _TRIAL.get(org.trial.status, org.trial.status)),
        ("App URL", _url(org.urls.app)),
        ("API URL", _url(org.urls.location)),
        ("You may", _can(org.permissions.model_dump())),
    ]
    return fields


def space_fields(space: Space, collection: str | None) -> list[Field]:
    emoji = emoji_text(space.emoji)
    title = Text.assemble(f"{emoji} " if emoji else "", (space.title, "bold"))
    requests = (
        f"{space.changeRequests} total, {space.changeRequestsOpen} open, "
        f"{space.changeRequestsDraft} draft"
    )
    fields: list[Field] = [
        ("Title", title),
        ("Visibility", _VISIBILITY.get(space.visibility, space.visibility)),
        ("Edit mode", _EDIT_MODE.get(space.editMode or "", space.editMode or "—")),
        ("Collection", collection or "— (top level)"),
        ("Comments", f"{space.comments} open"),
        ("Change requests", requests),
        ("Default level", space.defaultLevel or "—"),
        ("Created", datetime_text(space.createdAt)),
        ("Updated", datetime_text(space.updatedAt)),
    ]
    if space.deletedAt is not None:
        fields.append(("Deleted", Text(datetime_text(space.deletedAt), style="red")))
        fields.append(("Restorable until", datetime_text(space.deletedAt + RESTORE_WINDOW)))
    fields += [
        ("App URL", _url(space.urls.app)),
        ("Published", _url(space.urls.published)),
        ("API URL", _url(space.urls.location)),
        ("You may", _can(space.permissions.model_dump())),
    ]
    return fields


def collection_fields(collection: Collection, parent: str | None) -> list[Field]:
    return [
        ("Title", Text(collection.title, style="bold")),
        ("Description", collection.description or "—"),
        ("Default level", collection.defaultLevel or "— (inherited)"),
        ("Parent", parent or "— (top level)"),
        ("You may", _can(collection.permissions.model_dump())),
    ]


def team_fields(team: Team) -> list[Field]:
    return [
        ("Title", Text(team.title, style="bold")),
        ("Members", str(team.members)),
        ("Spaces", str(team.spaces)),
        ("Created", datetime_text(team.createdAt)),
        ("You may", _can(team.permissions.model_dump())),
    ]


def site_fields(site: Site) -> list[Field]:
    return [
        ("Title", Text(site.title, style="bold")),
        ("Visibility", _VISIBILITY.get(site.visibility, site.visibility)),
        ("Published", yes_no(site.published)),
        ("Site spaces", str(site.siteSpaces)),
        ("Plan", site.type),
        ("Basename", site.basename or "—"),
        ("Created", datetime_text(site.createdAt)),
        ("Published URL", _url(site.urls.published)),
        ("App URL", _url(site.urls.app)),
        ("Keys", Text("enter: edit its structure · d: delete", style="dim")),
    ]
