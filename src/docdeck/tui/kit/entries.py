"""The organization tree's model: what is loaded, kept apart from the Tree widget that shows it.

Keeping the loaded data in entries (not in TreeNodes) is what lets the tree be
filtered and re-rendered without a request: the widget can be rebuilt from the
entries at any time, and an entry's `children` is the per-node cache that a
refresh clears.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text

from docdeck.models import Collection, Member, Organization, Space, Team, TeamMembership
from docdeck.tui.kit.formatting import emoji_text

if TYPE_CHECKING:
    from textual.widgets.tree import TreeNode

    from docdeck.models import Site  # its module is imported on first use, not with the browser

__all__ = [
    "ADMIN_VIEWS",
    "ITS_CHILDREN",
    "ITS_DETAILS",
    "AdminEntry",
    "CollectionEntry",
    "DeletedEntry",
    "Entry",
    "FoundEntry",
    "GroupEntry",
    "LoadMoreEntry",
    "MembersEntry",
    "OrgEntry",
    "RootEntry",
    "SiteEntry",
    "SitesEntry",
    "SpaceEntry",
    "Staleness",
    "TeamEntry",
    "TeamsEntry",
    "admin_entries",
    "container_of",
    "org_of",
    "trail_of",
]


ITS_DETAILS = "its details"
ITS_CHILDREN = "the list under it"


@dataclass(frozen=True)
class Staleness:
    """What an entry shows that a refresh failed to replace, and why."""

    what: str
    """"its details", "the list under it", or both."""
    since: datetime
    """When what is shown was read."""
    failed_at: datetime
    why: str
    """The failure, one line (the server's message and status, or the connection error)."""

    def joined(self, other: Staleness) -> Staleness:
        """Both a resource and its children failed (a refresh asks for both): one note."""
        if other.what in self.what:
            return Staleness(self.what, min(self.since, other.since), self.failed_at, self.why)
        return Staleness(
            f"{self.what} and {other.what}",
            min(self.since, other.since),
            max(self.failed_at, other.failed_at),
            self.why,
        )


@dataclass(eq=False)
class Entry:
    """One node of the tree. `children` is None until loaded; it is the cache a refresh clears."""

    parent: Entry | None = field(default=None, repr=False)
    children: list[Entry] | None = field(default=None, repr=False)
    expanded: bool = False
    loading: bool = False
    failed: bool = False
    retry_helps: bool = True
    """After a failed load: whether `r` may bring another answer (not for an answer docdeck
    cannot read, an operation the server lacks, a refused role: `kit.errors.Problem`)."""
    node: TreeNode[Entry] | None = field(default=None, repr=False)
    busy: int = 0
    """Writes running on this entry (`docdeck.tui.kit.in_flight`); the tree marks it meanwhile."""
    stale: Staleness | None = None
    """Reading it again failed: what is shown is from an earlier load (the tree marks it,
    the detail pane says what, since when and why)."""
    loaded_at: datetime = field(default_factory=lambda: datetime.now().astimezone())
    """When its own resource was read (its creation from a list, or a re-read)."""
    children_loaded_at: datetime | None = None
    """When the list under it was last read."""

    @property
    def title(self) -> str:
        return ""

    @property
    def expandable(self) -> bool:
        return False

    def label(self) -> Text:
        return Text(self.title)

    def adopt(self, children: list[Entry]) -> list[Entry]:
        for child in children:
            child.parent = self
        return children


@dataclass(eq=False)
class RootEntry(Entry):
    """The invisible root: its children are the organizations."""

    @property
    def expandable(self) -> bool:
        return True


@dataclass(eq=False)
class OrgEntry(Entry):
    org: Organization | None = None
    collections: list[Collection] | None = field(default=None, repr=False)
    """Every collection of the organization, nested ones included; one request serves all levels."""
    found: FoundEntry | None = field(default=None, repr=False)
    """While the tree is filtered: spaces the server's search found that are not loaded yet."""

    @property
    def organization(self) -> Organization:
        assert self.org is not None
        return self.org

    @property
    def title(self) -> str:
        return self.organization.title

    @property
    def expandable(self) -> bool:
        return True

    def label(self) -> Text:
        return Text.assemble(("🏢 ", ""), (self.title, "bold"))


@dataclass(eq=False)
class CollectionEntry(Entry):
    collection: Collection | None = None

    @property
    def value(self) -> Collection:
        assert self.collection is not None
        return self.collection

    @property
    def title(self) -> str:
        return self.value.title

    @property
    def expandable(self) -> bool:
        return True

    def label(self) -> Text:
        return Text.assemble(("▤ ", "dim"), self.title)


@dataclass(eq=False)
class SpaceEntry(Entry):
    space: Space | None = None

    @property
    def value(self) -> Space:
        assert self.space is not None
        return self.space

    @property
    def title(self) -> str:
        return self.value.title

    @property
    def deleted(self) -> bool:
        return self.value.deletedAt is not None

    def label(self) -> Text:
        emoji = emoji_text(self.value.emoji) or "·"
        style = "dim strike" if self.deleted else ""
        return Text.assemble(f"{emoji} ", (self.title or "(untitled)", style))


@dataclass(eq=False)
class GroupEntry(Entry):
    """A fixed part of an organization (its members, teams, sites, recently deleted spaces):
    its name and icon are its label, in italics, and it holds what is listed under it."""

    NAME: ClassVar[str] = ""
    ICON: ClassVar[str] = ""
    EXPANDABLE: ClassVar[bool] = True

    @property
    def title(self) -> str:
        return self.NAME

    @property
    def expandable(self) -> bool:
        return self.EXPANDABLE

    def label(self) -> Text:
        return Text(f"{self.ICON} {self.NAME}", style="italic")


@dataclass(eq=False)
class MembersEntry(GroupEntry):
    """The organization's members; shown as a filterable table in the detail pane."""

    NAME = "Members"
    ICON = "👥"
    EXPANDABLE = False

    member_pages: dict[tuple[str, str], tuple[list[Member], str | None]] = field(
        default_factory=dict, repr=False
    )
    """Loaded members and the next page, per (search, role) filter: revisiting one is free."""
    member_filter: tuple[str, str] = ("", "")
    """The (search, role) the table last showed; coming back to Members shows it again."""


@dataclass(eq=False)
class TeamsEntry(GroupEntry):
    NAME = "Teams"
    ICON = "🤝"


@dataclass(eq=False)
class TeamEntry(Entry):
    team: Team | None = None
    memberships: list[TeamMembership] | None = field(default=None, repr=False)
    """The team's members, loaded once for the detail pane."""

    @property
    def value(self) -> Team:
        assert self.team is not None
        return self.team

    @property
    def title(self) -> str:
        return self.value.title

    def label(self) -> Text:
        return Text.assemble(self.title, (f" · {self.value.members}", "dim"))


@dataclass(eq=False)
class DeletedEntry(GroupEntry):
    """Spaces deleted in the last 7 days, which can still be restored."""

    NAME = "Recently deleted"
    ICON = "🚮"


@dataclass(eq=False)
class FoundEntry(GroupEntry):
    """The organization's spaces that match the filter on the server but are not loaded yet
    (`GET {O}/search`); shown under the organization while the filter is on."""

    NAME = "Found on the server"
    ICON = "🔎"

    query: str = ""


@dataclass(eq=False)
class SitesEntry(GroupEntry):
    """The organization's docs sites; Enter on one opens the site editor."""

    NAME = "Sites"
    ICON = "🌐"


@dataclass(eq=False)
class SiteEntry(Entry):
    site: Site | None = None

    @property
    def value(self) -> Site:
        assert self.site is not None
        return self.site

    @property
    def title(self) -> str:
        return self.value.title

    def label(self) -> Text:
        site = self.value
        state = "published" if site.published else "not published"
        count = site.siteSpaces
        return Text.assemble(
            site.title,
            (
                f" · {site.visibility} · {state} · {count} site space{'s' if count != 1 else ''}",
                "dim",
            ),
        )


@dataclass(eq=False)
class LoadMoreEntry(Entry):
    """Stands in for the next page of a list; reaching it loads that page."""

    page: str = ""

    @property
    def title(self) -> str:
        return "load more…"

    def label(self) -> Text:
        return Text("… load more", style="dim italic")


ADMIN_VIEWS: dict[str, tuple[str, str, str]] = {
    "settings": (
        "⚙",
        "Settings",
        "The organization's settings: title, email domains, hostname, default role and "
        "content, logo, SSO, AI, invite links. Enter opens them.",
    ),
    "openapi": (
        "📜",
        "OpenAPI specs",
        "The organization's OpenAPI specs: their processing, versions and content. "
        "Enter opens them.",
    ),
    "sso": (
        "🔐",
        "Single sign-on",
        "The organization's SAML identity providers, what to give the identity provider "
        "(ACS URL, entity ID) and the login entry points. Enter opens them.",
    ),
    "translations": (
        "🔤",
        "Translations",
        "Translations of the organization's spaces into other languages: their status, "
        "instructions and result spaces. Enter opens them.",
    ),
}
"""The administration views under an organization: icon, title and what the detail pane
says of it (the screens are `docdeck.tui.admin`'s)."""


@dataclass(eq=False)
class AdminEntry(Entry):
    """An organization's administration view (settings, specs, SSO, translations): Enter
    opens its screen (`OpenAdmin`)."""

    view: str = ""

    @property
    def title(self) -> str:
        return ADMIN_VIEWS[self.view][1]

    @property
    def hint(self) -> str:
        return ADMIN_VIEWS[self.view][2]

    def label(self) -> Text:
        icon, title, _hint = ADMIN_VIEWS[self.view]
        return Text(f"{icon} {title}", style="italic")


def admin_entries(organization: Organization) -> list[Entry]:
    """The administration views the caller may see: settings and single sign-on are for
    admins (the API answers 403 to others); every member reads specs and translations."""
    allowed = organization.permissions
    shown = {
        "settings": allowed.admin,
        "openapi": allowed.view,
        "sso": allowed.admin,
        "translations": allowed.view,
    }
    return [AdminEntry(view=view) for view in ADMIN_VIEWS if shown.get(view, False)]


def org_of(entry: Entry | None) -> OrgEntry | None:
    while entry is not None and not isinstance(entry, OrgEntry):
        entry = entry.parent
    return entry


def container_of(entry: Entry | None) -> OrgEntry | CollectionEntry | None:
    """The collection or organization a new space or collection goes into, given the selection."""
    if isinstance(entry, OrgEntry | CollectionEntry):
        return entry
    if isinstance(entry, SpaceEntry) and not entry.deleted:
        parent = entry.parent
        if isinstance(parent, OrgEntry | CollectionEntry):
            return parent
    return org_of(entry)


def trail_of(entry: Entry) -> list[str]:
    """The titles above a tree entry: its organization and collections, outermost first."""
    titles: list[str] = []
    parent = entry.parent
    while parent is not None:
        if isinstance(parent, OrgEntry | CollectionEntry):
            titles.append(parent.title)
        parent = parent.parent
    return titles[::-1]
