"""Comments and replies as the platform writes them, from rows that bring everything a post
shows with it (who posted, reacted and resolved, the replies' count: `service.COMMENT_SELECT`),
and one snapshot of the content for the targets."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import orjson

from docdeck.server.comments.body import body_json
from docdeck.server.comments.service import (
    C_CHANGE_REQUEST,
    C_NODE,
    C_NODE_PREVIEW,
    C_PAGE,
    C_REPLIES,
    C_RESOLVED_AT,
    C_RESOLVED_BY,
    C_RESOLVER,
    C_REVIEW,
    C_REVISION,
    C_SPACE,
    C_STATUS,
    C_TABLE_DEFINITION,
    C_TABLE_RECORD,
    MAX_REACTIONS_LISTED,
    POST_AT,
    POST_BODY,
    POST_BY,
    POST_EDITED,
    POST_ID,
    POST_REACTIONS,
    POST_SAFE_BODY,
    POST_USER,
    W_ID,
    W_NODE,
    W_PAGE,
    W_TEXT,
    Scope,
    comment_to_show,
    post_permissions,
)
from docdeck.server.http.context import Ctx
from docdeck.server.store.schema import (
    COMMENT_WIRE_MINE,
    COMMENT_WIRE_PAGE,
    COMMENT_WIRE_PERMISSIONS,
    COMMENT_WIRE_URL,
)
from docdeck.server.wire import Json, wire_time

if TYPE_CHECKING:
    from docdeck.server.content.snapshots import Snapshot

PREVIEW_LENGTH = 200


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
    from docdeck.server.content.snapshots import load_snapshot

    return _page_nodes(conn, load_snapshot(conn, revision_id), page_id)


def _page_nodes(
    conn: sqlite3.Connection, snapshot: Snapshot, page_id: str
) -> tuple[dict[str, str], dict[str, Json]]:
    from docdeck.server.content.document import to_document
    from docdeck.server.content.snapshots import get_text

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


def _page_target(snapshot: Snapshot, page_id: str) -> Json | None:
    """What a comment's target shows of a page of the snapshot, but whether the comment is
    outdated; None when the page is not in it. Kept with the (immutable) snapshot, as its
    tree is: every list of a space's comments shows the same few pages."""
    from docdeck.server.content.tree import tree_of

    cache_key = f"comment-page:{page_id}"
    if cache_key in snapshot.derived:
        cached: Json | None = snapshot.derived[cache_key]
        return cached
    entry = snapshot.pages.get(page_id)
    page: Json | None = None
    if entry is not None:
        page = {"id": page_id, "title": entry["title"]}
        for key in ("emoji", "icon"):
            if entry.get(key):
                page[key] = entry[key]
        for key in ("createdAt", "updatedAt"):
            if key in entry:
                page[key] = wire_time(entry[key])
        page["path"] = tree_of(snapshot).paths.get(page_id, "")
    snapshot.derived[cache_key] = page
    return page


