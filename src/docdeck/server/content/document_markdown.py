"""The platform's JSON document back to markdown, the inverse of `document.to_document`.

Bodies are stored as markdown (one form to search, diff and render), so a body written as a
document must come back with the same blocks and marks when read as a document: bold, italic,
strikethrough and code marks, links, headings, lists (nested, ordered, tasks), quotes, hints,
code, dividers, tables and images. Text is escaped wherever markdown would read it as syntax,
so `2*3*4` written as plain text stays plain text. A block or inline of a type markdown has no
form for keeps its text.
"""

from __future__ import annotations

import re
from typing import Any

from docdeck.server.errors import bad_request

Node = dict[str, Any]

_ESCAPED = re.compile(r"([\\`*_\[\]<~&])")
_LINE_START = re.compile(r"^(\s*\d*)(#(?=#{0,5}(\s|$))|[-+=](?=\s|$)|>|(?<=\d)[.)])")
_HINT = {"info": "NOTE", "success": "TIP", "warning": "WARNING", "danger": "CAUTION"}


def _destination(href: str) -> str:
    if re.search(r"[\s()<>]", href):
        return "<" + href.replace("<", "%3C").replace(">", "%3E") + ">"
    return href


class DocumentError(ValueError):
    """A document that is not one; `where` is the path to the faulty part."""


def _escape(text: str) -> str:
    return _ESCAPED.sub(r"\\\1", text)


def _escape_line_starts(markdown: str) -> str:
    return "\n".join(_LINE_START.sub(r"\1\\\2", line) for line in markdown.split("\n"))


def _code_span(text: str) -> str:
    runs = [len(r) for r in re.findall(r"`+", text)]
    fence = "`" * (max(runs, default=0) + 1)
    pad = " " if text.startswith(("`", " ")) or text.endswith(("`", " ")) else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _marks(leaf: Node) -> list[str]:
    """The leaf's marks, outermost first (as `to_document` lists them)."""
    found: list[str] = []
    for mark in leaf.get("marks") or []:
        kind = mark.get("type") if isinstance(mark, dict) else None
        if isinstance(kind, str) and kind not in found:
            found.append(kind)
    return found


Run = tuple[str, list[str]] | str
"""Text with its marks, or markdown already made (a link, an image)."""


def _split_space(text: str) -> tuple[str, str, str]:
    core = text.strip()
    if not core:
        return text, "", ""
    start = text.index(core)
    return text[:start], core, text[start + len(core) :]


def _render(runs: list[Run], before: str = "", after: str = "") -> str:
    """Runs as markdown: consecutive runs sharing their outermost mark are wrapped once (so
    `**bold `code` inside**` stays one bold span), whitespace stays outside the delimiters
    (markdown does not open emphasis before a space), italic is `*` inside a word, `_` else."""
    out: list[str] = []
    index = 0
    while index < len(runs):
        run = runs[index]
        if isinstance(run, str):
            out.append(run)
            index += 1
            continue
        text, marks = run
        outer = next((m for m in marks if m != "code"), None)
        if outer is None:
            out.append(_code_span(text) if "code" in marks and text.strip() else _escape(text))
            index += 1
            continue
        end = index
        while end < len(runs) and not isinstance(runs[end], str) and outer in runs[end][1]:
            end += 1
        inner: list[Run] = [
            (r[0], [m for m in r[1] if m != outer])
            for r in runs[index:end]
            if not isinstance(r, str)
        ]
        nxt = runs[end] if end < len(runs) else after
        nxt_text = nxt if isinstance(nxt, str) else nxt[0]
        lead, core, trail = _split_space(_render(inner))
        if not core:
            out.append(lead)
        else:
            prev = (lead or "".join(out) or before)[-1:]
            following = (trail or nxt_text)[:1]
            if outer == "bold":
                delimiter = "**"
            elif outer == "strikethrough":
                delimiter = "~~"
            elif outer == "italic":
                delimiter = "*" if prev.isalnum() or following.isalnum() else "_"
            else:
                delimiter = ""
            out.append(f"{lead}{delimiter}{core}{delimiter}{trail}")
        index = end
    return "".join(out)


