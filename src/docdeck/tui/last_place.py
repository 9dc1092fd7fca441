"""Where the user was, kept per account so the next start returns there.

The deepest place the screens in the stack show: a change request's review pane
(its space and number), a space and the page read in it (and whether the page or
the page tree had the keys), a site's editor, or else the org tree's cursor; the
tree's cursor is kept beside any of them (Escape lands where it was). It is saved
when the screen in front changes and every few seconds while the page read
changes (so a crash or a kill keeps it) and at exit; it is restored on the next
start on the same account and server only (the file sits next to that account's
first-view cache, whose name says which), once the tree is live, in the
background, so the first frame never waits for it. `docdeck open` wins over it.

What is kept: ids and a number, never a title or a token. The file is written
0600 and replaced atomically; a file that cannot be read is ignored (it is a
convenience, never an error). Standard library only: read before the browser's
code loads.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from docdeck._cli.locations import write_private

__all__ = ["FORMAT", "Place", "load_place", "place_of", "place_path", "save_place"]

FORMAT = 1
KINDS = ("tree", "space", "change_request", "site")


@dataclass(frozen=True)
class Place:
    kind: str = "tree"
    node: str | None = None
    """The org tree's cursor (`space:ID`, `collection:ID`, …: `first_view_capture.entry_key`)."""
    space: str | None = None
    page: str | None = None
    reading: bool = False
    """The page had the keys (not the page tree): it gets them again."""
    change_request: str | None = None
    """The change request's number (as `docdeck open` takes it)."""
    organization: str | None = None
    site: str | None = None

    def to_json(self) -> dict[str, Any]:
        data = {key: value for key, value in asdict(self).items() if value not in (None, False)}
        return {"format": FORMAT, **data}

    @classmethod
    def from_json(cls, data: Any) -> Place:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError("not a place")
        kind = data.get("kind", "tree")
        if kind not in KINDS:
            raise ValueError(f"unknown kind {kind!r}")
        values: dict[str, Any] = {"kind": kind, "reading": data.get("reading") is True}
        for name in ("node", "space", "page", "change_request", "organization", "site"):
            value = data.get(name)
            if value is not None and (not isinstance(value, str) or not 0 < len(value) <= 200):
                raise ValueError(f"{name} must be an id")
            values[name] = value
        place = cls(**values)
        if kind in ("space", "change_request") and not place.space:
            raise ValueError("a space place needs its space")
        if kind == "change_request" and not place.change_request:
            raise ValueError("a change request place needs its number")
        if kind == "site" and not (place.site and place.organization):
            raise ValueError("a site place needs its site and organization")
        return place


def place_path(first_view: str | os.PathLike[str] | None) -> Path | None:
    """The place file of the account whose first-view cache is `first_view` (None: kept
    nowhere, as when the account keeps no first view)."""
    if first_view is None:
        return None
    path = Path(first_view)
    return path.with_name(f"{path.stem}.place.json")


def load_place(path: Path | None) -> Place | None:
    if path is None:
        return None
    try:
        return Place.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError, RecursionError):
        return None


def save_place(path: Path, place: Place) -> None:
    """Write atomically, 0600; a failure is silent (it is a convenience)."""
    with contextlib.suppress(OSError):
        write_private(path, json.dumps(place.to_json()))


def place_of(stack: list[Any], node: str | None) -> Place:
    """The deepest place the screen stack shows (dialogs, the inbox and the admin screens
    are not places: the screen below them is), with the org tree's cursor `node`."""
    for screen in reversed(stack):
        own = getattr(screen, "resume_place", None)
        if callable(own):  # the screen says (as a dict of `Place`'s fields: no import here)
            found = own()
            if isinstance(found, dict):
                return Place(**{**found, "node": node})
            continue
        change_request = getattr(screen, "change_request", None)
        space = getattr(screen, "space", None)
        number = getattr(change_request, "number", None)
        space_id = getattr(space, "id", None)
        if number is not None and isinstance(space_id, str):
            return Place("change_request", node, space=space_id, change_request=str(number))
        site_id = getattr(getattr(screen, "site", None), "id", None)
        org_id = getattr(getattr(screen, "organization", None), "id", None)
        if isinstance(site_id, str) and isinstance(org_id, str):
            return Place("site", node, organization=org_id, site=site_id)
    return Place("tree", node)