class Targets:
    """The `target` of comments, reading the scope's current content once, when a comment is
    on a page."""

    def __init__(self, conn: sqlite3.Connection, scope: Scope) -> None:
        self.conn = conn
        self.scope = scope
        self._snapshot: Snapshot | None = None

    @property
    def snapshot(self) -> Snapshot:
        if self._snapshot is None:
            from docdeck.server.content.snapshots import load_snapshot

            self._snapshot = load_snapshot(self.conn, self.scope.revision_id)
        return self._snapshot

    def page_info(self, page_id: str) -> Json | None:
        page = _page_target(self.snapshot, page_id)
        return None if page is None else dict(page)

    def page_text(self, page_id: str, node_id: str | None) -> str:
        """`target.page` of a comment on `page_id` (and `node_id`) as JSON text, as `target`
        writes it; kept with the snapshot, as `_page_target` is (a list shows the same few
        pages and blocks on every read)."""
        snapshot = self.snapshot
        cache_key = f"comment-page-text:{page_id}"
        if node_id is not None:
            cache_key += f"\x00{node_id}"
        text: str | None = snapshot.derived.get(cache_key)
        if text is not None:
            return text
        known = _page_target(snapshot, page_id)
        if known is None:
            page: Json = {"id": page_id, "title": "(deleted page)", "path": "", "outdated": True}
        else:
            outdated = (
                node_id is not None and node_id not in _page_nodes(self.conn, snapshot, page_id)[0]
            )
            page = {**known, "outdated": outdated}
        text = snapshot.derived[cache_key] = orjson.dumps(page).decode()
        return text

    def target(self, row: Sequence[Any]) -> Json:
        data: Json = {"space": row[C_SPACE], "revision": row[C_REVISION]}
        if row[C_CHANGE_REQUEST]:
            data["changeRequest"] = row[C_CHANGE_REQUEST]
        if row[C_REVIEW]:
            data["review"] = row[C_REVIEW]
        page_id = row[C_PAGE]
        if page_id is None:
            return data
        node_id = row[C_NODE]
        snapshot = self.snapshot
        known = _page_target(snapshot, page_id)
        if known is None:  # the page is gone: what is known of it
            data["page"] = {"id": page_id, "title": "(deleted page)", "path": "", "outdated": True}
        else:
            outdated = (
                node_id is not None and node_id not in _page_nodes(self.conn, snapshot, page_id)[0]
            )
            data["page"] = {**known, "outdated": outdated}
        if node_id is not None:
            node: Json = {"id": node_id}
            if row[C_NODE_PREVIEW]:
                node["preview"] = row[C_NODE_PREVIEW]
            data["node"] = node
        if row[C_TABLE_RECORD] is not None:
            data["tableCell"] = {
                "record": row[C_TABLE_RECORD],
                "definition": row[C_TABLE_DEFINITION],
            }
        return data


class _Posts:
    """What comments and replies are written with alike: who posted them (and reacted), and
    what the caller may do with each, from rows read with `service.COMMENT_SELECT` or
    `service.REPLY_SELECT` (positions `service.POST_*`)."""

    def __init__(self, ctx: Ctx, scope: Scope) -> None:
        self.ctx = ctx
        self.users = ctx.url("/v1/users/")
        self.me = ctx.caller.user_id
        self.mine = post_permissions(scope.space.role, author=True)
        self.others = post_permissions(scope.space.role, author=False)

    def user(self, user_id: str, known: Any, email: Any, name: Any, photo: Any) -> Json:
        """A user as `members.wire.user_json` writes one; a user removed from the sandbox
        (`known` false: no row joined) keeps its id."""
        if not known:
            email, name, photo = "", "Former user", None
        data: Json = {
            "object": "user",
            "id": user_id,
            "displayName": name,
            "email": email,
            "urls": {"location": self.users + user_id},
        }
        if photo is not None:
            data["photoURL"] = photo
        return data

    def reactions(self, text: str) -> list[Json]:
        """The reactions of one post, from its `POST_REACTIONS` column (a JSON array of
        [emoji, user id, reacted at, user known, email, name, photo]): each emoji in the order
        it was first given, its users oldest first."""
        if text == "[]":
            return []
        grouped: dict[str, list[list[Any]]] = {}
        for given in sorted(orjson.loads(text), key=lambda r: (r[2], r[1])):
            grouped.setdefault(given[0], []).append(given)
        return [
            {
                "emoji": emoji,
                "count": len(given),
                "users": [
                    {"user": self.user(r[1], r[3], r[4], r[5], r[6]), "reactedAt": wire_time(r[2])}
                    for r in given[:MAX_REACTIONS_LISTED]
                ],
            }
            for emoji, given in grouped.items()
        ]

    def head(self, kind: str, row: Sequence[Any]) -> Json:
        """The fields a post opens with."""
        return {
            "object": kind,
            "id": row[POST_ID],
            "postedBy": self.user(row[POST_BY], *row[POST_USER : POST_USER + 4]),
            "postedAt": wire_time(row[POST_AT]),
            "reactions": self.reactions(row[POST_REACTIONS]),
        }

    def where(self, data: Json, row: Sequence[Any], location: str) -> None:
        """Its address and what the caller may do with it."""
        data["urls"] = {"location": self.ctx.url(location)}
        data["permissions"] = self.mine if row[POST_BY] == self.me else self.others

    @staticmethod
    def edited(data: Json, row: Sequence[Any]) -> Json:
        if row[POST_EDITED]:
            data["editedAt"] = wire_time(row[POST_EDITED])
        return data


