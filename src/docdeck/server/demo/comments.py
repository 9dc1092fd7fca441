"""The demo workspace's comment threads, written as the API stores them.

- Webhooks Guide: on a block of "Setup", Emeka asks about rotating the signing secret; Chen
  and Dana reply; Chen, Ada and Dana react. Bruno's space-wide request for a troubleshooting
  page was resolved by Ada after her reply.
- Public API Reference: Dana's comment on the errors page's introduction, posted before
  change request #1 rewrote that paragraph, is `outdated`; Emeka asks on "Pagination" whether
  cursors expire (open, with a 👀 from Chen).
- Change request #4 "Document partial refunds": Dana asks for an example response on the new
  page (Chen replies, Inês reacts); Inês's note on the rate limits was resolved by Chen.
- Webhooks Guide change request #1: Ada asks which retry schedule is meant; Chen answers.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta

from docdeck.server.comments.wire import node_previews
from docdeck.server.content.snapshots import load_snapshot
from docdeck.server.ids import new_id, to_db


class _Threads:
    def __init__(self, conn: sqlite3.Connection, users: dict[str, str]) -> None:
        self.conn, self.users = conn, users

    def page(self, revision: str, title: str) -> str:
        snapshot = load_snapshot(self.conn, revision)
        return next(i for i, e in snapshot.pages.items() if e["title"] == title)

    def comment(
        self,
        space: str,
        revision: str,
        email: str,
        text: str,
        at: datetime,
        *,
        change_request: str | None = None,
        page: str | None = None,
        node: str | None = None,
    ) -> str:
        preview = node_previews(self.conn, revision, page).get(node) if page and node else None
        comment_id = new_id()
        self.conn.execute(
            """INSERT INTO comments (id, space_id, change_request_id, page_id, node_id,
                node_preview, revision_id, posted_by, posted_at, body)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            (
                comment_id,
                space,
                change_request,
                page,
                node,
                preview,
                revision,
                self.users[email],
                to_db(at),
                text,
            ),
        )
        return comment_id

    def reply(self, comment_id: str, email: str, text: str, at: datetime) -> str:
        reply_id = new_id()
        self.conn.execute(
            "INSERT INTO comment_replies (id, comment_id, posted_by, posted_at, body)"
            " VALUES (?, ?, ?, ?, ?)",
            (reply_id, comment_id, self.users[email], to_db(at), text),
        )
        return reply_id

    def react(self, subject: str, email: str, emoji: str, at: datetime) -> None:
        self.conn.execute(
            "INSERT INTO comment_reactions (subject_id, emoji, user_id, reacted_at)"
            " VALUES (?, ?, ?, ?)",
            (subject, emoji, self.users[email], to_db(at)),
        )

    def resolve(self, comment_id: str, email: str, at: datetime) -> None:
        self.conn.execute(
            "UPDATE comments SET status = 'resolved', resolved_at = ?, resolved_by = ?"
            " WHERE id = ?",
            (to_db(at), self.users[email], comment_id),
        )

    def recount(self) -> None:
        self.conn.execute(
            """UPDATE spaces SET comments = (SELECT COUNT(*) FROM comments c
                WHERE c.space_id = spaces.id AND c.change_request_id IS NULL
                    AND c.status = 'open')"""
        )
        self.conn.execute(
            """UPDATE change_requests SET comments = (SELECT COUNT(*) FROM comments c
                WHERE c.change_request_id = change_requests.id AND c.status = 'open')"""
        )


def _space(conn: sqlite3.Connection, space_id: str) -> sqlite3.Row:
    row: sqlite3.Row = conn.execute("SELECT * FROM spaces WHERE id = ?", (space_id,)).fetchone()
    return row


def _change_request(conn: sqlite3.Connection, space_id: str, subject: str) -> sqlite3.Row:
    row: sqlite3.Row = conn.execute(
        "SELECT * FROM change_requests WHERE space_id = ? AND subject = ?", (space_id, subject)
    ).fetchone()
    return row


