"""What the space screen reads out of a page's markdown without rendering it.

Headings (for the table of contents and `#anchor` jumps) and links (to follow them
from the keyboard) are found with a line scan that skips fenced code, not with a full
markdown parse: a 1 MB page is scanned in a few milliseconds, where markdown-it takes
a tenth of a second and more (the rendered view parses it, in its own thread). Anchors are
made the way the sandbox makes them (GitHub style, ASCII, unique in the page), so a
link's `#anchor`, a search hit's section and the table of contents agree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from docdeck.models import anchor_slug

__all__ = ["Heading", "PageLink", "anchor_slug", "headings", "links"]

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$")
_LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_INLINE_MARKUP = re.compile(r"[*_`~]|!?\[([^\]]*)\]\([^)]*\)")


def _plain(text: str) -> str:
    return _INLINE_MARKUP.sub(lambda m: m.group(1) or "", text).strip()


@dataclass(frozen=True)
class Heading:
    level: int
    title: str
    anchor: str
    line: int
    """0-based line of the page's markdown."""


@dataclass(frozen=True)
class PageLink:
    text: str
    href: str
    line: int
    image: bool = False


def _lines_outside_fences(markdown: str) -> list[tuple[int, str, bool]]:
    """(line number, line, inside a fence) for every line."""
    out: list[tuple[int, str, bool]] = []
    fence: str | None = None
    for number, line in enumerate(markdown.split("\n")):
        match = _FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)[0] * 3
            out.append((number, line, True))
            continue
        if fence is not None:
            out.append((number, line, True))
            if match and match.group(1).startswith(fence):
                fence = None
            continue
        out.append((number, line, False))
    return out


def headings(markdown: str) -> list[Heading]:
    seen: dict[str, int] = {}
    found: list[Heading] = []
    for number, line, fenced in _lines_outside_fences(markdown):
        if fenced or "#" not in line[:4]:
            continue
        match = _HEADING.match(line)
        if not match:
            continue
        title = _plain(match.group(2))
        base = anchor_slug(title) or "section"
        count = seen.get(base, 0)
        seen[base] = count + 1
        anchor = base if count == 0 else f"{base}-{count}"
        found.append(Heading(len(match.group(1)), title, anchor, number))
    return found


def links(markdown: str) -> list[PageLink]:
    found: list[PageLink] = []
    for number, line, fenced in _lines_outside_fences(markdown):
        if fenced or "](" not in line:
            continue
        for match in _LINK.finditer(line):
            image, text, href = match.groups()
            found.append(PageLink(_plain(text) or href, href, number, bool(image)))
    return found
