"""Markdown frontmatter of authored pages (`---` lines of `key: value`), which takes
precedence over the change's own fields, as the platform documents."""

from __future__ import annotations

from typing import Any

_KEYS = {"title", "slug", "emoji", "icon", "description", "condition"}
_FLAGS = {"hidden", "noIndex", "noRobotsIndex"}


def split_frontmatter(markdown: str) -> tuple[dict[str, Any], str]:
    if not markdown.startswith("---\n"):
        return {}, markdown
    end = markdown.find("\n---", 4)
    if end < 0:
        return {}, markdown
    found: dict[str, Any] = {}
    for line in markdown[4:end].splitlines():
        key, sep, value = line.partition(":")
        key, value = key.strip(), value.strip().strip("\"'")
        if not sep:
            continue
        if key in _KEYS:
            found[key] = value
        elif key in _FLAGS and value in ("true", "false"):
            found[key] = value == "true"
    rest = markdown[end + 4 :]
    return found, rest.lstrip("\n")
