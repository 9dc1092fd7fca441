"""A change request's changes (`GET {CR}/changes`) as the review pane lists them: one entry
per page (a page both edited and moved is one entry with both), then files and variables.

The API reports each kind of change separately; a reviewer thinks in pages. Which sides a
page exists on follows from the kinds: an added page has no base, a deleted one no change
request side, so its diff is against an empty text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from docdeck.models import (
    FileCreated,
    FileDeleted,
    FileEdited,
    PageCreated,
    PageDeleted,
    PageEdited,
    PageMoved,
    RevisionSemanticChanges,
    VariablesEdited,
)
from docdeck.tui.review.first_reads import body_changed

__all__ = ["ChangedPage", "OtherChange", "ReviewChanges", "review_changes"]

KIND_ORDER = ("added", "edited", "moved", "deleted")


@dataclass
class ChangedPage:
    page_id: str
    title: str
    path: str | None
    kinds: list[str] = field(default_factory=list)
    attributes: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    """Attribute name (title, slug, emoji, ...) to (before, after); the body is `document`."""
    moved_from: str | None = None
    moved_to: str | None = None

    @property
    def in_base(self) -> bool:
        return "added" not in self.kinds

    @property
    def in_change(self) -> bool:
        return "deleted" not in self.kinds

    @property
    def body_changed(self) -> bool:
        return body_changed(self.kinds, self.attributes)

    @property
    def mark(self) -> str:
        if "added" in self.kinds:
            return "+"
        if "deleted" in self.kinds:
            return "-"
        if "edited" in self.kinds:
            return "~"
        return "→"

    def attribute_lines(self) -> list[tuple[str, str, str]]:
        """(what, before, after) for every change besides the body: shown above the diff."""
        lines: list[tuple[str, str, str]] = []
        for name, (before, after) in self.attributes.items():
            if name == "document":
                continue
            lines.append((name, _value(before), _value(after)))
        if "moved" in self.kinds:
            lines.append(
                ("moved", self.moved_from or "the top level", self.moved_to or "the top level")
            )
        return lines


@dataclass(frozen=True)
class OtherChange:
    mark: str
    text: str


@dataclass
class ReviewChanges:
    pages: list[ChangedPage]
    others: list[OtherChange]
    more: int = 0

    def count(self, kind: str) -> int:
        return sum(1 for page in self.pages if kind in page.kinds)

    def summary(self) -> str:
        parts = [f"{self.count(k)} {k}" for k in KIND_ORDER if self.count(k)]
        files = sum(1 for other in self.others if other.text.startswith("file"))
        if files:
            parts.append(f"{files} file{'s' if files != 1 else ''}")
        if len(self.others) > files:
            parts.append("variables")
        if self.more:
            parts.append(f"{self.more} more not listed")
        return " · ".join(parts) or "no changes"


def _value(value: Any) -> str:
    if value is None or value == "":
        return "(none)"
    return str(value)


def review_changes(changes: RevisionSemanticChanges) -> ReviewChanges:
    pages: dict[str, ChangedPage] = {}
    others: list[OtherChange] = []

    def entry(page: Any) -> ChangedPage:
        found = pages.get(page.id)
        if found is None:
            found = pages[page.id] = ChangedPage(page.id, page.title, page.path)
        return found

    for change in changes.changes:
        if isinstance(change, PageCreated):
            entry(change.page).kinds.append("added")
        elif isinstance(change, PageDeleted):
            entry(change.page).kinds.append("deleted")
        elif isinstance(change, PageEdited):
            page = entry(change.page)
            page.kinds.append("edited")
            for name, attribute in change.attributes.items():
                page.attributes[name] = (attribute.before, attribute.after)
        elif isinstance(change, PageMoved):
            page = entry(change.page)
            page.kinds.append("moved")
            page.moved_from = change.parent.before.title if change.parent.before else None
            page.moved_to = change.parent.after.title if change.parent.after else None
        elif isinstance(change, FileCreated):
            others.append(OtherChange("+", f"file added: {change.file.name}"))
        elif isinstance(change, FileDeleted):
            others.append(OtherChange("-", f"file deleted: {change.file.name}"))
        elif isinstance(change, FileEdited):
            others.append(OtherChange("~", f"file edited: {change.file.name}"))
        elif isinstance(change, VariablesEdited):
            others.append(OtherChange("~", f"variables edited: {', '.join(change.variables)}"))
        else:
            others.append(OtherChange("·", str(getattr(change, "type", "change"))))
    return ReviewChanges(list(pages.values()), others, changes.more or 0)
