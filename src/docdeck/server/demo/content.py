"""Content of the demo spaces: documentation with history, images and PDFs made in code.

Each space gets several revisions, as a team would have made them: a first import, then
additions, edits and a move, so the history and `/changes` show something real.
"""

from __future__ import annotations

import io
import sqlite3
from datetime import datetime, timedelta

from docdeck.server.content.edits import Draft
from docdeck.server.content.snapshots import get_text
from docdeck.server.demo.pages import API_DOCS, Page
from docdeck.server.demo.pages_team import HANDBOOK, RELEASES


def _png(title: str, boxes: list[str], size: tuple[int, int] = (480, 160)) -> bytes:
    """A small diagram: labelled boxes joined by arrows (few colours, so a few KB)."""
    from PIL import Image, ImageDraw

    image = Image.new("P", size, 0)
    image.putpalette([255, 255, 255, 30, 64, 120, 220, 232, 245, 90, 90, 90] + [0] * 756)
    draw = ImageDraw.Draw(image)
    draw.text((10, 8), title, fill=1)
    width = (size[0] - 20) // max(len(boxes), 1)
    for index, label in enumerate(boxes):
        left = 10 + index * width
        draw.rectangle((left + 6, 50, left + width - 6, size[1] - 30), fill=2, outline=1)
        draw.text((left + 14, 60), label, fill=1)
        if index:
            draw.line((left - 6, 80, left + 6, 80), fill=3, width=2)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def _pdf(title: str, lines: list[str]) -> bytes:
    """A one-page PDF with a heading and lines of text, written by Pillow."""
    from PIL import Image, ImageDraw

    image = Image.new("1", (620, 877), 1)
    draw = ImageDraw.Draw(image)
    draw.text((48, 48), title, fill=0)
    for index, line in enumerate(lines):
        draw.text((48, 96 + index * 22), line, fill=0)
    out = io.BytesIO()
    image.save(out, "PDF", resolution=72.0, title=title)
    return out.getvalue()


def _add_tree(draft: Draft, pages: list[Page], parent: str | None = None) -> dict[str, str]:
    ids: dict[str, str] = {}
    for title, emoji, markdown, children in pages:
        page_id = draft.add_page(title, parent=parent, markdown=markdown, emoji=emoji)
        ids[title if parent is None else f"{draft.pages[parent]['title']}/{title}"] = page_id
        ids.update(_add_tree(draft, children, page_id))
    return ids


def load_api_docs(conn: sqlite3.Connection, space_id: str, start: datetime) -> None:
    """Public API Reference: 30+ pages in three levels, written over four revisions."""
    first = [p for p in API_DOCS if p[0] != "SDKs"]
    draft = Draft(conn, space_id, start)
    _add_tree(draft, first)
    draft.add_file("request-flow.png", _png("Request flow", ["Client", "API", "Queue", "Store"]))
    draft.add_file(
        "webhook-retries.png", _png("Retries", ["1 min", "5 min", "30 min", "2 h", "12 h"])
    )
    draft.add_file(
        "sample-invoice.pdf",
        _pdf("Invoice inv_2024_0042", ["Northwind Labs", "12 x TEA-EARL-GREY  EUR 54.00"]),
    )
    draft.commit(message="Import the v2 API docs")

    draft = Draft(conn, space_id, start + timedelta(days=3))
    _add_tree(draft, [p for p in API_DOCS if p[0] == "SDKs"])
    draft.commit(message="Add the SDK pages")

    draft = Draft(conn, space_id, start + timedelta(days=9))
    rate = next(i for i, e in draft.pages.items() if e["title"] == "Rate limits")
    markdown = get_text(conn, draft.pages[rate]["body"])
    draft.set_markdown(rate, markdown.replace("600 requests", "1,000 requests"))
    draft.commit(message="Raise the read limit")

    draft = Draft(conn, space_id, start + timedelta(days=20))
    glossary = next(i for i, e in draft.pages.items() if e["title"] == "Glossary")
    reference = next(i for i, e in draft.pages.items() if e["title"] == "Reference")
    draft.move(glossary, reference)
    draft.move(glossary, None)  # moved back: the glossary's links are written from the top
    draft.rename(glossary, "Glossary of terms")
    draft.commit(message="Rename the glossary")


