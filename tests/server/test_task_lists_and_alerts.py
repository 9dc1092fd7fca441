"""Task lists and alerts are read by markdown-it's own rules, once, and shown the same way by
every output the sandbox makes of a page: the JSON document, the published HTML and the PDF
(the TUI's page view: tests/tui/space/test_rendered_page.py). A task item has its box and its
text without the `[x] `; an alert is a block of its kind under its title (`⚠ Warning`); an
alert marker followed by text on its line is a plain quote, everywhere (as on GitHub)."""

from __future__ import annotations

import io
from typing import Any

import pypdf

from docdeck.models.markdown import alert_title, task_box
from docdeck.server.change_requests.pdf import body_html
from docdeck.server.content.html import Href, render_html

from ._support import ADMIN, Api, DemoIds

PAGE = """# Launch

- [x] Payment capture
- [ ] Partial shipments

> [!WARNING]
> Never log the **secret**.

> [!note] Not an alert: the marker has text after it.
"""
TASKS = [(True, "Payment capture"), (False, "Partial shipments")]
QUOTE = "[!note] Not an alert: the marker has text after it."


def _text(node: dict[str, Any]) -> str:
    if "leaves" in node:
        return "".join(leaf["text"] for leaf in node["leaves"])
    return "".join(_text(child) for child in node.get("nodes", []))


async def _change_request_with_the_page(api: Api, ids: DemoIds) -> tuple[str, str]:
    admin = api(ADMIN)
    space = ids.spaces["Webhooks Guide"]
    created = (await admin.post(f"/v1/spaces/{space}/change-requests", json={})).json()
    cr = f"/v1/spaces/{space}/change-requests/{created['id']}"
    change = {"operation": "insert_page", "title": "Launch", "document": {"markdown": PAGE}}
    response = await admin.post(f"{cr}/content?compat=false", json={"changes": [change]})
    assert response.status_code == 200, response.text
    return cr, response.json()["changes"][0]["page"]["id"]


async def test_the_document_has_the_tasks_and_the_hint(api: Api, ids: DemoIds) -> None:
    cr, page = await _change_request_with_the_page(api, ids)
    response = await api(ADMIN).get(f"{cr}/content/page/{page}", params={"format": "document"})
    assert response.status_code == 200, response.text
    heading, tasks, hint, quote = response.json()["document"]["nodes"]
    assert heading["type"] == "heading-1"
    assert tasks["type"] == "list-tasks"
    items = [(item["data"]["checked"], _text(item)) for item in tasks["nodes"]]
    assert items == TASKS  # the text as written after the box, no blank before it
    assert hint["type"] == "hint" and hint["data"] == {"style": "warning"}
    assert [_text(n) for n in hint["nodes"]] == ["Never log the secret."]
    assert quote["type"] == "blockquote" and _text(quote) == QUOTE


def test_the_published_html_has_checkboxes_and_the_alert_under_its_title() -> None:
    html = render_html(PAGE, lambda href: Href(href)).html
    assert html.count('type="checkbox"') == 2
    assert '<li class="task-list-item"><input class="task-list-item-checkbox" disabled=""' in html
    assert 'checked=""> Payment capture</li>' in html
    assert 'type="checkbox"> Partial shipments</li>' in html
    assert '<div class="markdown-alert markdown-alert-warning">' in html
    title = alert_title("WARNING")
    assert f'<p class="markdown-alert-title">{title}</p>' in html and title == "⚠ Warning"
    assert "<p>Never log the <strong>secret</strong>.</p>\n</div>" in html
    assert f"<blockquote>\n<p>{QUOTE}</p>\n</blockquote>" in html
    assert "[!WARNING]" not in html


def test_the_pdf_html_draws_the_boxes_and_titles_its_font_has() -> None:
    unicode = body_html(PAGE, lambda text: True)
    for checked, text in TASKS:
        assert f"<li>{task_box(checked)} {text}</li>" in unicode
    assert "<blockquote>\n<p><b>⚠ Warning</b></p>\n<p>Never log the <strong>secret" in unicode
    assert f"<blockquote>\n<p>{QUOTE}</p>" in unicode
    latin1 = body_html(PAGE)  # the core font: no box, no icon
    assert "<li>[x] Payment capture</li>" in latin1 and "<li>[ ] Partial shipments</li>" in latin1
    assert "<p><b>Warning</b></p>" in latin1 and "⚠" not in latin1
    assert "[!WARNING]" not in unicode + latin1


async def test_the_pdf_shows_the_tasks_and_the_alert(api: Api, ids: DemoIds) -> None:
    cr, page = await _change_request_with_the_page(api, ids)
    admin = api(ADMIN)
    url = (await admin.get(f"{cr}/pdf", params={"page": page, "only": "true"})).json()["url"]
    response = await admin.get(url.removeprefix("http://sandbox.test"))
    assert response.status_code == 200, response.text
    reader = pypdf.PdfReader(io.BytesIO(response.content))
    text = "\n".join(p.extract_text() for p in reader.pages)
    assert "Warning" in text and "Never log the" in text
    assert "[!WARNING]" not in text  # the marker was shown as written
    assert "Payment capture" in text and "Partial shipments" in text
    assert QUOTE in text.replace("\n", " ")
