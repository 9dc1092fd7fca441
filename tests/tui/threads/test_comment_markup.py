"""A comment body's inline markdown as the thread list shows it: markdown-it's inline tokens,
so what a writer typed outside marks shows as typed."""

from __future__ import annotations

import pytest
from rich.text import Text

from docdeck.tui.threads import body_text


def _styled(text: Text) -> list[tuple[str, str]]:
    return [(text.plain[span.start : span.end], str(span.style)) for span in text.spans]


def test_words_with_marks_inside_and_escapes_show_as_typed() -> None:
    text = body_text(r"use snake_case_name and 2*3*4 and \*not\*")

    assert text.plain == "use snake_case_name and 2*3*4 and *not*"
    assert _styled(text) == []


@pytest.mark.parametrize(
    ("markdown", "plain", "styled"),
    [
        ("**bold** and *it* and _it_", "bold and it and it", [("bold", "bold"), ("it", "italic")]),
        ("`a*b*c` stays", "a*b*c stays", [("a*b*c", "reverse")]),
        ("~~gone~~", "gone", [("gone", "strike")]),
        ("**bold *both***", "bold both", [("bold ", "bold"), ("both", "bold italic")]),
        ("see [docs](https://d.org)", "see docs (https://d.org)", [("docs", "underline")]),
    ],
)
def test_inline_marks_are_styled(markdown: str, plain: str, styled: list[tuple[str, str]]) -> None:
    text = body_text(markdown)

    assert text.plain == plain
    for part in styled:
        assert part in _styled(text)


def test_lines_and_their_indent_are_kept() -> None:
    text = body_text("first *line*\n  - second", indent="  ")

    assert text.plain == "  first line\n    - second"
    assert _styled(text) == [("line", "italic")]
