"""Markdown to the platform's JSON document (`{object: "document", data, nodes}`).

Blocks get stable `key`s: a hash of the block's parent key, type and text, plus a counter for
identical siblings, so the same markdown always gives the same keys and an edit elsewhere in
the page leaves a block's key unchanged (comments target nodes by key). Callouts are written
as GitHub alerts (`> [!NOTE]`, `[!TIP]`, `[!WARNING]`, `[!CAUTION]`) and become `hint` blocks;
task lists (`- [x] done`) become `list-tasks`. Both are markdown-it-py's own tokens
(`docdeck.models.markdown`).

A key hashes the block's text as it was read when keys were first made, before the parser
read alerts and task items itself: an alert's text starts with its marker as written
(`[!NOTE]`), a task item's with the checkbox tag the former task-list plugin put in its
text (`_KEY_CHECKBOX`), so the keys of existing pages, and the comments on them, stay.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from typing import Any

from markdown_it.tree import SyntaxTreeNode

from docdeck.server.content.markdown import Anchors, parse

Node = dict[str, Any]
Resolver = Callable[[str], dict[str, Any]]
"""href -> ContentRef (`{kind: page|anchor|file|url, ...}`)."""

_HINT_STYLE = {
    "note": "info",
    "important": "info",
    "tip": "success",
    "warning": "warning",
    "caution": "danger",
}
_ESSENTIAL = {"paragraph", "heading-1", "heading-2", "heading-3", "list-ordered"}
_ESSENTIAL |= {"list-unordered", "list-tasks", "divider"}
_IN_LIST_ITEM = _ESSENTIAL | {"code", "hint", "blockquote", "table"}
_KEY_CHECKBOX = (
    '<input class="task-list-item-checkbox" disabled="disabled" type="checkbox">',
    '<input class="task-list-item-checkbox" checked="checked" disabled="disabled" type="checkbox">',
)
"""The text a task item's box adds to its key (unchecked, checked): the tag the task-list
plugin once wrote into the item's first paragraph, kept so the keys stay."""
_TASK_GAP = re.compile(r"\[[ xX]\]([ \t]*)(\S?)")


class _Keys:
    def __init__(self) -> None:
        self._seen: dict[str, int] = {}

    def key(self, parent: str, kind: str, text: str) -> str:
        base = f"{parent}|{kind}|{text}"
        count = self._seen.get(base, 0)
        self._seen[base] = count + 1
        return hashlib.blake2b(f"{base}|{count}".encode(), digest_size=6).hexdigest()


def _text_of(node: SyntaxTreeNode, lines: Sequence[str] = ()) -> str:
    """The node's text as keys hash it (with `lines`, the page's: see the module's doc)."""
    if node.type in ("text", "code_inline", "html_inline", "fence", "code_block", "html_block"):
        return node.content
    text = "".join(_text_of(child, lines) for child in node.children if child.type != "alert_title")
    if not lines:
        return text
    if node.type == "alert" and node.map is not None:
        line = lines[node.map[0]].rstrip() if node.map[0] < len(lines) else ""
        marker = line[line.rfind("[!") :] if "[!" in line else f"[!{node.meta.get('kind', '')}]"
        return marker + text
    if node.type == "paragraph" and _first_of_task(node):
        return _task_prefix(node, lines) + text
    return text


def _first_of_task(node: SyntaxTreeNode) -> bool:
    item = node.parent
    return (
        item is not None
        and item.type == "list_item"
        and "checked" in item.meta
        and item.children[0] is node
    )


def _task_prefix(paragraph: SyntaxTreeNode, lines: Sequence[str]) -> str:
    """What the task-list plugin left before the item's text: its tag when a space follows
    the `[x]` (none after a tab), then the blanks as written."""
    item = paragraph.parent
    at = item.map[0] if item is not None and item.map is not None else -1
    found = _TASK_GAP.search(lines[at]) if 0 <= at < len(lines) else None
    if found is None or not found.group(2):
        return ""
    gap = found.group(1)
    checked = item is not None and bool(item.meta.get("checked"))
    return (_KEY_CHECKBOX[checked] if gap.startswith(" ") else "") + gap


