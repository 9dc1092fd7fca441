"""Reading conflict markers as the sandbox's update writes them, and resolving them."""

from __future__ import annotations

from docdeck.tui.conflicts import Conflict, has_markers, parse_conflicts

PAGE = (
    "# Errors\n\nIntro.\n\n"
    "<<<<<<< main\nMain's paragraph.\n=======\nThe change request's paragraph.\n"
    ">>>>>>> change request #3\n\nMiddle.\n\n"
    "<<<<<<< main\n*(This page was deleted in main.)*\n=======\nKept text.\n"
    ">>>>>>> change request #3\n"
)


def test_text_and_conflicts_in_order() -> None:
    page = parse_conflicts("p1", "Errors", PAGE)
    kinds = [type(part).__name__ for part in page.parts]
    assert kinds == ["str", "Conflict", "str", "Conflict"]
    first, second = page.conflicts
    assert first.main == "Main's paragraph.\n"
    assert first.change == "The change request's paragraph.\n"
    assert first.main_label == "main" and first.change_label == "change request #3"
    assert second.main.startswith("*(This page was deleted")
    assert page.markdown() == PAGE  # unresolved: the markers stay, nothing is dropped


def test_resolving_each_side_and_an_edit() -> None:
    page = parse_conflicts("p1", "Errors", PAGE)
    first, second = page.conflicts
    first.keep("change")
    assert not page.resolved
    second.edited("Written anew.\n")
    assert page.resolved
    markdown = page.markdown()
    assert not has_markers(markdown)
    assert markdown == (
        "# Errors\n\nIntro.\n\nThe change request's paragraph.\n\nMiddle.\n\nWritten anew.\n"
    )
    first.keep("main")
    assert "Main's paragraph." in page.markdown()


def test_an_incomplete_marker_stays_text() -> None:
    text = "<<<<<<< main\nno middle and no end\n"
    page = parse_conflicts("p", "T", text)
    assert page.conflicts == [] and page.markdown() == text


def test_the_editor_starts_from_the_markers() -> None:
    conflict = Conflict("a\n", "b\n", "main", "change request #1")
    assert conflict.as_markers() == ("<<<<<<< main\na\n=======\nb\n>>>>>>> change request #1\n")
