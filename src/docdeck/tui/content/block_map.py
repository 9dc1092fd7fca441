"""Which lines of a page's markdown each block of its JSON document covers, and back.

A comment targets a block by its `key` (`target.node.id`), a key the server makes and the
client cannot recompute (docs/content.md: a hash the platform may compute differently).
The TUI shows markdown, with line numbers. This module pairs the document's blocks
(`format=document`, which carry the keys) with the blocks markdown-it finds in the
markdown (which carry the lines), so "the block under the cursor" gives a key to comment
on, and a thread's key gives the line after which to show it.

Top-level blocks are paired in order (the document has one per top-level markdown block
the platform keeps); when the counts differ, and inside a block (list items, quotes),
blocks are paired by their text, ignoring whitespace and markup. A nested block that
cannot be paired takes its parent's lines: a comment still lands on the right area.
Code lines and table rows get their own line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from docdeck.tui.content.markdown import parser

if TYPE_CHECKING:
    from markdown_it.tree import SyntaxTreeNode

__all__ = ["Block", "BlockMap", "block_map"]

_KEPT = {
    "paragraph",
    "heading",
    "bullet_list",
    "ordered_list",
    "blockquote",
    "alert",
    "fence",
    "code_block",
    "hr",
    "table",
    "html_block",
}
_SPACE = re.compile(r"\s+")
PREVIEW = 200


@dataclass(frozen=True)
class Block:
    key: str
    type: str
    text: str
    """The block's plain text (at most 200 characters), as a comment's target shows it."""
    start: int
    """0-based first line of the block in the page's markdown."""
    end: int
    """The line after the block's last one."""
    depth: int

    @property
    def last(self) -> int:
        return max(self.start, self.end - 1)


@dataclass(frozen=True)
class BlockMap:
    blocks: tuple[Block, ...]

    def by_key(self, key: str) -> Block | None:
        for block in self.blocks:
            if block.key == key:
                return block
        return None

    def at_line(self, line: int) -> Block | None:
        """The innermost block holding `line`; on a blank line, the next block (else the last)."""
        holding = [b for b in self.blocks if b.start <= line < b.end]
        if holding:
            return min(holding, key=lambda b: (b.end - b.start, -b.depth))
        after = [b for b in self.blocks if b.start > line and b.depth == 0]
        if after:
            return min(after, key=lambda b: b.start)
        top = [b for b in self.blocks if b.depth == 0]
        return top[-1] if top else None

    def top_at_line(self, line: int) -> Block | None:
        """The top-level block holding (or next after) `line`."""
        for block in self.blocks:
            if block.depth == 0 and block.end > line:
                return block
        top = [b for b in self.blocks if b.depth == 0]
        return top[-1] if top else None


def _squash(text: str) -> str:
    return _SPACE.sub("", text)


def _md_text(node: SyntaxTreeNode) -> str:
    """The node's text as the document has it (an alert's title is the parser's, not text)."""
    if node.type in ("text", "code_inline", "html_inline", "fence", "code_block", "html_block"):
        return node.content
    return "".join(_md_text(child) for child in node.children if child.type != "alert_title")


def _doc_text(node: dict[str, Any]) -> str:
    if "leaves" in node:
        return "".join(str(leaf.get("text", "")) for leaf in node["leaves"])
    parts = [_doc_text(c) for c in node.get("nodes", []) if isinstance(c, dict)]
    return " ".join(p for p in parts if p) if node.get("object") == "block" else "".join(parts)


def _is_block(node: Any) -> bool:
    return isinstance(node, dict) and node.get("object") == "block" and "key" in node


def _md_blocks(node: SyntaxTreeNode) -> list[SyntaxTreeNode]:
    """Block nodes below `node` in document order (inline content is left out)."""
    found: list[SyntaxTreeNode] = []
    for child in node.children:
        if child.type == "inline" or child.map is None:
            continue
        found.append(child)
        found.extend(_md_blocks(child))
    return found


