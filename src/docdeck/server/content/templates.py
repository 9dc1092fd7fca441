"""The built-in space templates: real starting pages, the same set for `POST {O}/spaces`
with `template` and for `POST {S}/content/template`.

Applying a template adds its pages after the space's existing ones, in one new revision;
an unknown id is a 400 that lists the known ones.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime

from docdeck.server.content.edits import Draft
from docdeck.server.errors import bad_request

TemplatePage = tuple[str, str, str, list[tuple[str, str, str]]]  # title, emoji, md, children

TEMPLATES: dict[str, tuple[str, list[TemplatePage]]] = {
    "getting-started": (
        "Getting started",
        [
            (
                "Introduction",
                "👋",
                "# Introduction\n\nWhat this product does, and who it is for.\n\n"
                "## Next steps\n\n- [Quickstart](quickstart.md)\n- [Concepts](concepts.md)\n",
                [],
            ),
            (
                "Quickstart",
                "⚡",
                "# Quickstart\n\n1. Install\n2. Configure\n3. Run your first task\n\n"
                "```bash\n# replace with your install command\n```\n",
                [],
            ),
            ("Concepts", "💡", "# Concepts\n\nThe few ideas a new user must know.\n", []),
        ],
    ),
    "api-reference": (
        "API reference",
        [
            (
                "Overview",
                "📘",
                "# API overview\n\nBase URL, versioning and conventions.\n\n"
                "## Authentication\n\nSend `Authorization: Bearer <token>`.\n",
                [
                    (
                        "Errors",
                        "⚠️",
                        "# Errors\n\n| Status | Meaning |\n|---|---|\n| 400 | invalid input |\n"
                        "| 401 | missing token |\n| 404 | not found |\n",
                    ),
                    ("Pagination", "📄", "# Pagination\n\nLists return `items` and `next`.\n"),
                ],
            ),
            ("Endpoints", "🔌", "# Endpoints\n\nOne page per resource.\n", []),
        ],
    ),
    "changelog": (
        "Changelog",
        [
            (
                "Changelog",
                "🗞️",
                "# Changelog\n\nEvery release, newest first.\n\n## Unreleased\n\n- \n",
                [],
            )
        ],
    ),
    "handbook": (
        "Team handbook",
        [
            ("Welcome", "👋", "# Welcome\n\nWho we are and how we work.\n", []),
            (
                "How we work",
                "🛠️",
                "# How we work\n\n- Decisions are written down.\n- Reviews within a day.\n",
                [("Meetings", "📅", "# Meetings\n\nFew, short, with an agenda.\n")],
            ),
            ("Time off", "🏖️", "# Time off\n\nHow to plan and announce leave.\n", []),
        ],
    ),
}


def known_ids() -> str:
    return ", ".join(sorted(TEMPLATES))


def check_template(template_id: str, field: str = "id") -> None:
    if template_id not in TEMPLATES:
        raise bad_request(f"{field}: no template {template_id!r}; the templates are {known_ids()}")


def apply_template(
    conn: sqlite3.Connection, space_id: str, template_id: str, now: datetime, field: str = "id"
) -> str:
    """Adds the template's pages to the space in a new revision; returns its id."""
    check_template(template_id, field)
    title, pages = TEMPLATES[template_id]
    draft = Draft(conn, space_id, now)
    for page_title, emoji, markdown, children in pages:
        parent = draft.add_page(page_title, emoji=emoji, markdown=markdown)
        for child_title, child_emoji, child_markdown in children:
            draft.add_page(child_title, parent=parent, emoji=child_emoji, markdown=child_markdown)
    return draft.commit(message=f"Applied the {title!r} template")
