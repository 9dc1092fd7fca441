"""Page bodies as blocks, and three-way merging of them block by block.

A body is cut into blocks the way a reader sees them: a heading, a paragraph, a code block,
a table, a quote, and each item of a list. The blocks joined give back the body exactly
(the blank lines after a block belong to it), so merging never reflows anything it does not
have to. Two sides that change different blocks of one page merge cleanly; the same block
changed differently on both sides is a conflict.

Matching blocks between versions uses the standard library's `difflib.SequenceMatcher`
(PSF licence), not a GPL merge library.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from docdeck.server.content.markdown import parse

MAIN_MARK = "<<<<<<< main"
SPLIT_MARK = "======="
CR_MARK = ">>>>>>> change request"
_MARKER = re.compile(r"^(<<<<<<< main|=======|>>>>>>> change request)", re.MULTILINE)


def split_blocks(markdown: str) -> list[str]:
    """The body's blocks; `"".join(split_blocks(md)) == md`."""
    if not markdown:
        return []
    lines = markdown.splitlines(keepends=True)
    starts: set[int] = {0}
    for token in parse(markdown):
        if token.map is None or token.nesting == -1:
            continue
        if token.level == 0 or (token.type == "list_item_open" and token.level == 1):
            starts.add(token.map[0])
        if token.level == 0 and token.nesting == 0:  # fence, code, hr, html: one token
            starts.add(token.map[1])
    # A block ends where the next one starts; lines past the last token stay with it.
    cuts = sorted(s for s in starts if 0 <= s < len(lines))
    blocks = []
    for index, start in enumerate(cuts):
        end = cuts[index + 1] if index + 1 < len(cuts) else len(lines)
        chunk = "".join(lines[start:end])
        if chunk:
            blocks.append(chunk)
    return _attach_blank_lines(blocks)


def _attach_blank_lines(blocks: list[str]) -> list[str]:
    """Blank-only chunks join the block before them (so a block is its text plus spacing)."""
    out: list[str] = []
    for block in blocks:
        if out and not block.strip():
            out[-1] += block
        else:
            out.append(block)
    return out


def has_markers(markdown: str) -> bool:
    return _MARKER.search(markdown) is not None


def _ended(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"


def conflict_block(main: str, change_request: str, number: int) -> str:
    """Both versions between labelled markers, as a reviewer resolves them by authoring."""
    return (
        f"{MAIN_MARK}\n{_ended(main)}{SPLIT_MARK}\n{_ended(change_request)}{CR_MARK} #{number}\n\n"
    )


@dataclass(frozen=True)
class _Hunk:
    start: int  # in base blocks
    end: int
    lines: tuple[str, ...]


def _hunks(base: list[str], side: list[str]) -> list[_Hunk]:
    matcher = difflib.SequenceMatcher(a=base, b=side, autojunk=False)
    return [
        _Hunk(i1, i2, tuple(side[j1:j2]))
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def _touches(start: int, end: int, hunk: _Hunk) -> bool:
    """Overlapping ranges, or two changes at the same place (insertions included)."""
    return (
        (hunk.start < end and start < hunk.end)
        or hunk.start == start
        or (hunk.start == hunk.end and start < hunk.start < end)
    )


def _apply(base: list[str], start: int, end: int, hunks: list[_Hunk]) -> list[str]:
    out: list[str] = []
    at = start
    for hunk in sorted(hunks, key=lambda h: (h.start, h.end)):
        out.extend(base[at : hunk.start])
        out.extend(hunk.lines)
        at = hunk.end
    out.extend(base[at:end])
    return out


@dataclass(frozen=True)
class BodyMerge:
    text: str
    """The merged body (with conflict markers when `keep` is None)."""
    conflicts: int


def merge_bodies(
    base: str, change_request: str, main: str, *, number: int, keep_change_request: bool
) -> BodyMerge:
    """Three-way merge of one body. A conflicting region gets both versions between markers,
    or, with `keep_change_request`, the change request's version alone."""
    if change_request == main or main == base:
        return BodyMerge(change_request, 0)
    if change_request == base:
        return BodyMerge(main, 0)
    b = split_blocks(base)
    ours = [(h, "cr") for h in _hunks(b, split_blocks(change_request))]
    theirs = [(h, "main") for h in _hunks(b, split_blocks(main))]
    changes = sorted(ours + theirs, key=lambda item: (item[0].start, item[0].end))
    out: list[str] = []
    at = 0
    conflicts = 0
    index = 0
    while index < len(changes):
        group = [changes[index]]
        start, end = changes[index][0].start, changes[index][0].end
        index += 1
        while index < len(changes) and _touches(start, end, changes[index][0]):
            hunk = changes[index][0]
            group.append(changes[index])
            start, end = min(start, hunk.start), max(end, hunk.end)
            index += 1
        out.extend(b[at:start])
        at = end
        cr_side = _apply(b, start, end, [h for h, side in group if side == "cr"])
        main_side = _apply(b, start, end, [h for h, side in group if side == "main"])
        sides = {side for _, side in group}
        if sides == {"cr"} or cr_side == main_side:
            out.extend(cr_side)
        elif sides == {"main"}:
            out.extend(main_side)
        else:
            conflicts += 1
            if keep_change_request:
                out.extend(cr_side)
            else:
                out.append(conflict_block("".join(main_side), "".join(cr_side), number))
    out.extend(b[at:])
    return BodyMerge("".join(out), conflicts)
