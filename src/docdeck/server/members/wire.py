"""Users and organization members as the wire writes them, from rows to
plain dicts (server/wire.py says why dicts)."""

from __future__ import annotations

from typing import Any

import orjson

from docdeck.server.http.context import Ctx
from docdeck.server.pagination import PageResult
from docdeck.server.store.schema import MEMBER_WIRE_SPACES, MEMBER_WIRE_USERS
from docdeck.server.wire import Json, set_present


def user_json(ctx: Ctx, user_id: str, email: str, display_name: str, photo_url: str | None) -> Json:
    data: Json = {
        "object": "user",
        "id": user_id,
        "displayName": display_name,
        "email": email,
        "urls": {"location": ctx.url(f"/v1/users/{user_id}")},
    }
    set_present(data, "photoURL", photo_url)
    return data


def members_json(ctx: Ctx, rows: list[Any], every: int) -> list[Json]:
    """Member rows (`members.service.MEMBER_COLUMNS` first, plain tuples or
    `sqlite3.Row`s) as wire members, in one loop: a guest's `spaces` is the row's kept
    `granted_spaces`, every other member's is `every` (the organization's live spaces:
    `members.service.live_spaces_for`). A single member is a list of one; the members list's
    pages are written by SQL instead (`store.schema.member_wire`, `members_page`), to the same
    bytes (tests/server/test_member_wire.py).

    A function per row over `sqlite3.Row`s (two calls, a slice and `ctx.url` per member)
    took 1.1 ms for 1,000 rows; this loop over plain tuples takes 0.77 ms. For the same
    reason the two timestamps are `wire_time` written out in place (two calls a member),
    their fraction compared as a slice rather than by a method call, and the flags made
    booleans by a comparison rather than a call to `bool` (the columns hold integers): about
    a tenth of the loop's time.
    """
    users = ctx.url("/v1/users/")
    zero = ".000000Z"
    items: list[Json] = []
    append = items.append
    for row in rows:
        (
            user_id,
            role,
            disabled,
            sso,
            joined_at,
            last_seen_at,
            email,
            name,
            photo,
            teams,
            granted,
        ) = row[:11]
        user: Json = {
            "object": "user",
            "id": user_id,
            "displayName": name,
            "email": email,
            "urls": {"location": users + user_id},
        }
        if photo is not None:
            user["photoURL"] = photo
        data: Json = {
            "object": "member",
            "id": user_id,
            "role": role,
            "user": user,
            "disabled": disabled != 0,
            "joinedAt": joined_at if joined_at[-8:] != zero else joined_at[:-8] + "Z",
            "sso": sso != 0,
            "spaces": every if role is not None else granted,
            "teams": teams,
        }
        if last_seen_at is not None:
            data["lastSeenAt"] = (
                last_seen_at if last_seen_at[-8:] != zero else last_seen_at[:-8] + "Z"
            )
        append(data)
    return items


def members_page(ctx: Ctx, page: PageResult, live_spaces: int) -> bytes:
    """A page of the members list as `respond_list` encodes it, from rows whose first column
    is a member's JSON text in UTF-8 (`members.service.member_page_select`): what that text
    leaves to the request (the users' URL, a member's `spaces` when it has a role: the
    organization's `live_spaces`) is put in the page's bytes once, not per member (bytes:
    `str.replace` took four times as long on a page of 50)."""
    items = b",".join([row[0] for row in page.rows])
    if _USERS in items:
        items = items.replace(_USERS, orjson.dumps(ctx.url("/v1/users/"))[1:-1])
    if _SPACES in items:
        items = items.replace(_SPACES, str(live_spaces).encode())
    body = b'{"items":[' + items + b'],"count":' + str(page.count).encode()
    if page.next_page is not None:
        body += b',"next":{"page":' + orjson.dumps(page.next_page) + b"}"
    return body + b"}"


_USERS = MEMBER_WIRE_USERS.encode()
_SPACES = MEMBER_WIRE_SPACES.encode()
