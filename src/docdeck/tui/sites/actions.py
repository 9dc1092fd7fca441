"""The site editor's actions, declared once: id, keys, words, and when each is unavailable
and why. The screen's bindings, its footer, `?` help and the palette all read this list.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual.binding import Binding

from docdeck.models import Organization
from docdeck.tui.kit.availability import ALLOWED, NOT_HERE, Availability, allowed_if
from docdeck.tui.kit.bindings import binder
from docdeck.tui.sites.structure_model import GROUP, SECTION, SITE_SPACE, Row

__all__ = [
    "SITE_ACTIONS",
    "SiteAction",
    "SiteContext",
    "site_availability",
    "site_bindings",
    "write_refusal",
]

_b = binder("site")

_CREATE = "needs the create role in the organization"
_ADMIN = "needs the admin role in the organization"


@dataclass(frozen=True)
class SiteContext:
    """What availability depends on: the caller's role, the highlighted row, the cut row."""

    organization: Organization
    row: Row | None
    cut: Row | None
    sections: bool
    """The site has sections (or groups); else root site spaces."""


def _may_write(context: SiteContext, verb: str) -> Availability:
    permissions = context.organization.permissions
    return allowed_if(
        permissions.createContent or permissions.admin,
        f"You may not {verb}: changing a site's structure {_CREATE}.",
        _CREATE,
    )


def write_refusal(organization: Organization, verb: str) -> str:
    """Why the caller may not `verb` ("" when they may): for a dialog that shows a document
    to everyone and saves it for writers only."""
    permissions = organization.permissions
    if permissions.createContent or permissions.admin:
        return ""
    return f"you may not {verb}: it {_CREATE}."


def _on(kinds: tuple[str, ...], verb: str) -> Callable[[SiteContext], Availability]:
    def check(context: SiteContext) -> Availability:
        if context.row is None or context.row.kind not in kinds:
            return NOT_HERE
        return _may_write(context, verb)

    return check


def _any(verb: str) -> Callable[[SiteContext], Availability]:
    def check(context: SiteContext) -> Availability:
        return _may_write(context, verb)

    return check


def _admin(verb: str) -> Callable[[SiteContext], Availability]:
    def check(context: SiteContext) -> Availability:
        return allowed_if(
            context.organization.permissions.admin, f"You may not {verb}: it {_ADMIN}.", _ADMIN
        )

    return check


def _paste(context: SiteContext) -> Availability:
    if context.cut is None or context.row is None:
        return NOT_HERE
    return _may_write(context, "move it")


def _add_site_space(context: SiteContext) -> Availability:
    if context.sections and (context.row is None or context.row.kind == GROUP):
        return NOT_HERE
    return _may_write(context, "add a site space")


def _make_default(context: SiteContext) -> Availability:
    row = context.row
    if row is None or row.kind == GROUP or row.default:
        return NOT_HERE
    return _may_write(context, "change the default")


def _always(context: SiteContext) -> Availability:
    return ALLOWED


@dataclass(frozen=True)
class SiteAction:
    action: str
    keys: str
    description: str
    tooltip: str
    available: Callable[[SiteContext], Availability] = _always
    show: bool = True


SITE_ACTIONS: tuple[SiteAction, ...] = (
    SiteAction("back", "escape", "Back", "Drop the cut row, or go back to the tree"),
    SiteAction(
        "move_down",
        "ctrl+j,J",
        "Move down",
        "Move the row down among its siblings (hold: one request when the keys stop)",
        _on((GROUP, SECTION, SITE_SPACE), "reorder the structure"),
    ),
    SiteAction(
        "move_up",
        "ctrl+k,K",
        "Move up",
        "Move the row up among its siblings (hold: one request when the keys stop)",
        _on((GROUP, SECTION, SITE_SPACE), "reorder the structure"),
    ),
    SiteAction(
        "cut",
        "x",
        "Cut",
        "Cut a section (to move it into or out of a group) or a site space (to another section)",
        _on((SECTION, SITE_SPACE), "move it"),
    ),
    SiteAction("paste", "p", "Paste", "Move the cut row here (says first what it sends)", _paste),
    SiteAction(
        "new_section",
        "n",
        "New section",
        "Add a section showing a space, in the group the cursor is in",
        _any("add a section"),
    ),
    SiteAction(
        "new_group", "N", "New group", "Add a section group (title, icon)", _any("add a group")
    ),
    SiteAction(
        "add_site_space",
        "s",
        "Add variant",
        "Add a site space (a space shown as a variant) to the highlighted section",
        _add_site_space,
    ),
    SiteAction(
        "edit",
        "e",
        "Edit",
        "Rename, or change the path, icon or description of the highlighted row",
        _on((GROUP, SECTION, SITE_SPACE), "edit the structure"),
    ),
    SiteAction(
        "condition",
        "c",
        "Condition",
        "Set or remove the visitor condition of a section or site space",
        _on((SECTION, SITE_SPACE), "change a condition"),
    ),
    SiteAction(
        "make_default", "m", "Make default", "Make it the default of its level", _make_default
    ),
    SiteAction(
        "delete",
        "d,delete",
        "Delete",
        "Delete the highlighted row (asks first, naming what goes with it)",
        _on((GROUP, SECTION, SITE_SPACE), "delete from the structure"),
    ),
    SiteAction(
        "settings",
        "S",
        "Settings",
        "Title, visibility, basename, proxy, agents context, adaptive content (one save)",
        _any("change the site's settings"),
    ),
    SiteAction(
        "publish",
        "P",
        "Publish/unpublish",
        "Publish the site, or take it offline",
        _admin("publish or unpublish the site"),
    ),
    SiteAction(
        "share_links",
        "L",
        "Share links",
        "List, create, rename, turn on/off, delete share links; y copies a link's URL",
        _admin("see the share links (their URLs hold secrets)"),
    ),
    SiteAction(
        "redirects",
        "R",
        "Redirects",
        "List, add, edit, delete redirects, and look up a path",
        _any("change redirects"),
    ),
    SiteAction(
        "adaptive_schema",
        "A",
        "Adaptive schema",
        "The visitor claims conditions may use; edit them as JSON (ctrl+o: $EDITOR), "
        "with the diff before saving",
    ),
    SiteAction(
        "customize",
        "C",
        "Customize",
        "The site's customization (or a site space's) as JSON in $EDITOR, the diff, then save "
        "(read again first: changes made meanwhile are kept)",
        _any("customize the site"),
    ),
    SiteAction(
        "published",
        "v",
        "Published view",
        "The structure a visitor sees (sections, variants, paths), with or without a share "
        "key; o opens the served page",
    ),
    SiteAction("refresh", "r", "Refresh", "Read the site's structure again"),
    SiteAction("copy", "y", "Copy", "Copy the highlighted row's published URL, or its id"),
)
"""Actions whose availability depends on the row and the caller's role, in footer order."""

_BY_ACTION = {item.action: item for item in SITE_ACTIONS}


def site_availability(action: str, context: SiteContext) -> Availability:
    item = _BY_ACTION.get(action)
    return item.available(context) if item is not None else ALLOWED


def site_bindings() -> list[Binding]:
    return [
        Binding(
            "question_mark", "app.help", "Help", id="app.help", tooltip="Every key and what it does"
        ),
        *(
            _b(item.keys, item.action, item.description, item.tooltip, show=item.show)
            for item in SITE_ACTIONS
        ),
    ]
