"""One markdown parser for every reader of page bodies (document format, links, search, the
published HTML, the PDF export).

The configuration is the one the TUI reads bodies with too (`docdeck.models.markdown`:
CommonMark with GitHub's tables, strikethrough, task lists and alerts, through markdown-it-py);
`parser()` is the sandbox's cached instance of it, and the only place it builds one. Heading
anchors are GitHub-style slugs, made unique within a
page, so `#anchor` links, the document format and search sections agree on them.
"""

from __future__ import annotations

import json
import sqlite3
from functools import cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from docdeck.models import anchor_slug
from docdeck.models.markdown import markdown_parser


@cache
def parser(*, html: bool = True) -> MarkdownIt:
    """The sandbox's parser of page bodies; `html=False` (the published site) leaves raw HTML
    as text. Shared: render with a renderer of your own rather than adding rules to it."""
    return markdown_parser(html=html)


def parse(markdown: str) -> list[Token]:
    return parser().parse(markdown)


class Anchors:
    """Unique anchors for the headings of one page, in order (`a`, `a-1`, `a-2`)."""

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}

    def next(self, text: str) -> str:
        base = anchor_slug(text) or "section"
        count = self._seen.get(base, 0)
        self._seen[base] = count + 1
        return base if count == 0 else f"{base}-{count}"


def inline_text(token: Token) -> str:
    """The plain text of an inline token (link texts kept, markup dropped)."""
    parts: list[str] = []
    for child in token.children or []:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "image":
            parts.append(child.content)
    return "".join(parts)


def analyse(markdown: str) -> dict[str, Any]:
    """Sections (heading + text), anchors and links of a page body.

    A section is a heading and the text up to the next heading; text before the first
    heading is a section titled by the page (title ""), anchored at the page itself.
    """
    tokens = parse(markdown)
    anchors = Anchors()
    sections: list[dict[str, Any]] = [{"anchor": "", "title": "", "text": []}]
    links: list[dict[str, Any]] = []
    heading_open = alert_title = False
    for token in tokens:
        if token.type in ("heading_open", "heading_close"):
            heading_open = token.nesting == 1
            continue
        if token.type in ("alert_title_open", "alert_title_close"):
            alert_title = token.nesting == 1  # the parser's title ("Note"), not the page's text
            continue
        if token.type == "inline" and not alert_title:
            text = inline_text(token)
            if heading_open:
                sections.append({"anchor": anchors.next(text), "title": text, "text": []})
            else:
                sections[-1]["text"].append(text)
            _collect_links(token, links)
        elif token.type in ("fence", "code_block"):
            sections[-1]["text"].append(token.content)
    out_sections = [
        {"anchor": s["anchor"], "title": s["title"], "text": "\n".join(s["text"]).strip()}
        for s in sections
        if s["anchor"] or any(t.strip() for t in s["text"])
    ]
    return {
        "sections": out_sections,
        "anchors": [s["anchor"] for s in sections if s["anchor"]],
        "links": links,
    }


def _collect_links(token: Token, links: list[dict[str, Any]]) -> None:
    children = token.children or []
    for index, child in enumerate(children):
        if child.type == "link_open":
            text = []
            for after in children[index + 1 :]:
                if after.type == "link_close":
                    break
                text.append(after.content)
            links.append({"href": str(child.attrGet("href") or ""), "text": "".join(text)})
        elif child.type == "image":
            links.append({"href": str(child.attrGet("src") or ""), "text": child.content})


def analysis_of(
    conn: sqlite3.Connection, digest: str, markdown: str, *, store: bool = False
) -> dict[str, Any]:
    """The anchors and links of a body (`analyse` without the section texts, which only the
    search index needs), computed once per distinct body (bodies are content-addressed):
    commits store it (`store=True`, inside the write transaction); reads only look it up."""
    row = conn.execute("SELECT data FROM body_analysis WHERE hash = ?", (digest,)).fetchone()
    if row is not None:
        found: dict[str, Any] = json.loads(row[0])
        return found
    full = analyse(markdown)
    result = {
        "anchors": full["anchors"],
        "links": full["links"],
    }
    if store:
        conn.execute(
            "INSERT OR IGNORE INTO body_analysis (hash, data) VALUES (?, ?)",
            (digest, json.dumps(result, ensure_ascii=False)),
        )
    return result
