"""Creating and deleting docs sites from the tree's Sites node (functions of the browser).

A new site shows spaces picked from a searchable list, one after another (the list comes
back after each pick, with "Done" on top); none picked creates the site with a new, empty
space, as the API does for `spaces: "empty"`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docdeck.models import Site, Space
from docdeck.tui.kit.chooser import Chooser
from docdeck.tui.kit.dialogs.confirm import ConfirmDialog
from docdeck.tui.kit.dialogs.form import FormDialog, FormField
from docdeck.tui.kit.entries import Entry, OrgEntry, SiteEntry, SitesEntry, org_of
from docdeck.tui.kit.workers import read

if TYPE_CHECKING:
    from docdeck.tui.orgs._browser import OrgBrowser

__all__ = ["delete_site", "new_site"]

VISIBILITIES = ("public", "unlisted", "share-link", "visitor-auth")
SPACES_LIMIT = 1000
_DONE = "done"


def _sites_entry(entry: Entry | None) -> SitesEntry | None:
    if isinstance(entry, SiteEntry):
        entry = entry.parent
    return entry if isinstance(entry, SitesEntry) else None


def _reload(screen: OrgBrowser, sites: SitesEntry) -> None:
    if sites.expanded or sites.children is not None:
        screen.org_tree.load(sites, keep=True)


def new_site(screen: OrgBrowser) -> None:
    sites = _sites_entry(screen.org_tree.current)
    org = org_of(sites)
    if sites is None or org is None:
        return
    _read_spaces(screen, sites, org)


@read("spaces", "Reading the spaces")
async def _read_spaces(screen: OrgBrowser, sites: SitesEntry, org: OrgEntry) -> None:
    # every page: an organization of more spaces than a page holds offers them all
    found = await screen.client.spaces.list(org.organization.id, limit=SPACES_LIMIT).all()
    _pick(screen, sites, org, [space for space in found if space.deletedAt is None], [])


def _pick(
    screen: OrgBrowser, sites: SitesEntry, org: OrgEntry, spaces: list[Space], picked: list[Space]
) -> None:
    names = ", ".join(space.title for space in picked) or "none yet: a new empty space"
    items: list[tuple[str, Any]] = [(f"✓ Done — the site shows: {names}", _DONE)]
    items += [(space.title or "(untitled)", space) for space in spaces if space not in picked]

    def chosen(value: Any) -> None:
        if value is None:
            return
        if value == _DONE:
            _form(screen, sites, org, picked)
            return
        _pick(screen, sites, org, spaces, [*picked, value])

    screen.app.push_screen(Chooser("New site: pick the spaces it shows", items), chosen)


def _form(screen: OrgBrowser, sites: SitesEntry, org: OrgEntry, picked: list[Space]) -> None:
    client = screen.client

    async def create(values: dict[str, str]) -> Site:
        spaces: list[str] | str = [space.id for space in picked] or "empty"
        return await client.sites.create(
            org.organization.id,
            title=values["title"].strip(),
            visibility=values["visibility"],  # type: ignore[arg-type]
            spaces=spaces,  # type: ignore[arg-type]
        )

    def created(site: Site) -> None:
        screen.notify(f"Created the site “{site.title}”.", title="Site created")
        _reload(screen, sites)

    async def reread() -> None:
        _reload(screen, sites)

    title = picked[0].title if picked else ""
    screen.open_write(
        FormDialog(
            f"New site in {org.title}",
            [
                FormField("title", "Title", title, required=True, max_length=128),
                FormField("visibility", "Visibility", "public", choices=VISIBILITIES),
            ],
            create,
            doing=f"Creating a site in {org.title}",
            action_label="Create",
        ),
        sites,
        "new_site",
        applied=created,
        reread=reread,
    )


def delete_site(screen: OrgBrowser) -> None:
    entry = screen.org_tree.current
    if not isinstance(entry, SiteEntry):
        return
    org = org_of(entry)
    sites = _sites_entry(entry)
    if org is None or sites is None:
        return
    _ask_delete(screen, entry, org, sites)


@read(
    "site-delete",
    lambda screen, entry, org, sites: f"Reading {entry.value.title}",
    opens_a_screen=True,
)
async def _ask_delete(
    screen: OrgBrowser, entry: SiteEntry, org: OrgEntry, sites: SitesEntry
) -> None:
    """What goes with the site (its sections or site spaces, its share links), read before
    asking."""
    client = screen.client
    org_id, site = org.organization.id, entry.value
    structure = await client.sites.structure.get(org_id, site.id)
    names = [item.title for item in getattr(structure, "structure", [])]
    links: list[str] = []
    if org.organization.permissions.admin:
        links = [
            link.name or link.id async for link in client.sites.share_links.list(org_id, site.id)
        ]
    kind = "sections" if getattr(structure, "type", "") == "sections" else "site spaces"
    question = f"Delete the site “{site.title}”? Visitors lose it at once."
    question += f"\nIts {kind} go with it: {', '.join(names) or 'none'}."
    question += f"\nIts share links stop working: {', '.join(links) or 'none'}."
    question += "\nThe spaces themselves are not deleted."

    async def delete() -> None:
        await client.sites.delete(org_id, site.id)

    async def reread() -> None:
        _reload(screen, sites)

    screen.open_write(
        ConfirmDialog(f"Delete {site.title}", question, delete, doing=f"Deleting “{site.title}”"),
        entry,
        "delete_site",
        applied=lambda _none: _reload(screen, sites),
        reread=reread,
    )
