"""A page's markdown diff as rows, built on the standard library's `difflib` (PSF licence).

The review pane shows one row per diff line with a cursor, in two layouts: unified (a
removed line, then the added one) and side by side (the base on the left, the change
request on the right, paired). Both come from the same grouped opcodes, so a hunk is the
same hunk in either layout and the cursor can keep its place when the layout switches.
Unchanged stretches longer than the context are folded into one row.

Changed words inside a changed line are found by a second `SequenceMatcher` over the
line's words, for lines paired within a replaced block (line k of the old block with line
k of the new one). Lines that share too little are marked whole, as a reader would see
them. Pure text work: no Textual, no Rich, so it is cheap to test and to bench.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Literal

__all__ = ["CONTEXT", "DiffRow", "PageDiff", "RowKind", "Side", "diff_pages", "word_spans"]

CONTEXT = 3
"""Unchanged lines kept around each change."""

WORD_PAIRING = 0.3
"""Below this similarity two paired lines are shown as wholly changed, not word by word."""

_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")

RowKind = Literal["equal", "delete", "insert", "change", "fold"]


@dataclass(frozen=True)
class Side:
    """One side of a row: a line of the base's or of the change request's markdown."""

    line: int
    """0-based line number in that side's markdown."""
    text: str
    words: tuple[tuple[int, int], ...] = ()
    """Changed (start, end) character spans inside the line."""


@dataclass(frozen=True)
class DiffRow:
    kind: RowKind
    base: Side | None = None
    change: Side | None = None
    hunk: int = -1
    """Which hunk the row belongs to (-1: a fold row between hunks)."""
    folded: int = 0
    """For a fold row: how many unchanged lines it stands for."""

    @property
    def changed(self) -> bool:
        return self.kind in ("delete", "insert", "change")


@dataclass
class PageDiff:
    base: list[str]
    change: list[str]
    unified: list[DiffRow] = field(default_factory=list)
    split: list[DiffRow] = field(default_factory=list)
    hunks: int = 0
    added: int = 0
    removed: int = 0

    @property
    def identical(self) -> bool:
        return self.hunks == 0

    def rows(self, layout: str) -> list[DiffRow]:
        return self.split if layout == "split" else self.unified


def word_spans(
    old: str, new: str
) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """The changed character spans of two versions of a line (empty when too different to
    pair word by word: the whole line is the change then)."""
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    # How much text (not spacing) the two share: a common space alone pairs nothing.
    shared = sum(
        len(token)
        for block in matcher.get_matching_blocks()
        for token in a[block.a : block.a + block.size]
        if not token.isspace()
    )
    if 2 * shared < WORD_PAIRING * (len(old.replace(" ", "")) + len(new.replace(" ", ""))):
        return (), ()
    offsets_a, offsets_b = _offsets(a), _offsets(b)
    spans_a: list[tuple[int, int]] = []
    spans_b: list[tuple[int, int]] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if i2 > i1:
            spans_a.append((offsets_a[i1], offsets_a[i2]))
        if j2 > j1:
            spans_b.append((offsets_b[j1], offsets_b[j2]))
    return tuple(spans_a), tuple(spans_b)


def _offsets(tokens: list[str]) -> list[int]:
    offsets = [0]
    for token in tokens:
        offsets.append(offsets[-1] + len(token))
    return offsets


def diff_pages(base: str, change: str, context: int = CONTEXT) -> PageDiff:
    """Both layouts of the diff from `base` to `change` (either may be empty: an added or
    a deleted page)."""
    a, b = base.splitlines(), change.splitlines()
    diff = PageDiff(a, b)
    if a == b:
        return diff
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    previous_end = (0, 0)
    for hunk, group in enumerate(matcher.get_grouped_opcodes(context)):
        _fold(diff, a, b, previous_end, (group[0][1], group[0][3]))
        for tag, i1, i2, j1, j2 in group:
            _rows(diff, hunk, tag, a, b, i1, i2, j1, j2)
        previous_end = (group[-1][2], group[-1][4])
        diff.hunks = hunk + 1
    _fold(diff, a, b, previous_end, (len(a), len(b)))
    return diff


def _fold(
    diff: PageDiff, a: list[str], b: list[str], start: tuple[int, int], end: tuple[int, int]
) -> None:
    hidden = end[0] - start[0]
    if hidden <= 0:
        return
    row = DiffRow("fold", Side(start[0], ""), Side(start[1], ""), folded=hidden)
    diff.unified.append(row)
    diff.split.append(row)


def _rows(
    diff: PageDiff,
    hunk: int,
    tag: str,
    a: list[str],
    b: list[str],
    i1: int,
    i2: int,
    j1: int,
    j2: int,
) -> None:
    if tag == "equal":
        for offset in range(i2 - i1):
            row = DiffRow(
                "equal", Side(i1 + offset, a[i1 + offset]), Side(j1 + offset, b[j1 + offset]), hunk
            )
            diff.unified.append(row)
            diff.split.append(row)
        return
    old = [Side(i, a[i]) for i in range(i1, i2)]
    new = [Side(j, b[j]) for j in range(j1, j2)]
    for k in range(min(len(old), len(new))):
        words_a, words_b = word_spans(old[k].text, new[k].text)
        old[k] = Side(old[k].line, old[k].text, words_a)
        new[k] = Side(new[k].line, new[k].text, words_b)
    diff.removed += len(old)
    diff.added += len(new)
    diff.unified.extend(DiffRow("delete", base=side, hunk=hunk) for side in old)
    diff.unified.extend(DiffRow("insert", change=side, hunk=hunk) for side in new)
    for k in range(max(len(old), len(new))):
        left = old[k] if k < len(old) else None
        right = new[k] if k < len(new) else None
        kind: RowKind = "change" if left and right else ("delete" if left else "insert")
        diff.split.append(DiffRow(kind, left, right, hunk))
