"""A change request's content as a PDF, laid out by fpdf2 (LGPL-3.0, used as a library).

Markdown goes to HTML with markdown-it (tables enabled) and fpdf2's HTML renderer lays out
headings, paragraphs, lists, code blocks and tables. Text is set in DejaVu Sans when the
system has it (all of Unicode the font covers); otherwise in the PDF core font Helvetica,
with characters outside Latin-1 replaced by `?` (the core fonts have no others).
"""

from __future__ import annotations

import re
from datetime import datetime
from html import escape, unescape
from pathlib import Path

from fpdf import FPDF
from fpdf.fonts import FontFace
from markdown_it import MarkdownIt

_FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"))
_IMAGE = re.compile(r"<img[^>]*alt=\"([^\"]*)\"[^>]*>", re.IGNORECASE)
_ANY_IMAGE = re.compile(r"<img[^>]*>", re.IGNORECASE)
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


_CELL = re.compile(r"(<t[dh][^>]*>)(.*?)</t[dh]>", re.DOTALL)
_TAG = re.compile(r"<[^>]+>")


def _html(markdown: str) -> str:
    rendered = MarkdownIt("commonmark").enable("table").render(_GITBOOK_TAG.sub("", markdown))
    rendered = _IMAGE.sub(lambda m: f"<i>[{m.group(1) or 'image'}]</i>", rendered)
    rendered = _ANY_IMAGE.sub("<i>[image]</i>", rendered)
    return _TABLE.sub(lambda m: _grid(m.group(0)), rendered)


_TABLE = re.compile(r"<table>.*?</table>", re.DOTALL)
_ROW = re.compile(r"<tr>(.*?)</tr>", re.DOTALL)


def _grid(table: str) -> str:
    """A table as an aligned monospaced grid: fpdf2's HTML tables refuse inline markup in
    cells and break on some nestings, and a grid reads well in any PDF viewer."""
    rows = [
        [unescape(_TAG.sub("", cell[1])).strip() for cell in _CELL.findall(row)]
        for row in _ROW.findall(table)
    ]
    if not rows:
        return ""
    widths = [max(len(r[i]) if i < len(r) else 0 for r in rows) for i in range(len(rows[0]))]
    lines = [" | ".join(c.ljust(w) for c, w in zip(r, widths, strict=False)) for r in rows]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return f"<pre>{escape(chr(10).join(lines))}</pre>"


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
    for page_title, markdown in pages:
        pdf.add_page()
        html = f"<h1>{escape(page_title)}</h1>{_html(markdown)}"
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
