"""Comments and replies as the platform writes them, built for a whole page of rows at once:
one query for the users, one for the reactions, one snapshot of the content for the targets."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from docdeck.server.comments.body import body_json
from docdeck.server.comments.service import MAX_REACTIONS_LISTED, Scope, permissions
from docdeck.server.http.context import Ctx
from docdeck.server.members.wire import user_json
from docdeck.server.wire import Json, wire_time

PREVIEW_LENGTH = 200


def _users(conn: sqlite3.Connection, ids: Iterable[str | None]) -> dict[str, sqlite3.Row]:
    from docdeck.server.change_requests.service import users_by_id

    return users_by_id(conn, ids)


def _user(ctx: Ctx, users: dict[str, sqlite3.Row], user_id: str) -> Json:
    row = users.get(user_id)
    if row is None:  # a user removed from the sandbox: keep the id
        return user_json(ctx, user_id, "", "Former user", None)
    return user_json(ctx, user_id, row["email"], row["display_name"], row["photo_url"])


def _reaction_rows(conn: sqlite3.Connection, subject_ids: Sequence[str]) -> list[sqlite3.Row]:
    if not subject_ids:
        return []
    marks = ",".join("?" for _ in subject_ids)
    return conn.execute(
        f"""SELECT subject_id, emoji, user_id, reacted_at FROM comment_reactions
            WHERE subject_id IN ({marks})""",
        list(subject_ids),
    ).fetchall()


def _reactions(
    ctx: Ctx, rows: list[sqlite3.Row], users: dict[str, sqlite3.Row]
) -> dict[str, list[Json]]:
    """subject id -> reactions, each emoji in the order it was first given, its users oldest
    first."""
    grouped: dict[str, dict[str, list[sqlite3.Row]]] = {}
    for row in sorted(rows, key=lambda r: (r["reacted_at"], r["user_id"])):
        grouped.setdefault(row["subject_id"], {}).setdefault(row["emoji"], []).append(row)
    return {
        subject: [
            {
                "emoji": emoji,
                "count": len(given),
                "users": [
                    {
                        "user": _user(ctx, users, r["user_id"]),
                        "reactedAt": wire_time(r["reacted_at"]),
                    }
                    for r in given[:MAX_REACTIONS_LISTED]
                ],
            }
            for emoji, given in by_emoji.items()
        ]
        for subject, by_emoji in grouped.items()
    }


def _walk(nodes: Any, found: dict[str, str], tables: dict[str, Json]) -> None:
    for node in nodes if isinstance(nodes, list) else ():
        if not isinstance(node, dict):
            continue
        if node.get("object") == "block" and "key" in node:
            found[node["key"]] = _plain(node)[:PREVIEW_LENGTH]
            if node.get("type") == "table":
                data = node.get("data") or {}
                tables[node["key"]] = {
                    "records": sorted(data.get("records") or {}),
                    "definition": sorted(data.get("definition") or {}),
                }
        _walk(node.get("nodes"), found, tables)


def _plain(node: dict[str, Any]) -> str:
    if "leaves" in node:
        return "".join(str(leaf.get("text", "")) for leaf in node["leaves"])
    sep = " " if node.get("object") == "block" else ""
    return sep.join(_plain(child) for child in node.get("nodes", []) if isinstance(child, dict))


def page_nodes(
    conn: sqlite3.Connection, revision_id: str, page_id: str
) -> tuple[dict[str, str], dict[str, Json]]:
    """Block key -> its text, and table block key -> its `records` and `definition` ids, for
    one page of one revision (kept with the revision's cached snapshot: a revision never
    changes). Empty when the page is gone or has no body."""
    from docdeck.server.content.document import to_document
    from docdeck.server.content.snapshots import get_text, load_snapshot

    snapshot = load_snapshot(conn, revision_id)
    cache_key = f"comment-nodes:{page_id}"
    cached = snapshot.derived.get(cache_key)
    if isinstance(cached, tuple):
        return cached
    found: dict[str, str] = {}
    tables: dict[str, Json] = {}
    entry = snapshot.pages.get(page_id)
    if entry is not None and entry.get("body"):
        document = to_document(get_text(conn, entry["body"]), lambda h: {"kind": "url", "url": h})
        _walk(document["nodes"], found, tables)
    snapshot.derived[cache_key] = (found, tables)
    return found, tables


def node_previews(conn: sqlite3.Connection, revision_id: str, page_id: str) -> dict[str, str]:
    """Block key -> its text (see `page_nodes`)."""
    return page_nodes(conn, revision_id, page_id)[0]


class Targets:
    """The `target` of comments, reading the scope's current content once."""

    def __init__(self, conn: sqlite3.Connection, scope: Scope) -> None:
        from docdeck.server.content.snapshots import load_snapshot
        from docdeck.server.content.tree import tree_of

        self.conn = conn
        self.scope = scope
        self.snapshot = load_snapshot(conn, scope.revision_id)
        self.tree = tree_of(self.snapshot)

    def page_info(self, page_id: str) -> Json | None:
        entry = self.snapshot.pages.get(page_id)
        if entry is None:
            return None
        page: Json = {"id": page_id, "title": entry["title"]}
        for key in ("emoji", "icon"):
            if entry.get(key):
                page[key] = entry[key]
        for key in ("createdAt", "updatedAt"):
            if key in entry:
                page[key] = wire_time(entry[key])
        page["path"] = self.tree.paths.get(page_id, "")
        return page

    def target(self, row: sqlite3.Row) -> Json:
        data: Json = {"space": row["space_id"], "revision": row["revision_id"]}
        if row["change_request_id"]:
            data["changeRequest"] = row["change_request_id"]
        if row["review_id"]:
            data["review"] = row["review_id"]
        page_id = row["page_id"]
        if page_id is None:
            return data
        page = self.page_info(page_id)
        if page is None:  # the page is gone: what is known of it
            page = {"id": page_id, "title": "(deleted page)", "path": ""}
            outdated = True
        elif row["node_id"] is None:
            outdated = False
        else:
            outdated = row["node_id"] not in node_previews(
                self.conn, self.scope.revision_id, page_id
            )
        page["outdated"] = outdated
        data["page"] = page
        if row["node_id"] is not None:
            node: Json = {"id": row["node_id"]}
            if row["node_preview"]:
                node["preview"] = row["node_preview"]
            data["node"] = node
        if row["table_record"] is not None:
            data["tableCell"] = {
                "record": row["table_record"],
                "definition": row["table_definition"],
            }
        return data


