"""The page tree of a snapshot: children in order, and each page's path from its slugs.

Entries store only their `parent` and `position`; order and paths are derived here, so a
rename or a move changes one entry and every path below it follows.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from docdeck.server.content.snapshots import Entry, Snapshot, cached_snapshot, recorded_changes


def unique_slug(slug: str, taken: set[str]) -> str:
    if slug not in taken:
        return slug
    n = 2
    while f"{slug}-{n}" in taken:
        n += 1
    return f"{slug}-{n}"


@dataclass(frozen=True)
class PageTree:
    children: dict[str | None, list[str]]
    paths: dict[str, str]
    order: list[str]
    """Every page id, depth first, parents before children."""
    index: dict[str, str] = field(default_factory=dict, compare=False)
    position: dict[str, int] = field(default_factory=dict, compare=False)

    def kids(self, parent: str | None) -> list[str]:
        return self.children.get(parent, [])

    def by_path_index(self) -> dict[str, str]:
        """path -> page id (built once per tree)."""
        if not self.index:
            self.index.update({path: page_id for page_id, path in self.paths.items()})
        return self.index

    def positions(self) -> dict[str, int]:
        """page id -> its index in `order` (built once per tree)."""
        if not self.position:
            self.position.update({page_id: n for n, page_id in enumerate(self.order)})
        return self.position

    def descendants(self, page_id: str) -> list[str]:
        out: list[str] = []
        stack = list(reversed(self.kids(page_id)))
        while stack:
            current = stack.pop()
            out.append(current)
            stack.extend(reversed(self.kids(current)))
        return out


def build_tree(pages: dict[str, Entry]) -> PageTree:
    children: dict[str | None, list[str]] = {}
    for page_id, entry in pages.items():
        parent = entry.get("parent")
        if parent is not None and parent not in pages:
            parent = None  # an orphan (should not happen) is shown at the top level
        children.setdefault(parent, []).append(page_id)
    for ids in children.values():
        ids.sort(key=lambda i: (pages[i].get("position", 0.0), i))
    paths: dict[str, str] = {}
    order: list[str] = []
    stack: list[tuple[str, str]] = [(i, "") for i in reversed(children.get(None, []))]
    while stack:
        page_id, prefix = stack.pop()
        order.append(page_id)
        entry = pages[page_id]
        if entry.get("type") == "link":
            continue
        path = f"{prefix}/{entry['slug']}" if prefix else entry["slug"]
        paths[page_id] = path
        stack.extend((kid, path) for kid in reversed(children.get(page_id, [])))
    return PageTree(children, paths, order)


_PLACE = ("parent", "slug", "type", "position")


def same_tree(old: Snapshot, new: Snapshot, changed: set[str] | None = None) -> bool:
    """True when the two snapshots have the same pages in the same places with the same
    slugs (only bodies, titles and other fields differ), so their trees are equal.
    `changed`, when known, holds at least every page whose entry differs."""
    if changed is None:
        recorded = recorded_changes(old, new)
        if recorded is not None:
            changed = {item_id for kind, item_id in recorded if kind == "page"}
    if changed is None:
        if old.pages.keys() != new.pages.keys():
            return False
        changed = {
            p for p in new.pages if old.hashes.get(("page", p)) != new.hashes.get(("page", p))
        }
    # A page added or removed is among `changed`: the other pages are in both.
    return all(
        p in old.pages
        and p in new.pages
        and tuple(old.pages[p].get(k) for k in _PLACE) == tuple(new.pages[p].get(k) for k in _PLACE)
        for p in changed
    )


def tree_of(snapshot: Snapshot) -> PageTree:
    """The snapshot's tree, built once; the parent revision's when the change kept it."""
    found = snapshot.derived.get("tree")
    if found is None:
        parent = cached_snapshot(snapshot.info.parents[0]) if snapshot.info.parents else None
        if parent is not None and "tree" in parent.derived and same_tree(parent, snapshot):
            found = parent.derived["tree"]
        else:
            found = build_tree(snapshot.pages)
        snapshot.derived["tree"] = found
    assert isinstance(found, PageTree)
    return found


def normalize_path(path: str) -> str:
    """A path as a client may write it: leading or trailing slashes, `.md`, percent-free."""
    cleaned = path.strip().strip("/")
    if cleaned.endswith("/README.md"):
        cleaned = cleaned[: -len("/README.md")]
    elif cleaned.endswith(".md"):
        cleaned = cleaned[:-3]
    return cleaned
