"""What the pane says of an update's or a merge's `result`, read from one table."""

from __future__ import annotations

import pytest

from docdeck.tui.review.conflict_pages import describe_result


@pytest.mark.parametrize(
    ("action", "result", "title", "severity"),
    [
        ("update", "update", "Updated from main", "information"),
        ("update", "conflicts", "Update found conflicts", "warning"),
        ("merge", "merge", "Merged", "information"),
        ("merge", "conflicts", "Merged with conflicts", "warning"),
    ],
)
def test_each_known_result_has_its_words(
    action: str, result: str, title: str, severity: str
) -> None:
    said = describe_result(action, result, 7)
    assert said[0] == title
    assert "#7" in said[1]
    assert said[2] == severity


def test_an_unknown_result_is_an_error_that_names_it() -> None:
    title, message, severity = describe_result("merge", "queued", 12)
    assert title == "Unexpected merge result"
    assert "“queued”" in message
    assert "#12" in message
    assert severity == "error"