def load(
    conn: sqlite3.Connection, spaces: dict[str, str], users: dict[str, str], now: datetime
) -> None:
    threads = _Threads(conn, users)
    ada, bruno, chen = "ada@northwind.dev", "bruno@northwind.dev", "chen@northwind.dev"
    dana, emeka, ines = "dana@northwind.dev", "emeka@northwind.dev", "ines@northwind.dev"

    guide = _space(conn, spaces["Webhooks Guide"])
    revision = guide["revision_id"]
    setup = threads.page(revision, "Setup")
    keys = list(node_previews(conn, revision, setup))
    t = now - timedelta(days=2)
    asked = threads.comment(
        guide["id"],
        revision,
        emeka,
        "Should this step say how to **rotate** the signing secret?",
        t,
        page=setup,
        node=keys[min(1, len(keys) - 1)],
    )
    threads.reply(
        asked, chen, "Good point, I'll add a note after the first delivery.", t + timedelta(hours=1)
    )
    agreed = threads.reply(
        asked, dana, "+1, people ask us this every week.", t + timedelta(hours=2)
    )
    threads.react(asked, chen, "👍", t + timedelta(hours=1))
    threads.react(asked, ada, "👍", t + timedelta(hours=3))
    threads.react(asked, dana, "🎉", t + timedelta(hours=2))
    threads.react(agreed, emeka, "🙏", t + timedelta(hours=4))
    backlog = threads.comment(
        guide["id"], revision, bruno, "Could we add a troubleshooting page?", t - timedelta(days=3)
    )
    threads.reply(backlog, ada, "Added as *Troubleshooting* to the plan.", t - timedelta(days=2))
    threads.resolve(backlog, ada, t - timedelta(days=2))

    reference = _space(conn, spaces["Public API Reference"])
    tidy = _change_request(conn, reference["id"], "Tidy the errors page")
    before = tidy["revision_initial"]
    errors = threads.page(before, "Errors")
    old, new = (
        node_previews(conn, before, errors),
        node_previews(conn, reference["revision_id"], errors),
    )
    changed = next(key for key in old if key not in new)  # the paragraph #1 rewrote
    threads.comment(
        reference["id"],
        before,
        dana,
        "This introduction does not say what the body looks like.",
        datetime.fromisoformat(tidy["created_at"].replace("Z", "+00:00")) - timedelta(hours=1),
        page=errors,
        node=changed,
    )
    pagination = threads.page(reference["revision_id"], "Pagination")
    cursors = threads.comment(
        reference["id"],
        reference["revision_id"],
        emeka,
        "Do cursors expire? Worth a sentence here.",
        now - timedelta(hours=20),
        page=pagination,
    )
    threads.react(cursors, chen, "👀", now - timedelta(hours=19))

    refunds = _change_request(conn, reference["id"], "Document partial refunds")
    partial = threads.page(refunds["revision_id"], "Partial refunds")
    example = threads.comment(
        reference["id"],
        refunds["revision_id"],
        dana,
        "Please add an example response (the refund object).",
        now - timedelta(days=4),
        change_request=refunds["id"],
        page=partial,
        node=next(iter(node_previews(conn, refunds["revision_id"], partial))),
    )
    threads.reply(example, chen, "Will do in the next push.", now - timedelta(days=3, hours=20))
    threads.react(example, ines, "👍", now - timedelta(days=3, hours=22))
    rate = threads.comment(
        reference["id"],
        refunds["revision_id"],
        ines,
        "Are the new rate limits per token or per organization?",
        now - timedelta(days=4, hours=2),
        change_request=refunds["id"],
        page=threads.page(refunds["revision_id"], "Rate limits"),
    )
    threads.reply(rate, chen, "Per token; the paragraph says so now.", now - timedelta(days=4))
    threads.resolve(rate, chen, now - timedelta(days=4))

    retry = _change_request(conn, guide["id"], "Clarify retry behaviour")
    schedule = threads.comment(
        guide["id"],
        retry["revision_id"],
        ada,
        "Which schedule do we document: the exponential one or the fixed 5 minutes?",
        now - timedelta(days=1),
        change_request=retry["id"],
    )
    threads.reply(schedule, chen, "The exponential one; the fixed delay is gone.", now)
    threads.recount()
