"""The page's markdown made readable before rendering, line for line (so line numbers
still match the page): images become their file's name, type, size and dimensions. (GitHub
alerts, `> [!NOTE]`, are the parser's own: `_page_lines` draws them under their title.)
"""

from __future__ import annotations

import re

from docdeck.models import RevisionFile
from docdeck.tui.content.page_tree import ASSETS

__all__ = ["file_summary", "prepare", "size_text"]

_IMAGE = re.compile(r"!\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def size_text(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / 1024 / 1024:.1f} MB"


def file_summary(file: RevisionFile) -> str:
    parts = [file.name, file.contentType, size_text(file.size)]
    if file.dimensions is not None:
        parts.append(f"{int(file.dimensions.width)}×{int(file.dimensions.height)}")
    return ", ".join(parts)


def prepare(markdown: str, files: list[RevisionFile]) -> str:
    """The page's markdown with images made readable, line for line."""
    by_name = {file.name: file for file in files}

    def image(match: re.Match[str]) -> str:
        alt, src = match.groups()
        name = src.rsplit("/", 1)[-1]
        file = by_name.get(name) if ASSETS in src else None
        what = file_summary(file) if file is not None else f"{name} (not in this space)"
        label = f"{alt} — {what}" if alt else what
        return f"[🖼 {label}]({src})"

    out: list[str] = []
    for line in markdown.split("\n"):
        if "![" in line:
            line = _IMAGE.sub(image, line)
        out.append(line)
    return "\n".join(out)