class _Converter:
    def __init__(self, resolve: Resolver, lines: Sequence[str]) -> None:
        self.resolve = resolve
        self.lines = lines
        self.keys = _Keys()
        self.anchors = Anchors()

    # --- inlines --------------------------------------------------------------------------

    def inlines(self, node: SyntaxTreeNode, parent: str, images: bool = True) -> list[Node]:
        out: list[Node] = []
        leaves: list[Node] = []

        def flush() -> None:
            kept = [leaf for leaf in leaves if leaf["text"]]
            if kept:
                out.append({"object": "text", "leaves": kept})
            leaves.clear()

        def walk(current: SyntaxTreeNode, marks: list[str]) -> None:
            for child in current.children:
                kind = child.type
                if kind in ("text", "html_inline"):
                    leaves.append(_leaf(child.content, marks))
                elif kind == "code_inline":
                    leaves.append(_leaf(child.content, [*marks, "code"]))
                elif kind == "softbreak":
                    leaves.append(_leaf(" ", marks))
                elif kind == "hardbreak":
                    leaves.append(_leaf("\n", marks))
                elif kind in ("strong", "em", "s"):
                    mark = {"strong": "bold", "em": "italic", "s": "strikethrough"}[kind]
                    walk(child, [*marks, mark])
                elif kind == "link":
                    flush()
                    text = _text_of(child)
                    walk(child, marks)  # the link's own leaves keep their marks
                    inner = [leaf for leaf in leaves if leaf["text"]] or [_leaf(text, marks)]
                    leaves.clear()
                    out.append(
                        {
                            "object": "inline",
                            "type": "link",
                            "key": self.keys.key(parent, "link", text),
                            "isVoid": False,
                            "data": {"ref": self.resolve(str(child.attrs.get("href", "")))},
                            "nodes": [{"object": "text", "leaves": inner}],
                        }
                    )
                elif kind == "image":
                    flush()
                    out.append(self.inline_image(child, parent))
                else:
                    walk(child, marks)

        walk(node, [])
        flush()
        out = [n for n in out if n["object"] != "text" or any(x["text"] for x in n["leaves"])]
        return out or [{"object": "text", "leaves": [_leaf("", [])]}]

    def image_ref(self, src: str) -> dict[str, Any]:
        ref = self.resolve(src)
        return ref if ref.get("kind") == "file" else {"kind": "url", "url": src}

    def inline_image(self, node: SyntaxTreeNode, parent: str) -> Node:
        src = str(node.attrs.get("src", ""))
        data: dict[str, Any] = {"ref": self.image_ref(src)}
        alt = _text_of(node)
        if alt:
            data["caption"] = alt
        return {
            "object": "inline",
            "type": "inline-image",
            "key": self.keys.key(parent, "inline-image", src),
            "isVoid": True,
            "data": data,
        }

    # --- blocks ---------------------------------------------------------------------------

    def blocks(self, nodes: list[SyntaxTreeNode], parent: str) -> list[Node]:
        out: list[Node] = []
        for node in nodes:
            block = self.block(node, parent)
            if block is not None:
                out.append(block)
        return out

    def block(self, node: SyntaxTreeNode, parent: str) -> Node | None:
        convert = _BLOCKS.get(node.type)
        return None if convert is None else convert(self, node, parent)

    def divider(self, node: SyntaxTreeNode, parent: str) -> Node:
        key = self.keys.key(parent, "divider", "")
        return {"object": "block", "type": "divider", "key": key, "isVoid": True, "data": {}}

    def html_block(self, node: SyntaxTreeNode, parent: str) -> Node:
        return self.text_paragraph(node.content.strip(), parent)

    def text_paragraph(self, text: str, parent: str) -> Node:
        key = self.keys.key(parent, "paragraph", text)
        leaf = {"object": "text", "leaves": [_leaf(text, [])]}
        return {"object": "block", "type": "paragraph", "key": key, "nodes": [leaf]}

    def paragraph(self, node: SyntaxTreeNode, parent: str) -> Node:
        inline = node.children[0] if node.children else node
        parts = [c for c in inline.children if c.type not in ("softbreak", "hardbreak")]
        parts = [c for c in parts if not (c.type == "text" and not c.content.strip())]
        if parts and all(c.type == "image" for c in parts):
            key = self.keys.key(parent, "images", _text_of(inline))
            images = []
            for image in parts:
                data: dict[str, Any] = {"ref": self.image_ref(str(image.attrs.get("src", "")))}
                alt = _text_of(image)
                if alt:
                    data["alt"] = alt
                images.append(
                    {
                        "object": "block",
                        "type": "image",
                        "key": self.keys.key(key, "image", str(image.attrs.get("src", ""))),
                        "isVoid": True,
                        "data": data,
                        "fragments": [],
                    }
                )
            return {
                "object": "block",
                "type": "images",
                "key": key,
                "isVoid": False,
                "data": {"align": "center"},
                "nodes": images,
            }
        key = self.keys.key(parent, "paragraph", _text_of(node, self.lines))
        return {
            "object": "block",
            "type": "paragraph",
            "key": key,
            "nodes": self.inlines(inline, key),
        }

    def heading(self, node: SyntaxTreeNode, parent: str) -> Node:
        level = min(int(node.tag[1:]), 3)
        inline = node.children[0]
        text = _text_of(inline)
        anchor = self.anchors.next(text)
        key = self.keys.key(parent, f"heading-{level}", text)
        return {
            "object": "block",
            "type": f"heading-{level}",
            "key": key,
            "data": {"id": anchor},
            "meta": {"id": anchor},
            "nodes": self.inlines(inline, key),
        }

    def list_block(self, node: SyntaxTreeNode, parent: str) -> Node:
        items = node.children
        tasks = any("checked" in item.meta for item in items)
        kind = "list-ordered" if node.type == "ordered_list" else "list-unordered"
        if tasks and kind == "list-unordered":
            kind = "list-tasks"
        key = self.keys.key(parent, kind, _text_of(node, self.lines))
        nodes = []
        for item in items:
            item_key = self.keys.key(key, "list-item", _text_of(item, self.lines))
            children = self.blocks(item.children, item_key)
            children = [c for c in children if c["type"] in _IN_LIST_ITEM]
            entry: Node = {
                "object": "block",
                "type": "list-item",
                "key": item_key,
                "nodes": children or [self.text_paragraph("", item_key)],
            }
            if kind == "list-tasks":
                entry["data"] = {"checked": bool(item.meta.get("checked", False))}
            nodes.append(entry)
        block: Node = {"object": "block", "type": kind, "key": key, "nodes": nodes}
        if kind == "list-ordered":
            start = node.attrs.get("start")
            block["data"] = {"start": int(start)} if start is not None else {}
        return block

    def hint(self, node: SyntaxTreeNode, parent: str) -> Node:
        """An alert (`> [!NOTE]` on the quote's first line) as a hint of its style."""
        key = self.keys.key(parent, "quote", _text_of(node, self.lines))
        content = [c for c in node.children if c.type != "alert_title"]
        first = content[0] if content else None
        below = node.map[0] + 1 if node.map is not None else -1
        if first is None or first.type != "paragraph" or first.map is None or first.map[0] != below:
            # Keys were first made with the marker read as a paragraph of its own whenever no
            # text follows it on the next line: that empty paragraph took its key.
            self.keys.key(key, "paragraph", "")
        children = self.blocks(content, key)
        essentials = [self._essential(c, key) for c in children]
        essentials = [
            c
            for c in essentials
            if not (c["type"] == "paragraph" and c["nodes"] == _EMPTY_TEXT_NODES)
        ]
        return {
            "object": "block",
            "type": "hint",
            "key": key,
            "data": {"style": _HINT_STYLE.get(str(node.meta.get("kind", "")).lower(), "info")},
            "nodes": essentials or [self.text_paragraph("", key)],
        }

    def quote(self, node: SyntaxTreeNode, parent: str) -> Node:
        key = self.keys.key(parent, "quote", _text_of(node, self.lines))
        children = self.blocks(node.children, key)
        nodes = [c if c["type"] == "blockquote" else self._essential(c, key) for c in children]
        return {
            "object": "block",
            "type": "blockquote",
            "key": key,
            "nodes": nodes or [self.text_paragraph("", key)],
        }

    def _essential(self, block: Node, parent: str) -> Node:
        """Hints and quotes hold only essential blocks; others become their text."""
        if block["type"] in _ESSENTIAL:
            return block
        return self.text_paragraph(_plain(block), parent)

    def code(self, node: SyntaxTreeNode, parent: str) -> Node:
        content = node.content[:-1] if node.content.endswith("\n") else node.content
        key = self.keys.key(parent, "code", content)
        data: dict[str, Any] = {}
        syntax = (node.info or "").strip().split(" ")[0] if node.type == "fence" else ""
        if syntax:
            data["syntax"] = syntax
        lines = [
            {
                "object": "block",
                "type": "code-line",
                "key": self.keys.key(key, "code-line", line),
                "data": {},
                "nodes": [{"object": "text", "leaves": [_leaf(line, [])]}],
            }
            for line in content.split("\n")
        ]
        return {"object": "block", "type": "code", "key": key, "data": data, "nodes": lines}

    def table(self, node: SyntaxTreeNode, parent: str) -> Node:
        key = self.keys.key(parent, "table", _text_of(node))
        rows = [tr for section in node.children for tr in section.children]
        header, body = (rows[0], rows[1:]) if rows else (None, [])
        definition: dict[str, Any] = {}
        columns: list[str] = []
        for index, cell in enumerate(header.children if header else []):
            column = f"c{index}"
            columns.append(column)
            style = str(cell.attrs.get("style", ""))
            align = "center" if "center" in style else "right" if "right" in style else "left"
            definition[column] = {
                "id": column,
                "title": _text_of(cell),
                "type": "text",
                "textAlignment": align,
            }
        records: dict[str, Any] = {}
        fragments: list[Node] = []
        for row_index, row in enumerate(body):
            values: dict[str, str] = {}
            for column, cell in zip(columns, row.children, strict=False):
                fragment_id = f"r{row_index}{column}"
                values[column] = fragment_id
                fragment_key = self.keys.key(key, "fragment", fragment_id)
                paragraph_key = self.keys.key(fragment_key, "paragraph", _text_of(cell))
                fragments.append(
                    {
                        "object": "fragment",
                        "key": fragment_key,
                        "fragment": fragment_id,
                        "nodes": [
                            {
                                "object": "block",
                                "type": "paragraph",
                                "key": paragraph_key,
                                "nodes": self.inlines(cell, paragraph_key),
                            }
                        ],
                    }
                )
            records[f"r{row_index}"] = {"orderIndex": f"a{row_index:05d}", "values": values}
        return {
            "object": "block",
            "type": "table",
            "key": key,
            "isVoid": True,
            "data": {
                "view": {"type": "grid", "columns": columns, "hideHeader": False},
                "records": records,
                "definition": definition,
            },
            "fragments": fragments,
        }


