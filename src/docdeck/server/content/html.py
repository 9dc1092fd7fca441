"""A page body as plain, safe HTML, for the published site the sandbox serves.

The same markdown-it-py parser settings as every other reader of bodies (CommonMark, GitHub
tables, strikethrough, task lists, alerts: `content/markdown.py`) but with raw HTML off, so
whatever a body holds (`<script>`, event handlers, `<iframe>`) is shown as text; markdown-it
escapes every text and attribute and refuses `javascript:`, `vbscript:`, `file:` and most
`data:` URLs. Headings get the same GitHub-style anchors as link analysis (read with raw HTML
on), so `#anchor` links land; each link and image is handed to `rewrite`, which turns a page
or file reference into the published URL (or None to keep the href as written, marked when it
is broken). Task items are disabled checkboxes; an alert is a `markdown-alert` block under its
title, the same title the TUI and the PDF show (`⚠ Warning`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from markdown_it.token import Token

from docdeck.models.markdown import alert_title
from docdeck.server.content.markdown import Anchors, analyse, inline_text, parser


@dataclass(frozen=True)
class Href:
    """Where a link of the body goes on the published site."""

    url: str
    broken: bool = False


Rewrite = Callable[[str], Href]


def _rewrite_inline(token: Token, rewrite: Rewrite) -> None:
    for child in token.children or []:
        if child.type == "link_open":
            href = rewrite(str(child.attrGet("href") or ""))
            child.attrSet("href", href.url)
            if href.broken:
                child.attrSet("class", "broken")
                child.attrSet("title", "This link's target is missing")
        elif child.type == "image":
            child.attrSet("src", rewrite(str(child.attrGet("src") or "")).url)


def _title_alert(tokens: list[Token], index: int) -> None:
    """An alert's title as the TUI and the PDF show it (`ℹ Note`), not the bare word."""
    title = tokens[index + 2] if index + 2 < len(tokens) else None
    if title is not None and title.type == "inline" and title.children:
        title.children[0].content = alert_title(str(tokens[index].meta.get("kind", "")))


@dataclass(frozen=True)
class Rendered:
    html: str
    title_anchor: str | None
    """The anchor of the body's leading `# {title}` heading, which was left out (the page
    shows its title above the body once, with this anchor)."""


def render_html(markdown: str, rewrite: Rewrite, title: str | None = None) -> Rendered:
    """The body as an HTML fragment (no document around it)."""
    md = parser(html=False)
    tokens = md.parse(markdown)
    headings = [i for i, t in enumerate(tokens) if t.type == "heading_open" and i + 1 < len(tokens)]
    known = analyse(markdown)["anchors"]  # the anchors links were checked against
    if len(known) != len(headings):  # raw HTML hid or made a heading: number them here
        anchors = Anchors()
        known = [anchors.next(inline_text(tokens[i + 1])) for i in headings]
    ids = dict(zip(headings, known, strict=True))
    title_anchor = None
    for index, token in enumerate(tokens):
        if index in ids:
            text = inline_text(tokens[index + 1])
            token.attrSet("id", ids[index])
            if index == 0 and token.tag == "h1" and title is not None and text == title:
                title_anchor = str(token.attrGet("id"))
        elif token.type == "inline":
            _rewrite_inline(token, rewrite)
        elif token.type == "alert_open":
            _title_alert(tokens, index)
    if title_anchor is not None:
        tokens = tokens[3:]
    return Rendered(md.renderer.render(tokens, md.options, {}), title_anchor)
