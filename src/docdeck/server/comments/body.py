"""Comment bodies: what a caller writes becomes markdown, and what goes out carries no raw HTML.

A body written as a platform document is stored as its markdown (`to_markdown`, marks and
links kept), so it reads back as the same document with `format=document`.

A body is stored as written (nothing the caller typed is lost) and made safe on the way out:
every raw HTML tag or block markdown-it finds is escaped (`<` as `&lt;`), so a client that
renders the markdown (or the document made from it) shows the tag as text and never runs it.
"""

from __future__ import annotations

from typing import Any

from docdeck.models.comment_text import MAX_COMMENT_CHARS, comment_length
from docdeck.models.comments import CommentBodyInput
from docdeck.server.content.document import to_document
from docdeck.server.content.document_markdown import to_markdown
from docdeck.server.content.markdown import parse
from docdeck.server.errors import bad_request

MAX_BODY = MAX_COMMENT_CHARS
"""Characters of markdown in one comment or reply (the type's limit)."""


def checked_text(text: str, field: str) -> str:
    """Comment text made from a document, held to the limit of the type."""
    try:
        return comment_length(text)
    except ValueError as error:
        raise bad_request(f"{field}: {error}") from None


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _html_spans(markdown: str) -> list[tuple[int, int, str]] | None:
    """(start, end, raw) of every HTML token in the text; None when one cannot be located."""
    lines = markdown.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    spans: list[tuple[int, int, str]] = []
    for token in parse(markdown):
        if token.map is None:
            continue
        start, end = offsets[token.map[0]], offsets[min(token.map[1], len(lines))]
        if token.type == "html_block":
            spans.append((start, end, markdown[start:end]))
            continue
        cursor = start
        for child in token.children or []:
            if child.type != "html_inline":
                continue
            found = markdown.find(child.content, cursor, end)
            if found < 0:
                return None
            spans.append((found, found + len(child.content), child.content))
            cursor = found + len(child.content)
    return spans


def safe_markdown(markdown: str) -> str:
    """The markdown with every raw HTML tag escaped to text. When a tag cannot be located in
    the source (one split across quoted or indented lines), every `<` and `>` is escaped.

    Text without a `<` has no HTML in it (every HTML block and inline tag markdown-it knows
    opens with one), so it goes out as it is without being parsed: most comments, read on
    every list of a space's or a change request's threads."""
    if "<" not in markdown:
        return markdown
    spans = _html_spans(markdown)
    if spans is None:
        return _escape(markdown)
    if not spans:
        return markdown
    out: list[str] = []
    last = 0
    for start, end, raw in sorted(spans):
        if start < last:
            continue
        out.append(markdown[last:start])
        out.append(_escape(raw))
        last = end
    out.append(markdown[last:])
    result = "".join(out)
    return result if _html_spans(result) == [] else _escape(markdown)


def markdown_of(body: CommentBodyInput) -> str:
    if body.markdown is not None and body.document is not None:
        raise bad_request("body: give either markdown or document, not both")
    if body.document is not None:
        text = to_markdown(body.document, "body.document")
        field = "body.document"
    elif body.markdown is not None:
        text, field = body.markdown, "body.markdown"
    else:
        raise bad_request("body: must hold markdown ({markdown: string}) or a document")
    if not text.strip():
        raise bad_request(f"{field}: must not be empty")
    return checked_text(text, field)


def _no_ref(href: str) -> dict[str, Any]:
    return {"kind": "url", "url": href}


def stored_safe(markdown: str) -> str | None:
    """What a writer stores as the body's `safe_body` (migration 23): `safe_markdown`'s
    text when making it takes a parse, None when the body goes out as it is."""
    return safe_markdown(markdown) if "<" in markdown else None


def body_json(markdown: str, body_format: str | None, safe: str | None = None) -> dict[str, Any]:
    """The body in the asked format; markdown when none is asked (a comment always has one).
    `safe` is the body's stored `safe_body`, when there is one."""
    if safe is None:
        safe = safe_markdown(markdown)
    if body_format == "document":
        return {"document": to_document(safe, _no_ref)}
    return {"markdown": safe}
