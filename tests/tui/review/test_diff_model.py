"""The diff rows (difflib), changed words inside lines, and code colouring per side."""

from __future__ import annotations

from docdeck.tui.review import styled_lines
from docdeck.tui.review.diff_model import diff_pages, word_spans

BASE = "\n".join(f"line {n}" for n in range(1, 31))


def test_identical_pages_have_no_hunks() -> None:
    diff = diff_pages(BASE, BASE)
    assert diff.identical and diff.unified == [] and diff.split == []


def test_two_distant_edits_are_two_hunks_with_a_fold_between() -> None:
    changed = BASE.replace("line 2\n", "line two\n").replace("line 29", "line twenty-nine")
    diff = diff_pages(BASE, changed)
    assert diff.hunks == 2 and diff.added == 2 and diff.removed == 2
    kinds = [row.kind for row in diff.unified]
    assert kinds.count("fold") == 1  # between the hunks (the last is near the end)
    folds = [row.folded for row in diff.unified if row.kind == "fold"]
    assert folds == [20]  # lines 6..25: all but the changes and 3 lines of context each
    # Unified: the old line, then the new one; side by side: both on one row.
    first = [row for row in diff.unified if row.changed][:2]
    assert [r.kind for r in first] == ["delete", "insert"]
    assert first[0].base is not None and first[0].base.line == 1
    pair = next(row for row in diff.split if row.changed)
    assert pair.kind == "change" and pair.base and pair.change
    assert (pair.base.text, pair.change.text) == ("line 2", "line two")


def test_changed_words_are_spans_inside_the_lines() -> None:
    old, new = "Tokens expire after 30 days.", "Tokens expire after 90 days, unless revoked."
    spans_old, spans_new = word_spans(old, new)
    assert [old[a:b] for a, b in spans_old] == ["30"]
    changed = [new[a:b] for a, b in spans_new]
    assert changed[0] == "90" and "unless revoked" in "".join(changed[1:])
    assert "Tokens expire after" not in "".join(changed)
    # Lines with nothing in common are changed whole (no word spans).
    assert word_spans("alpha beta", "gamma delta") == ((), ())


def test_added_and_deleted_pages_diff_against_nothing() -> None:
    added = diff_pages("", "# New\n\ntext")
    assert added.removed == 0 and added.added == 3 and added.hunks == 1
    deleted = diff_pages("# Old\n\ntext", "")
    assert deleted.added == 0 and deleted.removed == 3


def test_code_blocks_are_coloured_by_language() -> None:
    lines = ["# Title", "", "```python", "def f(x):", "    return x", "```", "after"]
    styled = styled_lines(lines)
    assert len(styled) == len(lines)
    assert [t.plain for t in styled] == lines
    code = styled[3]
    assert code.spans, "the python line carries syntax styles"
    assert not styled[6].spans  # prose after the block is not coloured as code
    assert "bold" in str(styled[0].spans[0].style)  # a heading
    # An unknown language keeps the text, uncoloured.
    plain = styled_lines(["```nosuchlanguage", "a = 1", "```"])
    assert plain[1].plain == "a = 1"