@dataclass(frozen=True)
class _Posts:
    """What comments and replies are written with alike: who posted them, their reactions,
    and what the caller may do with each."""

    ctx: Ctx
    users: dict[str, sqlite3.Row]
    reactions: dict[str, list[Json]]
    role: str | None

    @classmethod
    def of(
        cls,
        conn: sqlite3.Connection,
        ctx: Ctx,
        scope: Scope,
        rows: Sequence[sqlite3.Row],
        also: Iterable[str | None] = (),
    ) -> _Posts:
        """For `rows`; `also` names more users the writer will show."""
        reaction_rows = _reaction_rows(conn, [r["id"] for r in rows])
        users = _users(
            conn,
            [*(r["posted_by"] for r in rows), *also] + [r["user_id"] for r in reaction_rows],
        )
        return cls(ctx, users, _reactions(ctx, reaction_rows, users), scope.space.role)

    def user(self, user_id: str) -> Json:
        return _user(self.ctx, self.users, user_id)

    def head(self, kind: str, row: sqlite3.Row) -> Json:
        """The fields a post opens with."""
        return {
            "object": kind,
            "id": row["id"],
            "postedBy": self.user(row["posted_by"]),
            "postedAt": wire_time(row["posted_at"]),
            "reactions": self.reactions.get(row["id"], []),
        }

    def where(self, row: sqlite3.Row, location: str) -> Json:
        """Its address and what the caller may do with it."""
        return {
            "urls": {"location": self.ctx.url(location)},
            "permissions": permissions(self.role, self.ctx.caller.user_id, row["posted_by"]),
        }

    @staticmethod
    def edited(data: Json, row: sqlite3.Row) -> Json:
        if row["edited_at"]:
            data["editedAt"] = wire_time(row["edited_at"])
        return data


def comments_json(
    conn: sqlite3.Connection,
    ctx: Ctx,
    scope: Scope,
    rows: Sequence[sqlite3.Row],
    body_format: str | None,
) -> list[Json]:
    if not rows:
        return []
    posts = _Posts.of(conn, ctx, scope, rows, also=[r["resolved_by"] for r in rows])
    ids = [r["id"] for r in rows]
    marks = ",".join("?" for _ in ids)
    replies = dict(
        conn.execute(
            f"SELECT comment_id, COUNT(*) FROM comment_replies WHERE comment_id IN ({marks})"
            " GROUP BY comment_id",
            ids,
        ).fetchall()
    )
    targets = Targets(conn, scope)
    out: list[Json] = []
    for row in rows:
        data: Json = {
            **posts.head("comment", row),
            "replies": replies.get(row["id"], 0),
            "body": body_json(row["body"], body_format),
            "target": targets.target(row),
            **posts.where(row, f"{scope.base_path}/{row['id']}"),
            "status": row["status"],
        }
        posts.edited(data, row)
        if row["status"] == "resolved":
            data["resolvedAt"] = wire_time(row["resolved_at"])
            data["resolvedBy"] = posts.user(row["resolved_by"])
        out.append(data)
    return out


def replies_json(
    conn: sqlite3.Connection,
    ctx: Ctx,
    scope: Scope,
    comment_id: str,
    rows: Sequence[sqlite3.Row],
    body_format: str | None,
) -> list[Json]:
    if not rows:
        return []
    posts = _Posts.of(conn, ctx, scope, rows)
    return [
        posts.edited(
            {
                **posts.head("comment-reply", row),
                "body": body_json(row["body"], body_format),
                **posts.where(row, f"{scope.base_path}/{comment_id}/replies/{row['id']}"),
            },
            row,
        )
        for row in rows
    ]
