"""Reverting only some blocks of a page (`revert_page` with `block`): the keys are those of
the page's JSON document (its top-level nodes), matched to the markdown's top-level blocks."""

from __future__ import annotations

import difflib
from typing import Any

from docdeck.server.content.document import to_document
from docdeck.server.content.markdown import parse


def top_level_blocks(markdown: str) -> list[str]:
    lines = markdown.splitlines(keepends=True)
    ranges = [t.map for t in parse(markdown) if t.level == 0 and t.nesting >= 0 and t.map]
    out = []
    for index, (start, _) in enumerate(ranges):
        start = 0 if index == 0 else start
        end = ranges[index + 1][0] if index + 1 < len(ranges) else len(lines)
        out.append("".join(lines[start:end]))
    return out


def _keys(markdown: str) -> list[str]:
    def plain(href: str) -> dict[str, Any]:
        return {"kind": "url", "url": href}

    return [str(node.get("key")) for node in to_document(markdown, plain)["nodes"]]


def revert_blocks(current: str, old: str, keys: list[str]) -> str | list[str]:
    """The body with the blocks named by `keys` (of either version) put back as they were in
    `old`; or the list of keys that name no block."""
    now_blocks, old_blocks = top_level_blocks(current), top_level_blocks(old)
    now_keys, old_keys = _keys(current), _keys(old)
    if len(now_keys) != len(now_blocks) or len(old_keys) != len(old_blocks):
        return [keys[0]] if keys else []
    wanted_now = {now_keys.index(k) for k in keys if k in now_keys}
    wanted_old = {old_keys.index(k) for k in keys if k in old_keys}
    missing = [k for k in keys if k not in now_keys and k not in old_keys]
    if missing:
        return missing
    matcher = difflib.SequenceMatcher(a=old_blocks, b=now_blocks, autojunk=False)
    out: list[str] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        hit = any(j in wanted_now for j in range(j1, j2)) or any(
            i in wanted_old for i in range(i1, i2)
        )
        out.extend(old_blocks[i1:i2] if tag != "equal" and hit else now_blocks[j1:j2])
    return "".join(out)