class _Writer:
    def __init__(self) -> None:
        self.where = "body.document"

    def fail(self, where: str, message: str) -> DocumentError:
        return DocumentError(f"{where}: {message}")

    # --- inlines ----------------------------------------------------------------------------

    def _leaves(self, node: Node) -> list[Run]:
        leaves = node.get("leaves")
        if not isinstance(leaves, list):
            return [(str(node.get("text", "")), [])] if "text" in node else []
        return [
            (str(leaf.get("text", "")), _marks(leaf)) for leaf in leaves if isinstance(leaf, dict)
        ]

    def inlines(self, nodes: Any, where: str) -> str:
        runs: list[Run] = []
        for index, node in enumerate(nodes if isinstance(nodes, list) else []):
            here = f"{where}[{index}]"
            if not isinstance(node, dict):
                raise self.fail(here, "must be an object")
            if node.get("object") == "text" or "leaves" in node:
                runs.extend(self._leaves(node))
            elif node.get("type") == "link":
                runs.append(self.link(node, here))
            elif node.get("type") == "inline-image":
                runs.append(self.image(node.get("data") or {}, here))
            else:
                runs.append(self.inlines(node.get("nodes"), f"{here}.nodes"))
        return _render(runs)

    def href(self, ref: Any, where: str) -> str:
        if not isinstance(ref, dict):
            raise self.fail(where, "must be a content reference ({kind: url, url})")
        kind = ref.get("kind")
        if kind == "url" and isinstance(ref.get("url"), str):
            return str(ref["url"])
        if kind == "anchor" and isinstance(ref.get("anchor"), str) and "page" not in ref:
            return "#" + str(ref["anchor"])
        raise self.fail(
            f"{where}.kind",
            f"a {kind!r} reference has no markdown form here; link to a URL"
            " ({kind: url, url}) or to an anchor of this page ({kind: anchor, anchor})",
        )

    def link(self, node: Node, where: str) -> str:
        data = node.get("data") or {}
        href = self.href(data.get("ref") if isinstance(data, dict) else None, f"{where}.data.ref")
        text = self.inlines(node.get("nodes"), f"{where}.nodes")
        return f"[{text}]({_destination(href)})"

    def image(self, data: Any, where: str) -> str:
        data = data if isinstance(data, dict) else {}
        src = self.href(data.get("ref"), f"{where}.data.ref")
        alt = _escape(str(data.get("caption") or data.get("alt") or ""))
        return f"![{alt}]({_destination(src)})"

    # --- blocks -----------------------------------------------------------------------------

    def blocks(self, nodes: Any, where: str) -> list[str]:
        if not isinstance(nodes, list):
            raise self.fail(where, "must be a list of blocks")
        out = []
        for index, node in enumerate(nodes):
            here = f"{where}[{index}]"
            if not isinstance(node, dict):
                raise self.fail(here, "every block must be an object")
            text = self.block(node, here)
            if text.strip():
                out.append(text)
        return out

    def block(self, node: Node, where: str) -> str:
        kind = str(node.get("type", "paragraph"))
        children = node.get("nodes")
        if kind.startswith("heading-") and kind[-1:].isdigit():
            return "#" * min(int(kind[-1]), 6) + " " + self.inlines(children, f"{where}.nodes")
        if kind in ("list-ordered", "list-unordered", "list-tasks"):
            return self.list_block(node, kind, where)
        if kind == "code":
            return self.code(node, where)
        if kind in ("blockquote", "hint"):
            inner = "\n\n".join(self.blocks(children or [], f"{where}.nodes"))
            if kind == "hint":
                style = (node.get("data") or {}).get("style", "info")
                inner = f"[!{_HINT.get(str(style), 'NOTE')}]\n{inner}"
            return "\n".join("> " + line if line else ">" for line in inner.split("\n"))
        if kind == "divider":
            return "---"
        if kind == "table":
            return self.table(node, where)
        if kind == "images":
            return " ".join(
                self.image(image.get("data"), f"{where}.nodes[{i}]")
                for i, image in enumerate(children or [])
                if isinstance(image, dict)
            )
        if kind == "image":
            return self.image(node.get("data"), where)
        if children and all(isinstance(c, dict) and c.get("object") == "block" for c in children):
            return "\n\n".join(self.blocks(children, f"{where}.nodes"))
        return _escape_line_starts(self.inlines(children, f"{where}.nodes"))

    def list_block(self, node: Node, kind: str, where: str) -> str:
        start = (node.get("data") or {}).get("start", 1) if kind == "list-ordered" else 1
        items = []
        for index, item in enumerate(node.get("nodes") or []):
            here = f"{where}.nodes[{index}]"
            if not isinstance(item, dict):
                raise self.fail(here, "every list item must be an object")
            if kind == "list-ordered":
                marker = f"{int(start) + index}. " if isinstance(start, int) else f"{index + 1}. "
            elif kind == "list-tasks":
                checked = bool((item.get("data") or {}).get("checked"))
                marker = "- [x] " if checked else "- [ ] "
            else:
                marker = "- "
            inner = "\n\n".join(self.blocks(item.get("nodes") or [], f"{here}.nodes"))
            indent = " " * (len(marker) - (4 if kind == "list-tasks" else 0))
            lines = inner.split("\n") or [""]
            if kind == "list-tasks":
                lines[0] = lines[0].lstrip(" ")
            rest = [indent + line if line else "" for line in lines[1:]]
            items.append("\n".join([marker + lines[0], *rest]))
        return "\n".join(items)

    def code(self, node: Node, where: str) -> str:
        lines = []
        for line in node.get("nodes") or []:
            if isinstance(line, dict):
                lines.append(_plain(line))
        text = "\n".join(lines)
        runs = [len(r) for r in re.findall(r"`{3,}", text)]
        fence = "`" * max(3, max(runs, default=0) + 1)
        syntax = str((node.get("data") or {}).get("syntax") or "")
        return f"{fence}{syntax}\n{text}\n{fence}"

    def table(self, node: Node, where: str) -> str:
        data = node.get("data") or {}
        definition = data.get("definition") or {}
        columns = list((data.get("view") or {}).get("columns") or definition.keys())
        if not columns:
            return ""
        cells = {
            str(fragment.get("fragment")): fragment
            for fragment in node.get("fragments") or []
            if isinstance(fragment, dict)
        }
        align = {"left": ":--", "center": ":-:", "right": "--:"}

        def cell(fragment_id: Any) -> str:
            fragment = cells.get(str(fragment_id))
            if fragment is None:
                return ""
            text = " ".join(self.blocks(fragment.get("nodes") or [], f"{where}.fragments"))
            return text.replace("\n", " ").replace("|", "\\|")

        header = [_escape(str((definition.get(c) or {}).get("title", ""))) for c in columns]
        rule = [
            align.get(str((definition.get(c) or {}).get("textAlignment")), "---") for c in columns
        ]
        records = data.get("records") or {}
        ordered = sorted(
            (r for r in records.values() if isinstance(r, dict)),
            key=lambda r: str(r.get("orderIndex", "")),
        )
        rows = [[cell((r.get("values") or {}).get(c)) for c in columns] for r in ordered]
        return "\n".join("| " + " | ".join(row) + " |" for row in [header, rule, *rows])


def _plain(node: Node) -> str:
    if "leaves" in node:
        return "".join(
            str(leaf.get("text", "")) for leaf in node["leaves"] if isinstance(leaf, dict)
        )
    return "".join(_plain(c) for c in node.get("nodes") or [] if isinstance(c, dict))


def to_markdown(document: Any, field: str = "document") -> str:
    """The markdown of a document (`{nodes: [...]}`); a 400 names the faulty part."""
    if not isinstance(document, dict) or not isinstance(document.get("nodes"), list):
        raise bad_request(f"{field}.nodes: must be a list of blocks")
    try:
        return "\n\n".join(_Writer().blocks(document["nodes"], f"{field}.nodes"))
    except DocumentError as error:
        raise bad_request(str(error)) from None
