"""Organizations as the wire writes them, from rows to
plain dicts (server/wire.py says why dicts)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any

from docdeck.server.http.context import Ctx
from docdeck.server.orgs.service import ORGANIZATION_COLUMNS
from docdeck.server.permissions import (
    Membership,
    organization_permissions,
)
from docdeck.server.wire import Json, columns, set_present, wire_time

_TRIAL: Json = {"status": "notapplicable"}
"""Shared by every organization (never mutated), like the permissions below."""


@cache
def _organization_permissions(in_org: bool, role: str | None, owns_team: bool) -> Json:
    member = Membership("", "", role) if in_org else None
    return organization_permissions(member, owns_team).model_dump(mode="json")


@lru_cache(maxsize=1024)
def _email_domains(stored: str) -> tuple[str, ...]:
    """A stored domain list, parsed once per distinct value (an immutable tuple, shared)."""
    return tuple(json.loads(stored))


def organization_json(
    ctx: Ctx, row: sqlite3.Row, member: Membership | None, owns_team: bool
) -> Json:
    return organization_values(
        ctx.sandbox.public_url,
        columns(row, ORGANIZATION_COLUMNS),
        member is not None,
        None if member is None else member.role,
        owns_team,
    )


def organization_values(
    base: str, values: Sequence[Any], in_org: bool, role: str | None, owns_team: bool
) -> Json:
    """An organization from its `ORGANIZATION_COLUMNS` `values` (a plain row of the list, or
    `columns` of a `sqlite3.Row`); `base` is the public URL."""
    (
        org_id,
        logo,
        title,
        created_at,
        email_domains,
        kind,
        default_role,
        sso,
        ai,
        invite_links,
        plan,
        hostname,
        use_case,
        community_type,
    ) = values[:14]
    urls: Json = {"location": f"{base}/v1/orgs/{org_id}", "app": f"{base}/app/orgs/{org_id}"}
    set_present(urls, "logo", logo)
    data: Json = {
        "object": "organization",
        "id": org_id,
        "title": title,
        "createdAt": wire_time(created_at),
        "emailDomains": _email_domains(email_domains),
        "type": kind,
        "defaultRole": default_role,
        "sso": bool(sso),
        "ai": bool(ai),
        "inviteLinks": bool(invite_links),
        "plan": plan,
        "urls": urls,
        "trial": _TRIAL,
        "permissions": _organization_permissions(in_org, role, owns_team),
    }
    set_present(data, "hostname", hostname)
    set_present(data, "useCase", use_case)
    set_present(data, "communityType", community_type)
    return data
