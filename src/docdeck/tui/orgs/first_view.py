"""The first view of the last session, kept per account so the next start can paint it at once.

What is kept: the titles of the organizations and of what was open under
them, and which entries were expanded, as the tree's top showed them at exit.
Never a token, never a resource's other fields. The file is written with mode
0600 (titles can be private) and replaced atomically; a file that cannot be
read is ignored, never an error: it is only a head start. The live data
replaces it as soon as it arrives.

Standard library only: the shell reads it before any of the browser's code loads.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docdeck._cli.locations import write_private

__all__ = ["MAX_ITEMS", "FirstView", "ViewItem", "load_first_view", "save_first_view"]

FORMAT = 1
MAX_ITEMS = 120
"""More lines than any terminal shows at once: the rest would never be seen before live data."""


@dataclass
class ViewItem:
    key: str
    """What the entry is (`org:ID`, `space:ID`, ...), to restore its expanded state."""
    title: str
    expandable: bool = False
    expanded: bool = False
    children: list[ViewItem] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"key": self.key, "title": self.title}
        if self.expandable:
            data["expandable"] = True
        if self.expanded:
            data["expanded"] = True
        if self.children:
            data["children"] = [child.to_json() for child in self.children]
        return data

    @classmethod
    def from_json(cls, data: Any, depth: int = 0) -> ViewItem:
        if not isinstance(data, dict) or depth > 16:
            raise ValueError("not a view item")
        key, title = data.get("key"), data.get("title")
        if not isinstance(key, str) or not isinstance(title, str):
            raise ValueError("a view item needs a key and a title")
        children = data.get("children", [])
        if not isinstance(children, list):
            raise ValueError("children must be a list")
        return cls(
            key,
            title,
            bool(data.get("expandable", False)),
            bool(data.get("expanded", False)),
            [cls.from_json(child, depth + 1) for child in children],
        )


@dataclass
class FirstView:
    items: list[ViewItem]

    def expanded_keys(self) -> set[str]:
        found: set[str] = set()
        stack = list(self.items)
        while stack:
            item = stack.pop()
            if item.expanded:
                found.add(item.key)
                stack.extend(item.children)
        return found

    def lines(self) -> list[tuple[int, ViewItem]]:
        """(depth, item) in display order: what an expanded tree shows."""
        shown: list[tuple[int, ViewItem]] = []

        def walk(items: list[ViewItem], depth: int) -> None:
            for item in items:
                shown.append((depth, item))
                if item.expanded:
                    walk(item.children, depth + 1)

        walk(self.items, 0)
        return shown


def load_first_view(path: str | os.PathLike[str] | None) -> FirstView | None:
    """The saved view, or None (no file, or one that is not ours: it is only a head start)."""
    if path is None:
        return None
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return None
        items = [ViewItem.from_json(item) for item in data.get("items", [])]
    except (OSError, ValueError, TypeError, RecursionError):
        return None
    return FirstView(items) if items else None


def save_first_view(path: str | os.PathLike[str], view: FirstView) -> None:
    """Write atomically, created 0600 from the start; a failure is silent (it is a cache)."""
    text = json.dumps({"format": FORMAT, "items": [item.to_json() for item in view.items]})
    with contextlib.suppress(OSError):
        write_private(Path(path), text)
