"""Markdown to the platform's JSON document (`{object: "document", data, nodes}`).

Blocks get stable `key`s: a hash of the block's parent key, type and text, plus a counter for
identical siblings, so the same markdown always gives the same keys and an edit elsewhere in
the page leaves a block's key unchanged (comments target nodes by key). Callouts are written
as GitHub alerts (`> [!NOTE]`, `[!TIP]`, `[!WARNING]`, `[!CAUTION]`) and become `hint` blocks.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import Any

from markdown_it.tree import SyntaxTreeNode

from docdeck.server.content.markdown import Anchors, parse

Node = dict[str, Any]
Resolver = Callable[[str], dict[str, Any]]
"""href -> ContentRef (`{kind: page|anchor|file|url, ...}`)."""

_ALERT = re.compile(r"^\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*", re.IGNORECASE)
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
_CHECKBOX = re.compile(r"<input[^>]*checkbox[^>]*>", re.IGNORECASE)


class _Keys:
    def __init__(self) -> None:
        self._seen: dict[str, int] = {}

    def key(self, parent: str, kind: str, text: str) -> str:
        base = f"{parent}|{kind}|{text}"
        count = self._seen.get(base, 0)
        self._seen[base] = count + 1
        return hashlib.blake2b(f"{base}|{count}".encode(), digest_size=6).hexdigest()


def _text_of(node: SyntaxTreeNode) -> str:
    if node.type in ("text", "code_inline", "html_inline", "fence", "code_block", "html_block"):
        return node.content
    return "".join(_text_of(child) for child in node.children)


class _Converter:
    def __init__(self, resolve: Resolver) -> None:
        self.resolve = resolve
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
                    content = _CHECKBOX.sub("", child.content) if kind == "html_inline" else None
                    leaves.append(_leaf(child.content if content is None else content, marks))
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
        kind = node.type
        if kind == "paragraph":
            return self.paragraph(node, parent)
        if kind == "heading":
            return self.heading(node, parent)
        if kind in ("bullet_list", "ordered_list"):
            return self.list_block(node, parent)
        if kind == "blockquote":
            return self.quote(node, parent)
        if kind in ("fence", "code_block"):
            return self.code(node, parent)
        if kind == "hr":
            key = self.keys.key(parent, "divider", "")
            return {"object": "block", "type": "divider", "key": key, "isVoid": True, "data": {}}
        if kind == "table":
            return self.table(node, parent)
        if kind == "html_block":
            return self.text_paragraph(node.content.strip(), parent)
        return None

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
        key = self.keys.key(parent, "paragraph", _text_of(inline))
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
        tasks = any("task-list-item" in str(i.attrs.get("class", "")) for i in items)
        kind = "list-ordered" if node.type == "ordered_list" else "list-unordered"
        if tasks and kind == "list-unordered":
            kind = "list-tasks"
        key = self.keys.key(parent, kind, _text_of(node))
        nodes = []
        for item in items:
            item_key = self.keys.key(key, "list-item", _text_of(item))
            children = self.blocks(item.children, item_key)
            children = [c for c in children if c["type"] in _IN_LIST_ITEM]
            entry: Node = {
                "object": "block",
                "type": "list-item",
                "key": item_key,
                "nodes": children or [self.text_paragraph("", item_key)],
            }
            if kind == "list-tasks":
                entry["data"] = {"checked": _checked(item)}
            nodes.append(entry)
        block: Node = {"object": "block", "type": kind, "key": key, "nodes": nodes}
        if kind == "list-ordered":
            start = node.attrs.get("start")
            block["data"] = {"start": int(start)} if start is not None else {}
        return block

    def quote(self, node: SyntaxTreeNode, parent: str) -> Node:
        first = node.children[0] if node.children else None
        first_inline = first.children[0] if first is not None and first.children else None
        text = _text_of(first_inline) if first_inline is not None else ""
        match = _ALERT.match(text)
        key = self.keys.key(parent, "quote", _text_of(node))
        if match and first_inline is not None:
            style = _HINT_STYLE[match.group(1).lower()]
            _strip_alert(first_inline)
            children = self.blocks(node.children, key)
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
                "data": {"style": style},
                "nodes": essentials or [self.text_paragraph("", key)],
            }
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


_EMPTY_TEXT_NODES = [{"object": "text", "leaves": [{"object": "leaf", "text": "", "marks": []}]}]


def _leaf(text: str, marks: list[str]) -> Node:
    return {"object": "leaf", "text": text, "marks": [{"object": "mark", "type": m} for m in marks]}


def _checked(item: SyntaxTreeNode) -> bool:
    box = _CHECKBOX.search(_text_of(item))
    return box is not None and "checked" in box.group(0).replace("checkbox", "")


def _strip_alert(inline: SyntaxTreeNode) -> None:
    """Removes the `[!NOTE]` marker (and the line break after it) from the first paragraph."""
    children = inline.children
    if children and children[0].type == "text":
        children[0].token.content = _ALERT.sub("", children[0].content)  # type: ignore[union-attr]
        if len(children) > 1 and children[1].type in ("softbreak", "hardbreak"):
            del children[1]


def _plain(block: Node) -> str:
    if "leaves" in block:
        return "".join(leaf["text"] for leaf in block["leaves"])
    parts = [_plain(child) for child in block.get("nodes", [])]
    return ("\n" if block.get("object") == "block" else "").join(parts)


def to_document(markdown: str, resolve: Resolver) -> dict[str, Any]:
    """The JSON document of a page body; `resolve` turns each link's href into a ref."""
    root = SyntaxTreeNode(parse(markdown))
    converter = _Converter(resolve)
    nodes = converter.blocks(root.children, "")
    return {"object": "document", "data": {}, "nodes": nodes}
