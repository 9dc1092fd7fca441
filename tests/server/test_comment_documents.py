"""Comment bodies written as a platform document keep their marks, links and blocks: stored as
markdown, they read back as the same document."""

from __future__ import annotations

from typing import Any

import pytest

from ._comments import guide
from ._support import EDITOR, Api, DemoIds, error_of

ROUND_TRIPS = [
    "Is **this** right? See _the guide_ and `retry_after`.",
    "A [link](https://example.dev/a?b=1) with **bold `code` inside** and ~~gone~~.",
    "***both*** then **bold**_italic_ and mid**word**s and mid*wor*d",
    "Plain 2\\*3\\*4 and a\\_b and \\[not a link\\](x) and 1\\. no list",
    "# Heading with **bold**\n\n- one\n- **two**\n  - nested [x](https://x.dev)\n\n"
    "3. third\n4. fourth\n\n> quoted *text*\n\n```python\nprint('`hi`')\n```\n\n---",
    "1\\. not a list\n\n\\# not a heading\n\n\\> not a quote",
    "> [!WARNING]\n> Careful **now**\n\n- [x] done\n- [ ] todo",
    "| Name | Value |\n| :-- | --: |\n| **a** | `1` |\n| b \\| c | [l](https://l.dev) |",
]


def _strip_keys(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _strip_keys(v) for k, v in node.items() if k != "key"}
    if isinstance(node, list):
        return [_strip_keys(v) for v in node]
    return node


async def _post(api: Api, space: str, body: dict[str, Any]) -> dict[str, Any]:
    posted = await api(EDITOR).post(f"/v1/spaces/{space}/comments", json={"body": body})
    assert posted.status_code == 200, posted.text
    return dict(posted.json())


async def _read(api: Api, space: str, comment: str, body_format: str) -> dict[str, Any]:
    url = f"/v1/spaces/{space}/comments/{comment}"
    read = await api(EDITOR).get(url, params={"format": body_format})
    return dict(read.json()["body"])


@pytest.mark.parametrize("markdown", ROUND_TRIPS)
async def test_a_document_body_reads_back_as_the_same_document(
    api: Api, ids: DemoIds, markdown: str
) -> None:
    space, _ = guide(ids)
    first = await _post(api, space, {"markdown": markdown})
    document = (await _read(api, space, first["id"], "document"))["document"]
    second = await _post(api, space, {"document": document})
    again = (await _read(api, space, second["id"], "document"))["document"]
    assert _strip_keys(again) == _strip_keys(document)
    assert again == document, "the same blocks give the same keys"


async def test_marks_become_markdown_and_plain_text_stays_plain(api: Api, ids: DemoIds) -> None:
    space, _ = guide(ids)

    def leaf(text: str, *marks: str) -> dict[str, Any]:
        return {"object": "leaf", "text": text, "marks": [{"type": m} for m in marks]}

    document = {
        "nodes": [
            {
                "object": "block",
                "type": "paragraph",
                "nodes": [
                    {"object": "text", "leaves": [leaf("Use "), leaf("bold", "bold")]},
                    {"object": "text", "leaves": [leaf(" and "), leaf("it ", "italic")]},
                    {"object": "text", "leaves": [leaf("with "), leaf("x_y", "code")]},
                    {
                        "object": "inline",
                        "type": "link",
                        "data": {"ref": {"kind": "url", "url": "https://docs.dev/x"}},
                        "nodes": [{"object": "text", "leaves": [leaf(" docs", "bold")]}],
                    },
                    {"object": "text", "leaves": [leaf("; 2*3 <b>")]},
                ],
            }
        ]
    }
    posted = await _post(api, space, {"document": document})
    markdown = (await _read(api, space, posted["id"], "markdown"))["markdown"]
    assert (
        markdown == "Use **bold** and _it_ with `x_y`[ **docs**](https://docs.dev/x); 2\\*3 \\<b>"
    )
    read = (await _read(api, space, posted["id"], "document"))["document"]
    leaves = [
        (leaf["text"], [m["type"] for m in leaf["marks"]])
        for node in read["nodes"][0]["nodes"]
        for text in ([node] if node["object"] == "text" else node["nodes"])
        for leaf in text["leaves"]
    ]
    assert ("bold", ["bold"]) in leaves and ("it", ["italic"]) in leaves
    assert ("x_y", ["code"]) in leaves and ("docs", ["bold"]) in leaves
    assert any(text.startswith("; 2*3 <b>") and not marks for text, marks in leaves), leaves
    link = next(n for n in read["nodes"][0]["nodes"] if n["object"] == "inline")
    assert link["data"]["ref"] == {"kind": "url", "url": "https://docs.dev/x"}


async def test_a_reference_with_no_markdown_form_is_400_naming_where(
    api: Api, ids: DemoIds
) -> None:
    space, page = guide(ids)
    link = {
        "object": "inline",
        "type": "link",
        "data": {"ref": {"kind": "page", "page": page}},
        "nodes": [{"object": "text", "leaves": [{"text": "there"}]}],
    }
    body = {"document": {"nodes": [{"object": "block", "type": "paragraph", "nodes": [link]}]}}
    response = await api(EDITOR).post(f"/v1/spaces/{space}/comments", json={"body": body})
    message = error_of(response, 400)
    assert "body.document.nodes[0].nodes[0].data.ref.kind" in message
