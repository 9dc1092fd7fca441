"""A site's structure as rows: section groups › sections › site spaces, or root site spaces.

Pure data, no I/O: the structure view draws it, local moves change it at key speed, and a
burst of moves becomes one sort request (`SortBurst`) when the keys stop.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from docdeck.models import SiteSection, SiteSectionGroup, SiteSpace

__all__ = [
    "GROUP",
    "SECTION",
    "SITE_SPACE",
    "Row",
    "SortBurst",
    "StructureModel",
    "published_path",
    "redirect_destination",
]

Kind = Literal["site-section-group", "site-section", "site-space"]
GROUP: Kind = "site-section-group"
SECTION: Kind = "site-section"
SITE_SPACE: Kind = "site-space"


@dataclass(eq=False)
class Row:
    kind: Kind
    id: str
    title: str
    value: Any
    """The API's resource (`SiteSectionGroup`, `SiteSection` or `SiteSpace`) as last read."""
    parent: Row | None = None
    children: list[Row] = field(default_factory=list)
    busy: int = 0
    """Writes running on it (`docdeck.tui.kit.in_flight`)."""

    @property
    def path(self) -> str | None:
        return getattr(self.value, "path", None)

    @property
    def default(self) -> bool:
        return bool(getattr(self.value, "default", False))

    @property
    def condition(self) -> str | None:
        return getattr(self.value, "condition", None)

    @property
    def draft(self) -> bool:
        """0.202 documents a `draft` mark on some items; shown where the server gives it."""
        extra = getattr(self.value, "model_extra", None) or {}
        return bool(extra.get("draft"))

    @property
    def space_title(self) -> str | None:
        space = getattr(self.value, "space", None)
        return getattr(space, "title", None)

    @property
    def depth(self) -> int:
        depth, parent = 0, self.parent
        while parent is not None:
            depth, parent = depth + 1, parent.parent
        return depth

    @property
    def pointer(self) -> dict[str, str]:
        return {"type": self.kind, "id": self.id}

    def describe(self) -> str:
        noun = {GROUP: "section group", SECTION: "section", SITE_SPACE: "site space"}[self.kind]
        return f"the {noun} “{self.title}”"


def _site_space_row(value: SiteSpace) -> Row:
    return Row(SITE_SPACE, value.id, value.title, value)


def _parent_row(row: Row, children: list[Row]) -> Row:
    """The row holding `children`, each of which names it as its parent."""
    row.children = children
    for child in children:
        child.parent = row
    return row


def _section_row(value: SiteSection) -> Row:
    return _parent_row(
        Row(SECTION, value.id, value.title, value),
        [_site_space_row(site_space) for site_space in value.siteSpaces],
    )


def _group_row(value: SiteSectionGroup) -> Row:
    return _parent_row(
        Row(GROUP, value.id, value.title, value),
        [_section_row(section) for section in value.sections],
    )


def published_path(row: Row) -> str:
    """The path a visitor reaches the row at, from the site's root ("/api/webhooks")."""
    segments: list[str] = []
    node: Row | None = row
    while node is not None:
        if node.kind != GROUP and node.path:
            segments.append(node.path)
        node = node.parent
    return "/" + "/".join(reversed(segments))


def redirect_destination(row: Row) -> dict[str, str]:
    """A redirect's destination that leads to the row (a section or a site space)."""
    if row.kind == SECTION:
        return {"kind": "site-section", "siteSectionId": row.id}
    return {"kind": "site-space", "siteSpaceId": row.id}


class StructureModel:
    """The rows of one site, top level first; `rows` is the flat, drawn order."""

    def __init__(self, kind: str, items: list[Any]) -> None:
        self.kind = kind
        """"sections" or "siteSpaces" (the answer's `type`)."""
        self.top: list[Row] = []
        for item in items:
            if isinstance(item, SiteSectionGroup):
                self.top.append(_group_row(item))
            elif isinstance(item, SiteSection):
                self.top.append(_section_row(item))
            elif isinstance(item, SiteSpace):
                self.top.append(_site_space_row(item))
        self.rows: list[Row] = []
        self.reflow()

    @classmethod
    def of(cls, structure: Any) -> StructureModel:
        return cls(getattr(structure, "type", ""), list(getattr(structure, "structure", [])))

    def reflow(self) -> None:
        rows: list[Row] = []

        def walk(level: list[Row]) -> None:
            for row in level:
                rows.append(row)
                walk(row.children)

        walk(self.top)
        self.rows = rows

    def siblings(self, row: Row) -> list[Row]:
        return row.parent.children if row.parent is not None else self.top

    def find(self, kind: str, item_id: str) -> Row | None:
        for row in self.rows:
            if row.kind == kind and row.id == item_id:
                return row
        return None

    def index(self, row: Row) -> int:
        return self.rows.index(row)

    def move(self, row: Row, delta: int) -> bool:
        """Swap the row with its sibling `delta` (±1) away; False at either end."""
        siblings = self.siblings(row)
        at = siblings.index(row)
        to = at + delta
        if not 0 <= to < len(siblings):
            return False
        siblings[at], siblings[to] = siblings[to], siblings[at]
        self.reflow()
        return True

    def put_back(self, row: Row, order: list[Row]) -> None:
        """A refused sort: the level as it was before the burst."""
        siblings = self.siblings(row)
        siblings[:] = [item for item in order if item in siblings] + [
            item for item in siblings if item not in order
        ]
        self.reflow()

    def sections(self) -> list[Row]:
        return [row for row in self.rows if row.kind == SECTION]

    def what_goes_with(self, row: Row) -> str:
        """For a delete confirmation: what disappears with the row."""
        if row.kind == SECTION:
            names = [f"“{child.title}” (/{child.path})" for child in row.children]
            if not names:
                return "It has no site spaces."
            return f"Its {len(names)} site space(s) go with it: {', '.join(names)}."
        if row.kind == GROUP:
            return f"Its {len(row.children)} section(s) stay, at the top level where the group was."
        return "The space itself is not deleted; only this variant leaves the site."


@dataclass
class SortBurst:
    """Moves of one row while a move key is held: the level before the first move, sent as
    one sort request once the keys stop."""

    row: Row
    before: list[Row]

    def request(self, model: StructureModel) -> dict[str, Any] | None:
        """The sort that puts the row where it is now; None when it is back where it was."""
        siblings = model.siblings(self.row)
        if [item.id for item in siblings] == [item.id for item in self.before]:
            return None
        at = siblings.index(self.row)
        if at + 1 < len(siblings):
            return {"item": self.row.pointer, "before": siblings[at + 1].pointer}
        if at > 0:
            return {"item": self.row.pointer, "after": siblings[at - 1].pointer}
        return None
