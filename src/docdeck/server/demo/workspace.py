"""The demo workspace: two organizations a person can explore right away.

Northwind Labs is a product company documenting its API; Lumen is an open-source project.
Every role appears, plus a guest, so each `permissions` variation can be seen.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from docdeck.server.ids import from_db, new_id, to_db, utc_now
from docdeck.server.spaces.ordering import end_position
from docdeck.server.spaces.service import insert_space
from docdeck.server.store import Database


@dataclass(frozen=True)
class DemoAccount:
    email: str
    display_name: str
    role: str  # the role in their first organization, or "guest"


# email, display name, {organization key: role or None for guest}, joined days ago, seen days ago
_PEOPLE: list[tuple[str, str, dict[str, str | None], int, float | None]] = [
    ("ada@northwind.dev", "Ada Okafor", {"northwind": "admin", "lumen": "admin"}, 420, 0.1),
    ("bruno@northwind.dev", "Bruno Castillo", {"northwind": "create"}, 380, 1.5),
    ("chen@northwind.dev", "Chen Wei", {"northwind": "edit", "lumen": "edit"}, 300, 0.4),
    ("dana@northwind.dev", "Dana Kowalski", {"northwind": "review"}, 210, 3.0),
    ("emeka@northwind.dev", "Emeka Nwosu", {"northwind": "comment"}, 150, 12.0),
    ("freya@northwind.dev", "Freya Lindqvist", {"northwind": "read"}, 60, None),
    ("gus@fieldwork.io", "Gus Patel", {"northwind": None}, 20, 2.0),
    ("ines@northwind.dev", "Inês Duarte", {"northwind": "edit"}, 30, 0.8),
    ("kofi@northwind.dev", "Kofi Boateng", {"northwind": "read"}, 7, 1.0),
    ("hana@lumen-project.org", "Hana Sato", {"lumen": "admin"}, 700, 0.2),
    ("ivan@lumen-project.org", "Ivan Petrov", {"lumen": "create"}, 500, 6.0),
    ("joy@lumen-project.org", "Joy Mensah", {"lumen": "review"}, 90, None),
]

_ORGS: dict[str, dict[str, Any]] = {
    "northwind": dict(
        title="Northwind Labs",
        domains=["northwind.dev"],
        hostname="northwind",
        type="business",
        use_case="productDocs",
        community=None,
        plan="pro_2024",
        age=800,
    ),
    "lumen": dict(
        title="Lumen",
        domains=["lumen-project.org"],
        hostname="lumen",
        type="community",
        use_case="openSourceDocs",
        community="openSource",
        plan="community_2024",
        age=720,
    ),
}

# organization, title, parent collection title or None
_COLLECTIONS = [
    ("northwind", "Engineering", None, "How we build and run the platform"),
    ("northwind", "API", "Engineering", "Public and partner APIs"),
    ("northwind", "Company Handbook", None, "Policies, onboarding and rituals"),
    ("lumen", "User Guide", None, "Everything a Lumen user needs"),
]

# organization, title, emoji, collection title or None, visibility, age days, deleted days ago
_SPACES: list[tuple[str, str, str, str | None, str, int, int | None]] = [
    ("northwind", "Public API Reference", "📘", "API", "public", 200, None),
    ("northwind", "Webhooks Guide", "🪝", "API", "in-collection", 120, None),
    ("northwind", "Architecture Decisions", "🏛️", "Engineering", "private", 260, None),
    ("northwind", "Incident Runbooks", "🚨", "Engineering", "private", 180, None),
    ("northwind", "Onboarding", "👋", "Company Handbook", "private", 400, None),
    ("northwind", "Release Notes", "📣", None, "public", 350, None),
    ("northwind", "Design System", "🎨", None, "unlisted", 90, None),
    ("northwind", "Q3 Launch Plan", "🗓️", None, "private", 100, 2),
    ("lumen", "Getting Started", "🚀", "User Guide", "public", 700, None),
    ("lumen", "Configuration Reference", "⚙️", "User Guide", "public", 650, None),
    ("lumen", "Contributing", "🤝", None, "public", 690, None),
    ("lumen", "Plugin API", "🧩", None, "public", 300, None),
]

# organization, team, owner email, member emails, granted spaces {title: role}
_TEAMS = [
    (
        "northwind",
        "Platform",
        "chen@northwind.dev",
        ["bruno@northwind.dev", "dana@northwind.dev"],
        {"Architecture Decisions": "admin", "Incident Runbooks": "edit"},
    ),
    (
        "northwind",
        "Docs Guild",
        "bruno@northwind.dev",
        ["emeka@northwind.dev", "freya@northwind.dev", "gus@fieldwork.io"],
        {"Public API Reference": "edit"},
    ),
    (
        "lumen",
        "Maintainers",
        "hana@lumen-project.org",
        ["ivan@lumen-project.org"],
        {"Plugin API": "admin", "Contributing": "edit"},
    ),
]

# direct grants: email, space title, role
_GRANTS = [("gus@fieldwork.io", "Webhooks Guide", "edit")]


def _load(conn: sqlite3.Connection, now: datetime, *, content_later: bool = False) -> None:
    """The whole demo, or with `content_later` its organizations, people, collections, spaces
    and teams now and a plan for the rest (`demo_pending`, loaded by `finish_demo`)."""
    org_ids, users, spaces = _load_workspace(conn, now)
    plan = {"now": to_db(now), "orgs": org_ids, "users": users, "spaces": spaces}
    if content_later:
        conn.execute("INSERT INTO demo_pending (id, plan) VALUES (1, ?)", (json.dumps(plan),))
    else:
        _load_content_and_more(conn, plan)


def _load_workspace(
    conn: sqlite3.Connection, now: datetime
) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """What the organization tree shows: cheap, and needed before the server says it is ready."""

    def ago(days: float) -> str:
        return to_db(now - timedelta(days=days))

    org_ids: dict[str, str] = {}
    for key, org in _ORGS.items():
        org_ids[key] = new_id()
        conn.execute(
            """INSERT INTO organizations (id, title, created_at, email_domains, hostname, type,
                use_case, community_type, default_role, plan) VALUES (?,?,?,?,?,?,?,?,?,?)""",
            (
                org_ids[key],
                org["title"],
                ago(org["age"]),
                json.dumps(org["domains"]),
                org["hostname"],
                org["type"],
                org["use_case"],
                org["community"],
                "read",
                org["plan"],
            ),
        )
        conn.execute(
            "INSERT INTO link_invites (id, organization_id, role, created_at) VALUES (?,?,?,?)",
            (new_id(), org_ids[key], "read", ago(10)),
        )
    users: dict[str, str] = {}
    for email, name, roles, joined, seen in _PEOPLE:
        users[email] = new_id()
        conn.execute(
            "INSERT INTO users (id, email, display_name) VALUES (?, ?, ?)",
            (users[email], email, name),
        )
        for key, role in roles.items():
            conn.execute(
                """INSERT INTO members (organization_id, user_id, role, joined_at, last_seen_at)
                VALUES (?, ?, ?, ?, ?)""",
                (
                    org_ids[key],
                    users[email],
                    role,
                    ago(joined),
                    None if seen is None else to_db(now - timedelta(days=seen)),
                ),
            )
    collections: dict[str, str] = {}
    for key, title, parent, description in _COLLECTIONS:
        collections[title] = new_id()
        parent_id = collections[parent] if parent else None
        conn.execute(
            """INSERT INTO collections (id, organization_id, parent_id, title, description,
                position, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)""",
            (
                collections[title],
                org_ids[key],
                parent_id,
                title,
                description,
                end_position(conn, org_ids[key], parent_id),
                ago(400),
            ),
        )
    spaces: dict[str, str] = {}
    for key, title, emoji, parent, visibility, age, deleted in _SPACES:
        parent_id = collections[parent] if parent else None
        spaces[title] = insert_space(
            conn,
            org_id=org_ids[key],
            now=now - timedelta(days=age),
            title=title,
            parent=parent_id,
            position=end_position(conn, org_ids[key], parent_id),
            emoji=emoji,
            visibility=visibility,
        )
        if deleted is not None:
            conn.execute(
                "UPDATE spaces SET deleted_at = ? WHERE id = ?", (ago(deleted), spaces[title])
            )
    for key, title, owner, members, granted in _TEAMS:
        team_id = new_id()
        conn.execute(
            "INSERT INTO teams (id, organization_id, title, created_at) VALUES (?, ?, ?, ?)",
            (team_id, org_ids[key], title, ago(250)),
        )
        for email, role in [(owner, "owner"), *((m, "member") for m in members)]:
            conn.execute(
                "INSERT INTO team_members (team_id, user_id, role, added_at) VALUES (?,?,?,?)",
                (team_id, users[email], role, ago(200)),
            )
        for space_title, role in granted.items():
            conn.execute(
                "INSERT INTO space_grants (space_id, team_id, role) VALUES (?, ?, ?)",
                (spaces[space_title], team_id, role),
            )
    return org_ids, users, spaces


def _load_content_and_more(conn: sqlite3.Connection, plan: dict[str, Any]) -> None:
    """Pages, files, change requests, comments and sites: most of the demo's load time, and
    of its imports (markdown, images, the change-request machinery)."""
    from docdeck.server.demo import change_requests as demo_change_requests
    from docdeck.server.demo import comments as demo_comments
    from docdeck.server.demo.admin import load_admin
    from docdeck.server.demo.sites import load_sites

    now = from_db(plan["now"])
    org_ids: dict[str, str] = plan["orgs"]
    users: dict[str, str] = plan["users"]
    spaces: dict[str, str] = plan["spaces"]
    _load_content(conn, spaces, now)
    demo_change_requests.load(conn, spaces, users, now)
    demo_comments.load(conn, spaces, users, now)
    for email, space_title, role in _GRANTS:
        conn.execute(
            "INSERT INTO space_grants (space_id, user_id, role) VALUES (?, ?, ?)",
            (spaces[space_title], users[email], role),
        )
    load_sites(conn, org_ids, spaces, now)
    load_admin(conn, org_ids, spaces, now)


def _finish(conn: sqlite3.Connection) -> bool:
    row = conn.execute("SELECT plan FROM demo_pending WHERE id = 1").fetchone()
    if row is None:
        return False
    _load_content_and_more(conn, json.loads(row["plan"]))
    conn.execute("DELETE FROM demo_pending WHERE id = 1")
    return True


def _load_content(conn: sqlite3.Connection, spaces: dict[str, str], now: datetime) -> None:
    from docdeck.server.demo import content as demo_content

    loaders = [
        ("Public API Reference", demo_content.load_api_docs, 190),
        ("Onboarding", demo_content.load_handbook, 380),
        ("Release Notes", demo_content.load_release_notes, 340),
        ("Getting Started", demo_content.load_lumen_getting_started, 690),
        ("Webhooks Guide", demo_content.load_webhooks_guide, 110),
    ]
    for title, load, days_ago in loaders:
        load(conn, spaces[title], now - timedelta(days=days_ago))


def _accounts(conn: sqlite3.Connection) -> list[DemoAccount]:
    """The demo people still present with their role as stored now (in the first of their
    organizations they still belong to), admins first: the launcher signs in as the first."""
    accounts = []
    for email, name, roles, _, _ in _PEOPLE:
        for key in roles:
            row = conn.execute(
                "SELECT m.role FROM members m JOIN users u ON u.id = m.user_id "
                "JOIN organizations o ON o.id = m.organization_id "
                "WHERE u.email = ? AND o.title = ?",
                (email, _ORGS[key]["title"]),
            ).fetchone()
            if row is not None:
                accounts.append(DemoAccount(email, name, row["role"] or "guest"))
                break
    return sorted(accounts, key=lambda account: account.role != "admin")


def ensure_demo(
    db_path: str | Path, *, now: datetime | None = None, content_later: bool = False
) -> list[DemoAccount]:
    """Loads the demo workspace into an empty database; returns the demo accounts, admin first.

    A database that already holds organizations is left as it is, except that demo content
    still pending from an earlier `content_later` start is loaded now (unless this call too
    leaves it for later). With `content_later`, only what the organization tree shows is
    loaded now: `finish_demo` loads the rest (`docdeck serve` does so just after start-up).
    """
    db = Database(db_path)
    try:
        with db.write() as conn:
            if conn.execute("SELECT COUNT(*) FROM organizations").fetchone()[0] == 0:
                _load(conn, now or utc_now(), content_later=content_later)
            elif not content_later:
                _finish(conn)
            return _accounts(conn)
    finally:
        db.close()


def finish_demo(db: Database) -> bool:
    """Loads the demo content an earlier `ensure_demo(content_later=True)` left pending, in
    one transaction; says whether there was any. Safe to call on any database."""
    with db.write() as conn:
        return _finish(conn)


def demo_content_pending(db: Database) -> bool:
    """Whether an earlier `ensure_demo(content_later=True)` left content for `finish_demo`."""
    with db.read() as conn:
        return conn.execute("SELECT 1 FROM demo_pending WHERE id = 1").fetchone() is not None


def add_bulk_spaces(
    db_path: str | Path, org_id: str, n: int, *, now: datetime | None = None
) -> list[str]:
    """Adds `n` top-level spaces to an organization (for benchmarks); returns their ids."""
    db = Database(db_path)
    stamp = now or utc_now()
    try:
        with db.write() as conn:
            if (
                conn.execute("SELECT 1 FROM organizations WHERE id = ?", (org_id,)).fetchone()
                is None
            ):
                raise LookupError(f"no organization {org_id!r}")
            position = end_position(conn, org_id, None)
            ids = []
            for index in range(n):
                ids.append(
                    insert_space(
                        conn,
                        org_id=org_id,
                        now=stamp,
                        title=f"Bulk space {index + 1:04d}",
                        parent=None,
                        position=position + index,
                        emoji="📄",
                    )
                )
            return ids
    finally:
        db.close()
