"""The demo workspace's change requests.

In the Public API Reference (the product docs space), made through the same services the
API uses, so each is a real change request with real revisions:

- #1 "Tidy the errors page" (Bruno), approved by Chen and Dana and merged by Ada: main moves.
- #2 "Clarify versioning" (Chen), created before #1 merged: outdated, updates cleanly;
  Bruno approved it (his review turns outdated once it is updated).
- #3 "Rewrite the error introduction" (Inês), created before #1 merged and editing the same
  paragraph: its update conflicts with main.
- #4 "Document partial refunds" (Chen), open, with real edits across several pages: an added
  page, a deleted page, a moved page, edited paragraphs and a code block; Inês approved,
  then Dana requested changes; Ada and Bruno are asked to review.
- #5 "SDK examples" (Inês), a draft; #6 "GraphQL API" (Chen), archived.

And #1 of the Webhooks Guide, "Clarify retry behaviour" (Chen), open with no edits yet.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pydantic import TypeAdapter

from docdeck.models.change_request_content import ChangeRequestContentChange
from docdeck.server.access import SpaceAccess
from docdeck.server.change_requests import authoring, pull, service
from docdeck.server.change_requests.apply import apply_changes
from docdeck.server.change_requests.blocks import split_blocks
from docdeck.server.change_requests.service import ChangeRequestAccess
from docdeck.server.content.edits import Draft
from docdeck.server.content.snapshots import get_text, load_snapshot
from docdeck.server.http.auth import Caller
from docdeck.server.ids import new_id, to_db
from docdeck.server.permissions import membership

_CHANGES: TypeAdapter[list[ChangeRequestContentChange]] = TypeAdapter(
    list[ChangeRequestContentChange]
)


@dataclass
class _Actor:
    """Who does it and when (what a request's context gives the services)."""

    caller: Caller
    at: datetime

    def now(self) -> datetime:
        return self.at


class _Demo:
    def __init__(self, conn: sqlite3.Connection, space_id: str, users: dict[str, str]) -> None:
        self.conn, self.space_id, self.users = conn, space_id, users

    def space(self) -> sqlite3.Row:
        row: sqlite3.Row = self.conn.execute(
            "SELECT * FROM spaces WHERE id = ?", (self.space_id,)
        ).fetchone()
        return row

    def actor(self, email: str, at: datetime) -> _Actor:
        return _Actor(Caller(self.users[email], email, email), at)

    def access(self, change_request_id: str) -> ChangeRequestAccess:
        space = self.space()
        member = membership(self.conn, space["organization_id"], self.users["ada@northwind.dev"])
        assert member is not None
        row = self.conn.execute(
            "SELECT * FROM change_requests WHERE id = ?", (change_request_id,)
        ).fetchone()
        return ChangeRequestAccess(SpaceAccess(space, member, "admin", {}), row)

    def create(self, email: str, subject: str, at: datetime) -> str:
        return service.create(self.conn, self.space(), self.users[email], subject, at)

    def page(self, title: str, revision: str | None = None) -> str:
        snapshot = load_snapshot(self.conn, revision or self.space()["revision_id"])
        return next(i for i, e in snapshot.pages.items() if e["title"] == title)

    def body(self, page_id: str) -> str:
        snapshot = load_snapshot(self.conn, self.space()["revision_id"])
        return get_text(self.conn, snapshot.pages[page_id].get("body"))

    def author(self, cr_id: str, email: str, at: datetime, changes: list[dict[str, Any]]) -> None:
        cr = self.access(cr_id)
        actor = self.actor(email, at)
        draft = authoring.draft_of(self.conn, actor, cr)
        apply_changes(self.conn, cr, draft, _CHANGES.validate_python(changes))
        authoring.commit(self.conn, actor, cr, draft, f"{len(changes)} changes")

    def review(
        self, cr_id: str, email: str, status: str, comment: str | None, at: datetime
    ) -> None:
        revision = self.access(cr_id).row["revision_id"]
        self.conn.execute(
            """INSERT INTO change_request_reviews (id, change_request_id, reviewer, status,
                comment, revision_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)""",
            (new_id(), cr_id, self.users[email], status, comment, revision, to_db(at)),
        )

    def request_review(self, cr_id: str, email: str, by: str, at: datetime) -> None:
        revision = self.access(cr_id).row["revision_id"]
        self.conn.execute(
            """INSERT INTO change_request_requested_reviewers (change_request_id, user_id,
                requested_by, revision_id, created_at) VALUES (?, ?, ?, ?, ?)""",
            (cr_id, self.users[email], self.users[by], revision, to_db(at)),
        )


def _replace_block(body: str, index: int, text: str) -> str:
    blocks = split_blocks(body)
    trailing = blocks[index][len(blocks[index].rstrip("\n")) :]
    blocks[index] = text + trailing
    return "".join(blocks)


def _edit(page: str, markdown: str) -> dict[str, Any]:
    return {"operation": "update_page", "page": page, "document": {"markdown": markdown}}


def load(
    conn: sqlite3.Connection, spaces: dict[str, str], users: dict[str, str], now: datetime
) -> None:
    chen, ines, bruno = "chen@northwind.dev", "ines@northwind.dev", "bruno@northwind.dev"
    ada, dana = "ada@northwind.dev", "dana@northwind.dev"
    t = now - timedelta(days=6)
    demo = _Demo(conn, spaces["Public API Reference"], users)
    errors, versioning = demo.page("Errors"), demo.page("Versioning")
    errors_body, versioning_body = demo.body(errors), demo.body(versioning)

    tidy = demo.create(bruno, "Tidy the errors page", t)
    outdated = demo.create(chen, "Clarify versioning", t + timedelta(hours=1))
    conflicting = demo.create(ines, "Rewrite the error introduction", t + timedelta(hours=2))
    demo.author(
        outdated,
        chen,
        t + timedelta(hours=1),
        [
            _edit(
                versioning,
                _replace_block(
                    versioning_body,
                    1,
                    "Every response names the API version it was served with in the "
                    "`Api-Version` header; pin it with the same request header.",
                ),
            )
        ],
    )
    demo.review(outdated, bruno, "approved", "Good to go.", t + timedelta(hours=2))
    demo.author(
        conflicting,
        ines,
        t + timedelta(hours=2),
        [
            _edit(
                errors,
                _replace_block(
                    errors_body,
                    1,
                    "Errors come back as JSON with a stable `code` you can branch on and a "
                    "human-readable `message` you can log.",
                ),
            )
        ],
    )
    demo.author(
        tidy,
        bruno,
        t + timedelta(hours=3),
        [
            _edit(
                errors,
                _replace_block(
                    errors_body,
                    1,
                    "Every error answers with an HTTP status and a JSON body naming what "
                    "went wrong.",
                ),
            )
        ],
    )
    demo.review(tidy, chen, "approved", None, t + timedelta(hours=4))
    demo.review(tidy, dana, "approved", "Clearer, thanks.", t + timedelta(hours=5))
    pull.merge(conn, demo.actor(ada, t + timedelta(hours=6)), demo.access(tidy))
    # Main moves again by a direct edit, as the demo's history does (its current revision
    # stays an `edits` one): #2 and #3 now lag behind two revisions.
    main = Draft(conn, demo.space_id, t + timedelta(hours=8))
    auth = demo.page("Authentication")
    main.set_markdown(
        auth, demo.body(auth).replace("\n\n", "\n\nTokens never expire unless revoked.\n\n", 1)
    )
    main.commit(message="Say that tokens do not expire")

    refunds = demo.create(chen, "Document partial refunds", t + timedelta(days=1))
    rate, pagination = demo.page("Rate limits"), demo.page("Pagination")
    code = next(i for i, b in enumerate(split_blocks(demo.body(pagination))) if b.startswith("```"))
    demo.author(
        refunds,
        chen,
        t + timedelta(days=1),
        [
            {
                "operation": "insert_page",
                "into": demo.page("Refunds"),
                "title": "Partial refunds",
                "document": {
                    "markdown": "# Partial refunds\n\nRefund part of an order by sending an "
                    "`amount` smaller than the order's total.\n\n```http\nPOST /v2/orders/"
                    '{id}/refunds\n{"amount": 1200}\n```\n\nSee [Refunds](../refunds.md).'
                },
            },
            {"operation": "delete_page", "page": demo.page("Changelog")},
            {
                "operation": "update_page",
                "page": demo.page("Idempotency"),
                "into": demo.page("Concepts"),
            },
            _edit(
                rate,
                _replace_block(
                    demo.body(rate),
                    1,
                    "Each token may send 1,000 read and "
                    "100 write requests per minute; bursts above that are answered with `429`.",
                ),
            ),
            _edit(
                pagination,
                _replace_block(
                    demo.body(pagination),
                    code,
                    "```http\nGET /v2/orders?limit=100&cursor=c_2f9a\n```",
                ),
            ),
        ],
    )
    demo.review(refunds, ines, "approved", "The new page reads well.", t + timedelta(days=1.5))
    demo.review(
        refunds, dana, "changes-requested", "Add an example response.", t + timedelta(days=2)
    )
    demo.request_review(refunds, ada, chen, t + timedelta(days=2))
    demo.request_review(refunds, bruno, chen, t + timedelta(days=2, hours=1))

    draft = demo.create(ines, "SDK examples", t + timedelta(days=3))
    demo.author(
        draft,
        ines,
        t + timedelta(days=3),
        [
            {
                "operation": "insert_page",
                "title": "SDK examples",
                "document": {"markdown": "# SDK examples\n\nComing soon.\n"},
            }
        ],
    )
    archived = demo.create(chen, "GraphQL API", t + timedelta(days=4))
    for cr_id, status in ((draft, "draft"), (archived, "archived")):
        conn.execute("UPDATE change_requests SET status = ? WHERE id = ?", (status, cr_id))
    service.recount(conn, demo.space_id)

    guide = conn.execute("SELECT * FROM spaces WHERE id = ?", (spaces["Webhooks Guide"],))
    service.create(
        conn, guide.fetchone(), users[chen], "Clarify retry behaviour", now - timedelta(days=3)
    )