class _Builder:
    def __init__(self, lines: list[str]) -> None:
        self.blocks: list[Block] = []
        self.lines = lines

    def add(self, node: dict[str, Any], start: int, end: int, depth: int) -> None:
        text = _SPACE.sub(" ", _doc_text(node)).strip()
        if not text:  # a table or a divider: its markdown says what it is
            text = " ".join(line.strip() for line in self.lines[start:end]).strip()
        text = text[:PREVIEW]
        self.blocks.append(
            Block(str(node["key"]), str(node.get("type", "")), text, start, end, depth)
        )

    def pair(self, node: dict[str, Any], md: SyntaxTreeNode | None, span: tuple[int, int]) -> None:
        """A top-level block and its markdown node (or only the lines it must be within)."""
        start, end = md.map if md is not None and md.map is not None else span
        self.add(node, start, end, 0)
        kind = node.get("type")
        if kind == "code":
            first = start + 1 if md is not None and md.type == "fence" else start
            for index, line in enumerate(c for c in node.get("nodes", []) if _is_block(c)):
                at = min(first + index, max(start, end - 1))
                self.add(line, at, at + 1, 1)
            return
        if kind == "table":
            for fragment in node.get("fragments", []):
                row = re.match(r"r(\d+)", str(fragment.get("fragment", "")))
                at = start + 2 + int(row.group(1)) if row else start
                at = min(at, max(start, end - 1))
                for child in fragment.get("nodes", []):
                    if _is_block(child):
                        self.add(child, at, at + 1, 1)
            return
        candidates = _md_blocks(md) if md is not None else []
        self._nested(node, candidates, [0], (start, end), 1)

    def _nested(
        self,
        node: dict[str, Any],
        candidates: list[SyntaxTreeNode],
        cursor: list[int],
        span: tuple[int, int],
        depth: int,
    ) -> None:
        for child in node.get("nodes", []):
            if not _is_block(child):
                continue
            wanted = _squash(_doc_text(child))
            found = None
            for index in range(cursor[0], len(candidates)):
                text = _squash(_md_text(candidates[index]))
                if text == wanted and candidates[index].map is not None:
                    found = index
                    break
            if found is not None:
                cursor[0] = found + 1
                lines = candidates[found].map
                assert lines is not None
                child_span = (lines[0], lines[1])
            else:
                child_span = span
            self.add(child, child_span[0], child_span[1], depth)
            self._nested(child, candidates, cursor, child_span, depth + 1)


def block_map(document: dict[str, Any], markdown: str) -> BlockMap:
    """The blocks of `document` (a page's JSON document) with their lines in `markdown`."""
    from markdown_it.tree import SyntaxTreeNode  # with the first page's map, not at import

    root = SyntaxTreeNode(parser().parse(markdown))
    md_top = [n for n in root.children if n.type in _KEPT and n.map is not None]
    doc_top = [n for n in document.get("nodes", []) if _is_block(n)]
    lines = markdown.split("\n")
    builder = _Builder(lines)
    total = len(lines)
    if len(md_top) == len(doc_top):
        pairs: list[tuple[dict[str, Any], SyntaxTreeNode | None]] = list(
            zip(doc_top, md_top, strict=True)
        )
    else:
        pairs = []
        cursor = 0
        for node in doc_top:
            wanted = _squash(_doc_text(node))
            match = None
            for index in range(cursor, len(md_top)):
                if _squash(_md_text(md_top[index])) == wanted:
                    match = index
                    break
            if match is not None:
                cursor = match + 1
                pairs.append((node, md_top[match]))
            else:
                pairs.append((node, None))
    previous_end = 0
    for index, (node, md) in enumerate(pairs):
        if md is not None:
            builder.pair(node, md, (0, 0))
            assert md.map is not None
            previous_end = md.map[1]
            continue
        following = next((m for _, m in pairs[index + 1 :] if m is not None), None)
        limit = following.map[0] if following is not None and following.map else total
        builder.pair(node, None, (previous_end, max(previous_end + 1, limit)))
    return BlockMap(tuple(builder.blocks))
