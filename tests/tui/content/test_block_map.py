"""Block keys <-> markdown lines, against documents the sandbox makes (format=document)."""

from __future__ import annotations

from docdeck.server.content.document import to_document
from docdeck.tui.content.block_map import block_map

PAGE = """# Title

Intro paragraph
over two lines.

- one
- two
  - nested

> [!NOTE]
> Careful here.

```python
print(1)
print(2)
```

| a | b |
|---|---|
| 1 | 2 |

Last words.
"""


def _map(markdown: str = PAGE):  # type: ignore[no-untyped-def]
    document = to_document(markdown, lambda href: {"kind": "url", "url": href})
    return document, block_map(document, markdown)


def test_every_key_of_the_document_has_lines() -> None:
    document, blocks = _map()
    keys: list[str] = []

    def walk(nodes: list) -> None:  # type: ignore[type-arg]
        for node in nodes:
            if node.get("object") == "block":
                keys.append(node["key"])
            walk(node.get("nodes", []))
            for fragment in node.get("fragments", []):
                walk(fragment.get("nodes", []))

    walk(document["nodes"])
    assert sorted(b.key for b in blocks.blocks) == sorted(keys)


def test_a_line_gives_its_innermost_block_and_a_key_gives_its_lines() -> None:
    document, blocks = _map()
    lines = PAGE.split("\n")
    intro = blocks.at_line(3)
    assert intro is not None and intro.type == "paragraph"
    assert intro.text == "Intro paragraph over two lines."
    assert (intro.start, intro.end) == (2, 4)
    assert blocks.by_key(intro.key) == intro
    assert document["nodes"][1]["key"] == intro.key

    nested = blocks.at_line(7)
    assert nested is not None and nested.text == "nested" and nested.depth > 1
    code_line = blocks.at_line(14)
    assert code_line is not None and code_line.type == "code-line" and code_line.text == "print(2)"
    row = blocks.at_line(19)
    assert row is not None and row.text in ("1", "2") and lines[19].startswith("| 1")
    hint = blocks.top_at_line(10)
    assert hint is not None and hint.type == "hint" and hint.text == "Careful here."
    heading = blocks.at_line(0)
    assert heading is not None and heading.type == "heading-1" and heading.last == 0


def test_a_blank_line_gives_the_next_block() -> None:
    _, blocks = _map()
    after = blocks.at_line(1)
    assert after is not None and after.text.startswith("Intro")
    end = blocks.at_line(999)
    assert end is not None and end.text == "Last words."


def test_blocks_the_document_leaves_out_do_not_shift_the_rest() -> None:
    # Front-matter-like raw HTML and a link reference definition: markdown-it blocks that
    # the document does not keep one for one; the last paragraph still maps to its line.
    markdown = "Para one.\n\n[ref]: https://example.com\n\nPara two.\n"
    _, blocks = _map(markdown)
    two = next(b for b in blocks.blocks if b.text == "Para two.")
    assert two.start == 4


def test_an_empty_page_has_no_blocks() -> None:
    _, blocks = _map("")
    assert blocks.blocks == () and blocks.at_line(0) is None


def test_task_items_and_an_alert_map_to_their_own_lines() -> None:
    # The alert's text starts on the line after its marker; each task item has its line.
    markdown = "- [x] done\n- [ ] to do\n\n> [!WARNING]\n> Careful.\n> Really.\n"
    document, blocks = _map(markdown)
    tasks, hint = document["nodes"]
    assert tasks["type"] == "list-tasks" and hint["type"] == "hint"
    todo = blocks.at_line(1)
    assert todo is not None and todo.type == "paragraph" and todo.text == "to do"
    assert (todo.start, todo.end) == (1, 2)
    top = blocks.top_at_line(3)
    assert top is not None and top.key == hint["key"] and (top.start, top.end) == (3, 6)
    inside = blocks.at_line(4)
    assert inside is not None and inside.type == "paragraph" and inside.text == "Careful. Really."
    assert (inside.start, inside.end) == (4, 6)  # not the marker's line
