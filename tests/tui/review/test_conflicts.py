"""Reading conflict markers as the sandbox's update writes them, and resolving them."""

from __future__ import annotations

from docdeck.tui.review.conflicts import Conflict, has_markers, parse_conflicts

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


def test_keeping_a_side_gives_back_that_side_exactly_as_the_server_writes_markers() -> None:
    """The server's blocks carry their own blank line and it writes one more after the end
    marker: keeping a side must not leave that extra blank line behind (it did: keeping the
    change request's side showed as an added empty line in the diff)."""
    from docdeck.server.change_requests.blocks import conflict_block

    head = "# Errors\n\n"
    main_block = "Every error answers with a status.\n\n"
    change_block = "Errors come back as JSON.\n\n"
    tail = "## Error body\n\nThe body.\n"
    marked = head + conflict_block(main_block, change_block, 3) + tail
    page = parse_conflicts("p", "Errors", marked)
    assert page.markdown() == marked  # unresolved: exactly what the server wrote
    (conflict,) = page.conflicts
    conflict.keep("change")
    assert page.markdown() == head + change_block + tail
    conflict.keep("main")
    assert page.markdown() == head + main_block + tail
    conflict.edited("Rewritten.")  # no newline at all: still one blank line before the next
    assert page.markdown() == head + "Rewritten.\n\n" + tail
