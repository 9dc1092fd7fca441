"""A change request's content as a PDF, laid out by fpdf2 (LGPL-3.0, used as a library).

Markdown is read by the sandbox's one parser (`content/markdown.py`: tables, task lists,
alerts) and rendered to the HTML fpdf2's HTML renderer lays out (headings, paragraphs,
lists, code blocks), with render rules of its own for what fpdf2 cannot lay out: an image is
its alt text, a table a monospaced grid, a task item starts with its box (`☑`, `☐`) and an
alert is a quote under its title (`⚠ Warning`), as the TUI shows them. Text is set in DejaVu
Sans when the system has it (all of Unicode the font covers); otherwise in the PDF core font
Helvetica, with characters outside Latin-1 replaced by `?` (the core fonts have no others);
a box or an icon the font cannot draw is written as `[x]`, `[ ]` or left out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime
from html import escape
from pathlib import Path
from typing import Any

from fpdf import FPDF
from fpdf.fonts import FontFace
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from docdeck.models.markdown import alert_title, task_box
from docdeck.server.content.markdown import parser

_FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"))
_GITBOOK_TAG = re.compile(r"\{%.*?%\}")


def _unicode_font(pdf: FPDF) -> str | None:
    for folder in _FONT_DIRS:
        regular, bold = folder / "DejaVuSans.ttf", folder / "DejaVuSans-Bold.ttf"
        oblique, mono = folder / "DejaVuSans-Oblique.ttf", folder / "DejaVuSansMono.ttf"
        if all(p.exists() for p in (regular, bold, oblique, mono)):
            pdf.add_font("DejaVu", "", str(regular))
            pdf.add_font("DejaVu", "B", str(bold))
            pdf.add_font("DejaVu", "I", str(oblique))
            pdf.add_font("DejaVu", "BI", str(bold))
            pdf.add_font("DejaVuMono", "", str(mono))
            return "DejaVu"
    return None


Drawable = Callable[[str], bool]
"""Whether the PDF's font can draw every character of a text."""


def _latin1(text: str) -> bool:
    return all(ord(char) < 256 for char in text)


def _fixed(html: str) -> Callable[[RendererHTML, Sequence[Token], int, OptionsDict, EnvType], str]:
    """A renderer rule that writes the same markup whatever its token (an alert's frame: fpdf2
    shows it as a quote with a bold title)."""

    def rule(
        self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        return html

    return rule


class _PdfRenderer(RendererHTML):
    """markdown-it's HTML renderer with rules for what fpdf2's HTML layout cannot show (a
    table is made a grid before rendering, in `body_html`). `env["drawable"]` says which
    symbols the PDF's font has."""

    def image(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        return f"<i>[{escape(_cell_text(tokens[idx].children or []) or 'image')}]</i>"

    def list_item_open(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        checked = tokens[idx].meta.get("checked")
        if checked is None:
            return "<li>"
        box = task_box(bool(checked))
        drawable: Drawable = env.get("drawable", _latin1)
        return f"<li>{box if drawable(box) else '[x]' if checked else '[ ]'} "

    alert_open = _fixed("<blockquote>\n")
    alert_close = _fixed("</blockquote>\n")
    alert_title_open = _fixed("<p><b>")
    alert_title_close = _fixed("</b></p>\n")


def _cell_text(tokens: Sequence[Token]) -> str:
    parts: list[str] = []
    for token in tokens:
        if token.type in ("text", "code_inline", "html_inline"):
            parts.append(token.content)
        elif token.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif token.type == "image":
            parts.append(f"[{_cell_text(token.children or []) or 'image'}]")
    return "".join(parts)


def _grid(table: Sequence[Token]) -> str:
    """A table as an aligned monospaced grid: fpdf2's HTML tables refuse inline markup in
    cells and break on some nestings, and a grid reads well in any PDF viewer."""
    rows: list[list[str]] = []
    for token in table:
        if token.type == "tr_open":
            rows.append([])
        elif token.type == "inline" and rows:
            rows[-1].append(_cell_text(token.children or []).strip())
    if not rows:
        return ""
    widths = [max(len(r[i]) if i < len(r) else 0 for r in rows) for i in range(len(rows[0]))]
    lines = [" | ".join(c.ljust(w) for c, w in zip(r, widths, strict=False)) for r in rows]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return f"<pre>{escape(chr(10).join(lines))}</pre>"


_RENDERER = _PdfRenderer()


def body_html(markdown: str, drawable: Drawable = _latin1) -> str:
    """A page body as the HTML fpdf2 lays out; `drawable` says what the PDF's font can draw."""
    tokens: list[Token] = []
    parsed = parser().parse(_GITBOOK_TAG.sub("", markdown))
    index = 0
    while index < len(parsed):
        token = parsed[index]
        if token.type == "table_open":  # the whole table becomes one grid
            end = next(i for i in range(index, len(parsed)) if parsed[i].type == "table_close")
            grid = Token("html_block", "", 0, content=_grid(parsed[index : end + 1]) + "\n")
            tokens.append(grid)
            index = end + 1
            continue
        if token.type == "alert_open" and index + 2 < len(parsed):
            kind = str(token.meta.get("kind", ""))
            title = (
                alert_title(kind) if drawable(alert_title(kind)) else alert_title(kind, icon=False)
            )
            parsed[index + 2].children = [Token("text", "", 0, content=title)]
        tokens.append(token)
        index += 1
    env: dict[str, Any] = {"drawable": drawable}
    return _RENDERER.render(tokens, parser().options, env)


def _drawable(pdf: FPDF, family: str | None) -> Drawable:
    if family is None:
        return _latin1
    fonts = [pdf.fonts[key] for key in (family.lower(), f"{family.lower()}B") if key in pdf.fonts]
    cmaps = [getattr(font, "cmap", None) or {} for font in fonts]
    return lambda text: all(all(ord(char) in cmap for cmap in cmaps) for char in text)


def render_pdf(title: str, pages: list[tuple[str, str]], created: datetime) -> bytes:
    """One PDF page (or more) per content page: its title as a heading, then its body.

    `created` (the revision's time) is the document's creation date: the same content gives
    the same bytes, so the content-addressed store keeps one copy however often it is asked
    for, instead of one per request stamped with the time of rendering."""
    pdf = FPDF()
    pdf.set_creation_date(created)
    pdf.set_title(title)
    pdf.set_auto_page_break(auto=True, margin=15)
    family = _unicode_font(pdf)
    mono = "DejaVuMono" if family else "courier"
    pdf.set_font(family or "helvetica", size=11)
    if not pages:
        pages = [(title, "*This change request has no pages.*")]
    drawable = _drawable(pdf, family)
    for page_title, markdown in pages:
        pdf.add_page()
        html = f"<h1>{escape(page_title)}</h1>{body_html(markdown, drawable)}"
        if family is None:
            html = html.encode("latin-1", "replace").decode("latin-1")
        code = FontFace(family=mono)
        try:
            pdf.write_html(
                html, font_family=family or "helvetica", tag_styles={"pre": code, "code": code}
            )
        except Exception:
            # HTML fpdf2 cannot lay out: the page's text as written, rather than no PDF.
            pdf.add_page()
            pdf.set_font(family or "helvetica", "B", size=16)
            pdf.multi_cell(0, 8, page_title if family else escape(page_title))
            pdf.set_font(family or "helvetica", size=11)
            text = markdown if family else markdown.encode("latin-1", "replace").decode("latin-1")
            pdf.multi_cell(0, 5, text)
    return bytes(pdf.output())
