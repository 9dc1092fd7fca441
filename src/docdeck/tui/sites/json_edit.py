"""JSON a user edits (an adaptive schema, a customization): read back with the line of the
first mistake, compared with what the server holds, and re-applied on a fresher copy.

Pure data, no I/O. A customization is replaced as a whole by its PUT, so an edit made on a
copy that someone else changed meanwhile is turned into its changes (`changes`) and those
are put on the fresh copy (`reapply`): the other client's changes elsewhere survive, and a
setting both changed is named (`Reapplied.conflicts`).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from difflib import unified_diff
from typing import Any

from rich.text import Text

__all__ = [
    "JsonProblem",
    "Reapplied",
    "changes",
    "diff_lines",
    "diff_text",
    "dump",
    "merge_patch",
    "parse_object",
    "reapply",
]

MISSING: Any = object()
"""A setting that is not there (removed, or never set)."""


@dataclass(frozen=True)
class JsonProblem:
    """Why the text is not a JSON object, and where (1-based line and column)."""

    message: str
    line: int = 1
    column: int = 1


def dump(value: Any) -> str:
    """The text a user edits: indented, keys in the server's order, non-ASCII kept."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def parse_object(text: str, what: str) -> dict[str, Any] | JsonProblem:
    """The JSON object in `text`, or what is wrong with it and on which line."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        return JsonProblem(
            f"{what} is not valid JSON: line {error.lineno}, column {error.colno}: {error.msg}.",
            error.lineno,
            error.colno,
        )
    if not isinstance(value, dict):
        kind = "a list" if isinstance(value, list) else f"a {type(value).__name__}"
        return JsonProblem(f"{what} must be a JSON object ({{…}}), not {kind}.")
    return value


def diff_lines(old: Any, new: Any, old_name: str, new_name: str) -> list[str]:
    """A unified diff of the two values as the user sees them (`dump`)."""
    return [
        line.rstrip("\n")
        for line in unified_diff(
            dump(old).splitlines(keepends=True),
            dump(new).splitlines(keepends=True),
            old_name,
            new_name,
            n=2,
        )
    ]


def diff_text(lines: list[str]) -> Text:
    text = Text()
    for line in lines:
        if line.startswith(("---", "+++")):
            style = "bold"
        elif line.startswith("@@"):
            style = "cyan"
        elif line.startswith("+"):
            style = "green"
        elif line.startswith("-"):
            style = "red"
        else:
            style = ""
        text.append(line + "\n", style=style)
    return text


Path = tuple[str, ...]


def changes(base: Any, mine: Any, at: Path = ()) -> dict[Path, Any]:
    """What turned `base` into `mine`, setting by setting: objects are compared key by key,
    anything else (a list, a string) is one setting. `MISSING`: the setting was removed."""
    if isinstance(base, dict) and isinstance(mine, dict):
        found: dict[Path, Any] = {}
        for key in [*base, *(k for k in mine if k not in base)]:
            found.update(changes(base.get(key, MISSING), mine.get(key, MISSING), (*at, key)))
        return found
    return {} if base == mine else {at: mine}


def _get(value: Any, path: Path) -> Any:
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return MISSING
        value = value[key]
    return value


def _set(value: dict[str, Any], path: Path, new: Any) -> None:
    node = value
    for key in path[:-1]:
        child = node.get(key)
        if not isinstance(child, dict):
            if new is MISSING:
                return
            child = node[key] = {}
        node = child
    if new is MISSING:
        node.pop(path[-1], None)
    else:
        node[path[-1]] = copy.deepcopy(new)


@dataclass(frozen=True)
class Reapplied:
    value: dict[str, Any]
    """The fresh copy with the user's changes on it (the user's value where both changed)."""
    conflicts: list[str] = field(default_factory=list)
    """Settings (dotted paths) the other client changed to something else than the user."""


def reapply(base: dict[str, Any], mine: dict[str, Any], fresh: dict[str, Any]) -> Reapplied:
    """The user's edit (`base` → `mine`) put on `fresh`, the copy the server holds now."""
    merged = copy.deepcopy(fresh)
    conflicts: list[str] = []
    for path, value in changes(base, mine).items():
        now = _get(fresh, path)
        if now != _get(base, path) and now != value:
            conflicts.append(".".join(path))
        _set(merged, path, value)
    return Reapplied(merged, conflicts)


def merge_patch(base: dict[str, Any], mine: dict[str, Any]) -> dict[str, Any]:
    """The JSON merge patch (objects merge key by key, null removes) from `base` to `mine`:
    what a site space's override PATCH sends, so settings the user left alone stay as the
    server has them."""
    patch: dict[str, Any] = {}
    for key in base:
        if key not in mine:
            patch[key] = None
    for key, value in mine.items():
        old = base.get(key, MISSING)
        if isinstance(old, dict) and isinstance(value, dict):
            inner = merge_patch(old, value)
            if inner:
                patch[key] = inner
        elif old != value:
            patch[key] = copy.deepcopy(value)
    return patch
