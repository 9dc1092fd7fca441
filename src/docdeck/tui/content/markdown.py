"""The TUI's markdown parser: the configuration the sandbox reads page bodies with
(`docdeck.models.markdown`: CommonMark, GitHub tables, strikethrough, task lists and
alerts), built once. The page view, the block map (which pairs the server's blocks with
lines) and comment bodies all parse with it, so they agree with each other and with the
block keys the sandbox made from the same tokens."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from docdeck.models.markdown import markdown_parser

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

__all__ = ["parser"]


@cache
def parser() -> MarkdownIt:
    """The TUI's one parser (shared: render with rules of your own, never add them here)."""
    return markdown_parser()
