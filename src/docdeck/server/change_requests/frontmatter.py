"""Markdown frontmatter of authored pages, which takes precedence over the change's own
fields, as the platform documents.

The block is found by mdit-py-plugins' front-matter rule (a `---` line first, the next
`---` line closes it; Windows line endings too) and read as the YAML it is, with
`yaml.safe_load`: quoted strings with escapes, folded (`>`) and literal (`|`) blocks and
YAML's booleans all mean what they say. Only the page fields below are taken from it.
"""

from __future__ import annotations

import datetime
from functools import cache
from typing import Any

from markdown_it import MarkdownIt

__all__ = ["FrontmatterError", "split_frontmatter"]

_KEYS = {"title", "slug", "emoji", "icon", "description", "condition"}
_FLAGS = {"hidden", "noIndex", "noRobotsIndex"}


class FrontmatterError(ValueError):
    """The block is not YAML key: value pairs; the message names the line of the document."""


@cache
def _parser() -> MarkdownIt:
    from mdit_py_plugins.front_matter import front_matter_plugin

    # "zero" runs no block rule but paragraphs, so finding the block costs little.
    return MarkdownIt("zero").use(front_matter_plugin)


def split_frontmatter(markdown: str) -> tuple[dict[str, Any], str]:
    """The whitelisted fields of the frontmatter, and the markdown after it."""
    if not markdown.startswith("---"):
        return {}, markdown
    tokens = _parser().parse(markdown)
    if not tokens or tokens[0].type != "front_matter" or tokens[0].map is None:
        return {}, markdown
    block, end = tokens[0].content, tokens[0].map[1]
    rest = "".join(markdown.splitlines(keepends=True)[end:]).lstrip("\r\n")
    return _fields(_load(block)), rest


def _load(block: str) -> dict[str, Any]:
    import yaml

    try:
        data = yaml.safe_load(block)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        # The document's line: the block starts on line 2, after the opening `---`.
        where = f"frontmatter line {mark.line + 2}" if mark is not None else "frontmatter"
        raise FrontmatterError(f"{where}: {problem} (it must be YAML key: value pairs)") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise FrontmatterError("frontmatter must be YAML key: value pairs")
    return data


def _fields(data: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in data.items():
        if key in _KEYS:
            if value is None:
                found[key] = ""
            elif isinstance(value, str):
                found[key] = value.strip()
            elif isinstance(value, int | float | datetime.date) and not isinstance(value, bool):
                found[key] = str(value)
            else:
                raise FrontmatterError(f"frontmatter {key}: must be text (put it in quotes)")
        elif key in _FLAGS:
            if not isinstance(value, bool):
                raise FrontmatterError(f"frontmatter {key}: must be true or false")
            found[key] = value
    return found
