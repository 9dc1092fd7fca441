"""Which entries the org tree's filter shows: pure functions of the entries and the text.

Kept apart from the widget so the rules (a match shows its ancestors, "load more"
lines hide, the server's found spaces count only under their organization) can be
read and changed in one place.
"""

from __future__ import annotations

from docdeck.tui.kit.entries import Entry, FoundEntry, LoadMoreEntry, OrgEntry

__all__ = ["children_of", "first_match", "matches", "visible"]


def matches(text: str, entry: Entry) -> bool:
    return text.casefold() in entry.title.casefold()


def children_of(text: str, entry: Entry) -> list[Entry]:
    """The loaded children, and while filtering an organization's server search results."""
    children = list(entry.children or ())
    if text and isinstance(entry, OrgEntry) and entry.found is not None:
        children.append(entry.found)
    return children


def visible(text: str, entry: Entry) -> bool:
    if not text:
        return True
    if isinstance(entry, LoadMoreEntry):
        return False
    if matches(text, entry) and not isinstance(entry, FoundEntry):
        return True
    return any(visible(text, child) for child in children_of(text, entry))


def first_match(text: str, entry: Entry) -> Entry | None:
    """The first entry under `entry` whose title matches, in the order the tree shows them."""
    for child in children_of(text, entry):
        if isinstance(child, FoundEntry):
            found = first_match(text, child)
            if found is not None:
                return found
            continue
        if matches(text, child):
            return child
        found = first_match(text, child)
        if found is not None:
            return found
    return None