def comments_json(
    conn: sqlite3.Connection,
    ctx: Ctx,
    scope: Scope,
    rows: Sequence[Sequence[Any]],
    body_format: str | None,
) -> list[Json]:
    """Comments from rows read with `service.COMMENT_SELECT`: everything they show comes with
    them (who posted, reacted and resolved, the replies' count), so the only other reads are
    of the scope's content, for the targets."""
    if not rows:
        return []
    posts = _Posts(ctx, scope)
    targets = Targets(conn, scope)
    base = scope.base_path
    out: list[Json] = []
    for row in rows:
        data = posts.head("comment", row)
        data["replies"] = row[C_REPLIES]
        data["body"] = body_json(row[POST_BODY], body_format, row[POST_SAFE_BODY])
        data["target"] = targets.target(row)
        posts.where(data, row, f"{base}/{row[POST_ID]}")
        data["status"] = row[C_STATUS]
        posts.edited(data, row)
        if row[C_STATUS] == "resolved":
            data["resolvedAt"] = wire_time(row[C_RESOLVED_AT])
            data["resolvedBy"] = posts.user(row[C_RESOLVED_BY], *row[C_RESOLVER : C_RESOLVER + 4])
        out.append(data)
    return out


def replies_json(
    ctx: Ctx,
    scope: Scope,
    comment_id: str,
    rows: Sequence[Sequence[Any]],
    body_format: str | None,
) -> list[Json]:
    """Replies from rows read with `service.REPLY_SELECT`."""
    if not rows:
        return []
    posts = _Posts(ctx, scope)
    base = f"{scope.base_path}/{comment_id}/replies"
    out: list[Json] = []
    for row in rows:
        data = posts.head("comment-reply", row)
        data["body"] = body_json(row[POST_BODY], body_format, row[POST_SAFE_BODY])
        posts.where(data, row, f"{base}/{row[POST_ID]}")
        out.append(posts.edited(data, row))
    return out


def comments_text(
    conn: sqlite3.Connection, ctx: Ctx, scope: Scope, rows: Sequence[Sequence[Any]]
) -> bytes:
    """Comments with their body in markdown, as `comments_json` writes them and
    `respond(finite=True)` encodes them, joined by commas, from rows read with
    `service.WIRE_SELECT`: each is the text its row keeps (`store.schema.comment_wire`), its
    target's page put in from the scope's content, then what only the request knows (the
    public URL, the caller's permissions) put in the joined bytes once. A comment whose row
    keeps no text is written by `comments_json`."""
    if not rows:
        return b""
    targets = Targets(conn, scope)
    texts: list[str] = []
    for row in rows:
        text = row[W_TEXT]
        if text is None:
            made = comments_json(conn, ctx, scope, [comment_to_show(conn, scope, row[W_ID])], None)
            text = orjson.dumps(made[0]).decode()
        elif row[W_PAGE] is not None:
            text = text.replace(COMMENT_WIRE_PAGE, targets.page_text(row[W_PAGE], row[W_NODE]))
        texts.append(text)
    items = ",".join(texts).encode()
    url, others, mine = _fill(ctx.url(""), scope.space.role)
    items = items.replace(_URL, url)
    if _OTHERS in items:
        items = items.replace(_OTHERS, others)
    if _MINE in items:
        items = items.replace(_MINE, mine)
    return items


@lru_cache(maxsize=64)
def _fill(public_url: str, role: str | None) -> tuple[bytes, bytes, bytes]:
    """What `comments_text` puts for the public URL (JSON-escaped) and for the permissions
    of another's and of the caller's own comment, for a server's URL and a caller's role."""
    return (
        orjson.dumps(public_url)[1:-1],
        orjson.dumps(post_permissions(role, author=False)),
        orjson.dumps(post_permissions(role, author=True)),
    )


_URL = COMMENT_WIRE_URL.encode()
_OTHERS = COMMENT_WIRE_PERMISSIONS.encode()
_MINE = COMMENT_WIRE_MINE.encode()
