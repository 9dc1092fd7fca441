"""A translation's instructions: a JSON document on the wire, plain text in `$EDITOR`.

Each paragraph of the text (lines separated by a blank line) becomes a paragraph block; a
document is read back as its blocks' text, one paragraph each. Marks and other block kinds
are read as their text (the translator reads plain words too)."""

from __future__ import annotations

from typing import Any

__all__ = ["document_of", "text_of"]


def _leaves(node: Any) -> str:
    if isinstance(node, dict):
        if node.get("object") == "leaf":
            text = node.get("text")
            return text if isinstance(text, str) else ""
        if isinstance(node.get("leaves"), list):
            return "".join(_leaves(leaf) for leaf in node["leaves"])
        children = node.get("nodes")
        if isinstance(children, list):
            return "".join(_leaves(child) for child in children)
        text = node.get("text")
        return text if isinstance(text, str) else ""
    return ""


def text_of(document: dict[str, Any] | None) -> str:
    """The document's text, a blank line between blocks ("" for none)."""
    if not isinstance(document, dict):
        return ""
    blocks = document.get("nodes")
    if not isinstance(blocks, list):
        return ""
    return "\n\n".join(text for text in (_leaves(block).strip() for block in blocks) if text)


def document_of(text: str) -> dict[str, Any]:
    """The instructions document for `text`: one paragraph per block of lines."""
    paragraphs = [part.strip() for part in text.replace("\r\n", "\n").split("\n\n")]
    return {
        "object": "document",
        "data": {},
        "nodes": [
            {
                "object": "block",
                "type": "paragraph",
                "data": {},
                "nodes": [
                    {
                        "object": "text",
                        "leaves": [{"object": "leaf", "text": part, "marks": []}],
                    }
                ],
            }
            for part in paragraphs
            if part
        ],
    }