def load_handbook(conn: sqlite3.Connection, space_id: str, start: datetime) -> None:
    draft = Draft(conn, space_id, start)
    _add_tree(draft, HANDBOOK)
    draft.add_file("team-photo.png", _png("Offsite 2024", ["Ada", "Bruno", "Chen", "Dana"]))
    draft.add_file(
        "leave-policy.pdf",
        _pdf("Leave policy", ["25 days a year, at least.", "Tell your team two weeks ahead."]),
    )
    draft.commit(message="First version of the handbook")
    draft = Draft(conn, space_id, start + timedelta(days=30))
    review = next(i for i, e in draft.pages.items() if e["title"] == "Code review")
    draft.update(review, description="How and how fast we review each other's changes")
    draft.commit(message="Describe the code review page")


def load_release_notes(conn: sqlite3.Connection, space_id: str, start: datetime) -> None:
    """One revision per release, newest first in the tree, as release notes grow."""
    for index, (title, markdown) in enumerate(RELEASES):
        draft = Draft(conn, space_id, start + timedelta(days=30 * index))
        first = next((i for i, e in draft.pages.items() if e.get("parent") is None), None)
        page_id = draft.add_page(title, markdown=markdown, emoji="📣")
        if first is not None:
            draft.move(page_id, None, before=first)
        draft.commit(message=f"Release {title}")


def load_lumen_getting_started(conn: sqlite3.Connection, space_id: str, start: datetime) -> None:
    draft = Draft(conn, space_id, start)
    intro = draft.add_page(
        "Introduction",
        emoji="✨",
        markdown="# Lumen\n\nLumen renders static sites from markdown.\n\n"
        "Start with [Installation](installation.md).\n",
    )
    draft.add_page(
        "Installation",
        markdown="# Installation\n\n```bash\npipx install lumen\nlumen new my-site\n```\n",
    )
    draft.add_page("Next steps", type="group")
    draft.commit(message="Getting started")
    draft = Draft(conn, space_id, start + timedelta(days=2))
    draft.add_page("Lumen on GitHub", type="link", href="https://github.com/lumen/lumen")
    draft.rename(intro, "Introduction to Lumen")
    draft.commit(message="Link the repository")


def load_webhooks_guide(conn: sqlite3.Connection, space_id: str, start: datetime) -> None:
    """A short guide (the space Gus, the guest, may edit): pages, a diagram, two revisions."""
    draft = Draft(conn, space_id, start)
    overview = draft.add_page(
        "Overview",
        emoji="🪝",
        markdown="# Overview\n\nWebhooks tell your system when an order changes.\n\n"
        "![Delivery](.gitbook/assets/delivery.png)\n\n"
        "Set one up with the [setup guide](setup.md#register-an-endpoint).\n",
    )
    draft.add_page(
        "Setup",
        parent=None,
        markdown="# Setup\n\n## Register an endpoint\n\nIn the dashboard, open **Webhooks** and "
        "add your URL.\n\n## Test it\n\nSend a test event; see [Overview](overview.md).\n",
    )
    draft.add_file("delivery.png", _png("Delivery", ["Event", "Queue", "Your endpoint"]))
    draft.commit(message="First version of the webhooks guide")
    draft = Draft(conn, space_id, start + timedelta(days=5))
    draft.add_page(
        "Troubleshooting",
        parent=overview,
        markdown="# Troubleshooting\n\n- **401**: check the signature secret.\n"
        "- **Timeouts**: answer within 10 seconds; queue the work.\n",
    )
    draft.commit(message="Add troubleshooting")