_BLOCKS: dict[str, Callable[[_Converter, SyntaxTreeNode, str], Node]] = {
    "paragraph": _Converter.paragraph,
    "heading": _Converter.heading,
    "bullet_list": _Converter.list_block,
    "ordered_list": _Converter.list_block,
    "blockquote": _Converter.quote,
    "alert": _Converter.hint,
    "fence": _Converter.code,
    "code_block": _Converter.code,
    "hr": _Converter.divider,
    "table": _Converter.table,
    "html_block": _Converter.html_block,
}
"""The block each markdown node becomes; a node of another type becomes none."""


_NEWLINES = re.compile(r"\r\n?|\n")
_EMPTY_TEXT_NODES = [{"object": "text", "leaves": [{"object": "leaf", "text": "", "marks": []}]}]


def _empty_paragraph(block: Node) -> bool:
    return bool(block["type"] == "paragraph" and block["nodes"] == _EMPTY_TEXT_NODES)


def _leaf(text: str, marks: list[str]) -> Node:
    return {"object": "leaf", "text": text, "marks": [{"object": "mark", "type": m} for m in marks]}


def _plain(block: Node) -> str:
    if "leaves" in block:
        return "".join(leaf["text"] for leaf in block["leaves"])
    parts = [_plain(child) for child in block.get("nodes", [])]
    return ("\n" if block.get("object") == "block" else "").join(parts)


def to_document(markdown: str, resolve: Resolver) -> dict[str, Any]:
    """The JSON document of a page body; `resolve` turns each link's href into a ref."""
    root = SyntaxTreeNode(parse(markdown))
    # The lines markdown-it numbers (it reads `\r\n` and `\r` as `\n`).
    converter = _Converter(resolve, _NEWLINES.split(markdown))
    nodes = converter.blocks(root.children, "")
    return {"object": "document", "data": {}, "nodes": nodes}
