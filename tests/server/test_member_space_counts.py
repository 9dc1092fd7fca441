"""A member's `granted_spaces` and `team_count` (migration 15) and the organizations'
`member_counts` (migration 16), kept by triggers, always equal a naive count.

The members list reads a guest's `spaces` and every member's `teams` from those columns; here
they are compared, for every member of every organization, with counts made from the tables
themselves after each of a few hundred random writes of every kind that can change them:
grants to a user or a team added, changed and removed, team memberships added and removed,
members' roles changed and members seen,
teams moved to another organization or deleted (their memberships and grants go by cascade),
spaces created, deleted, restored, moved to another organization and purged (their grants go
by cascade), members added and removed, an organization deleted.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from docdeck.server.store import db as store_db

from ._support import GUEST, DemoIds

NOW = "2025-01-01T00:00:00.000000Z"


@pytest.fixture
def conn(sandbox_db: Path) -> Iterator[sqlite3.Connection]:
    connection = store_db._connect(sandbox_db)
    try:
        yield connection
    finally:
        connection.close()


def naive_counts(conn: sqlite3.Connection) -> dict[tuple[str, str], tuple[int, int]]:
    """(organization, user) -> the distinct live spaces of the organization granted to the
    user or to a team the user is in, and the user's teams in the organization, counted in
    Python from the tables."""
    team_org = dict(conn.execute("SELECT id, organization_id FROM teams").fetchall())
    spaces = {
        row[0]: row[1]
        for row in conn.execute("SELECT id, organization_id FROM spaces WHERE deleted_at IS NULL")
    }
    teams_of: dict[str, set[str]] = {}
    for team, user in conn.execute(
        "SELECT tm.team_id, tm.user_id FROM team_members tm JOIN teams t ON t.id = tm.team_id"
    ):
        teams_of.setdefault(user, set()).add(team)
    by_user: dict[str, set[str]] = {}
    by_team: dict[str, set[str]] = {}
    for space, user, team in conn.execute("SELECT space_id, user_id, team_id FROM space_grants"):
        if user is not None:
            by_user.setdefault(user, set()).add(space)
        else:
            by_team.setdefault(team, set()).add(space)
    counts: dict[tuple[str, str], int] = {}
    for org, user in conn.execute("SELECT organization_id, user_id FROM members"):
        granted = set(by_user.get(user, ()))
        for team in teams_of.get(user, ()):
            granted |= by_team.get(team, set())
        counts[(org, user)] = (
            sum(1 for space in granted if spaces.get(space) == org),
            sum(1 for team in teams_of.get(user, ()) if team_org[team] == org),
        )
    return counts


def kept_counts(conn: sqlite3.Connection) -> dict[tuple[str, str], tuple[int, int]]:
    return {
        (org, user): (spaces, teams)
        for org, user, spaces, teams in conn.execute(
            "SELECT organization_id, user_id, granted_spaces, team_count FROM members"
        )
    }


def naive_member_counts(conn: sqlite3.Connection) -> dict[tuple[str, str, int], int]:
    """(organization, role or '' for a guest, ever seen) -> members, from `members`."""
    return {
        (org, role, seen): count
        for org, role, seen, count in conn.execute(
            "SELECT organization_id, coalesce(role, ''), last_seen_at IS NOT NULL, COUNT(*)"
            " FROM members GROUP BY 1, 2, 3"
        )
    }


def kept_member_counts(conn: sqlite3.Connection) -> dict[tuple[str, str, int], int]:
    """The same from `member_counts` (migration 16), leaving out what counts no one."""
    return {
        (org, role, seen): count
        for org, role, seen, count in conn.execute(
            "SELECT organization_id, role, seen, members FROM member_counts WHERE members != 0"
        )
    }


def _ids(conn: sqlite3.Connection, sql: str, *params: object) -> list[str]:
    return [row[0] for row in conn.execute(sql, params)]


class World:
    """Random writes on the demo database through a plain connection (foreign keys on, as
    the server's), each in its own transaction."""

    def __init__(self, conn: sqlite3.Connection, rng: random.Random) -> None:
        self.conn = conn
        self.rng = rng
        self.orgs = _ids(conn, "SELECT id FROM organizations ORDER BY id")
        self.serial = 0

    def _new(self, kind: str) -> str:
        self.serial += 1
        return f"t-{kind}-{self.serial}"

    def _pick(self, sql: str, *params: object) -> str | None:
        found = _ids(self.conn, sql, *params)
        return self.rng.choice(found) if found else None

    def add_user_member(self) -> None:
        user = self._new("user")
        self.conn.execute(
            "INSERT INTO users (id, email, display_name) VALUES (?, ?, ?)",
            (user, f"{user}@example.test", user),
        )
        self.conn.execute(
            "INSERT INTO members (organization_id, user_id, role, joined_at) VALUES (?, ?, ?, ?)",
            (self.rng.choice(self.orgs), user, self.rng.choice([None, None, "read"]), NOW),
        )

    def join_other_org(self) -> None:
        user = self._pick("SELECT id FROM users ORDER BY id")
        org = self.rng.choice(self.orgs)
        self.conn.execute(
            "INSERT OR IGNORE INTO members (organization_id, user_id, role, joined_at)"
            " VALUES (?, ?, NULL, ?)",
            (org, user, NOW),
        )

    def remove_member(self) -> None:
        row = self.conn.execute(
            "SELECT organization_id, user_id FROM members ORDER BY random() LIMIT 1"
        ).fetchone()
        if row is not None:
            self.conn.execute(
                "DELETE FROM members WHERE organization_id = ? AND user_id = ?", tuple(row)
            )

    def change_role(self) -> None:
        row = self.conn.execute(
            "SELECT organization_id, user_id FROM members ORDER BY random() LIMIT 1"
        ).fetchone()
        self.conn.execute(
            "UPDATE members SET role = ? WHERE organization_id = ? AND user_id = ?",
            (self.rng.choice([None, "read", "admin"]), *row),
        )

    def see_member(self) -> None:
        """A member is seen (a ping), seen again later, or (by a raw write) never seen."""
        row = self.conn.execute(
            "SELECT organization_id, user_id FROM members ORDER BY random() LIMIT 1"
        ).fetchone()
        self.conn.execute(
            "UPDATE members SET last_seen_at = ? WHERE organization_id = ? AND user_id = ?",
            (self.rng.choice([None, NOW, "2025-02-02T00:00:00.000000Z"]), *row),
        )

    def delete_org(self) -> None:
        """Rarely: an organization goes, with its members, teams and spaces (by cascade)."""
        if len(self.orgs) > 1 and self.rng.random() < 0.3:
            org = self.orgs.pop()
            self.conn.execute("DELETE FROM organizations WHERE id = ?", (org,))

    def add_space(self) -> None:
        space = self._new("space")
        self.conn.execute(
            "INSERT INTO spaces (id, organization_id, title, position, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (space, self.rng.choice(self.orgs), space, self.rng.random(), NOW, NOW),
        )

    def grant_user(self) -> None:
        space = self._pick("SELECT id FROM spaces ORDER BY id")
        user = self._pick("SELECT user_id FROM members ORDER BY user_id")
        self.conn.execute(
            "INSERT OR REPLACE INTO space_grants (space_id, user_id, role) VALUES (?, ?, 'read')",
            (space, user),
        )

    def grant_team(self) -> None:
        space = self._pick("SELECT id FROM spaces ORDER BY id")
        team = self._pick("SELECT id FROM teams ORDER BY id")
        if team is not None:
            self.conn.execute(
                "INSERT OR IGNORE INTO space_grants (space_id, team_id, role)"
                " VALUES (?, ?, 'edit')",
                (space, team),
            )

    def change_grant(self) -> None:
        """A grant's role changes, or a user's grant moves to another space."""
        rowid = self._pick("SELECT rowid FROM space_grants ORDER BY rowid")
        if rowid is None:
            return
        if self.rng.random() < 0.5:
            self.conn.execute("UPDATE space_grants SET role = 'admin' WHERE rowid = ?", (rowid,))
            return
        space = self._pick("SELECT id FROM spaces ORDER BY id")
        self.conn.execute(
            "UPDATE OR IGNORE space_grants SET space_id = ? WHERE rowid = ?", (space, rowid)
        )

    def revoke(self) -> None:
        rowid = self._pick("SELECT rowid FROM space_grants ORDER BY rowid")
        self.conn.execute("DELETE FROM space_grants WHERE rowid = ?", (rowid,))

    def add_team(self) -> None:
        self.conn.execute(
            "INSERT INTO teams (id, organization_id, title, created_at) VALUES (?, ?, ?, ?)",
            (self._new("team"), self.rng.choice(self.orgs), "Team", NOW),
        )

    def join_team(self) -> None:
        team = self._pick("SELECT id FROM teams ORDER BY id")
        user = self._pick("SELECT user_id FROM members ORDER BY user_id")
        if team is not None:
            self.conn.execute(
                "INSERT OR IGNORE INTO team_members (team_id, user_id, role, added_at)"
                " VALUES (?, ?, 'member', ?)",
                (team, user, NOW),
            )

    def leave_team(self) -> None:
        rowid = self._pick("SELECT rowid FROM team_members ORDER BY rowid")
        self.conn.execute("DELETE FROM team_members WHERE rowid = ?", (rowid,))

    def move_team(self) -> None:
        team = self._pick("SELECT id FROM teams ORDER BY id")
        self.conn.execute(
            "UPDATE teams SET organization_id = ? WHERE id = ?", (self.rng.choice(self.orgs), team)
        )

    def delete_team(self) -> None:
        team = self._pick("SELECT id FROM teams ORDER BY id")
        self.conn.execute("DELETE FROM teams WHERE id = ?", (team,))

    def delete_space(self) -> None:
        space = self._pick("SELECT id FROM spaces WHERE deleted_at IS NULL ORDER BY id")
        self.conn.execute("UPDATE spaces SET deleted_at = ? WHERE id = ?", (NOW, space))

    def restore_space(self) -> None:
        space = self._pick("SELECT id FROM spaces WHERE deleted_at IS NOT NULL ORDER BY id")
        self.conn.execute("UPDATE spaces SET deleted_at = NULL WHERE id = ?", (space,))

    def move_space(self) -> None:
        space = self._pick("SELECT id FROM spaces ORDER BY id")
        self.conn.execute(
            "UPDATE spaces SET organization_id = ?, parent_id = NULL WHERE id = ?",
            (self.rng.choice(self.orgs), space),
        )

    def purge_space(self) -> None:
        space = self._pick("SELECT id FROM spaces ORDER BY id")
        self.conn.execute("DELETE FROM spaces WHERE id = ?", (space,))


def test_kept_counts_equal_a_naive_count_after_random_writes(conn: sqlite3.Connection) -> None:
    # the migrations counted the demo's members
    assert kept_counts(conn) == naive_counts(conn)
    assert kept_member_counts(conn) == naive_member_counts(conn)
    assert any(spaces > 0 and teams > 0 for spaces, teams in kept_counts(conn).values())
    world = World(conn, random.Random(15))
    steps = [
        (world.add_user_member, 3),
        (world.join_other_org, 2),
        (world.remove_member, 1),
        (world.change_role, 2),
        (world.see_member, 2),
        (world.delete_org, 1),
        (world.add_space, 2),
        (world.grant_user, 6),
        (world.grant_team, 4),
        (world.change_grant, 2),
        (world.revoke, 2),
        (world.add_team, 1),
        (world.join_team, 5),
        (world.leave_team, 1),
        (world.move_team, 1),
        (world.delete_team, 1),
        (world.delete_space, 2),
        (world.restore_space, 2),
        (world.move_space, 2),
        (world.purge_space, 1),
    ]
    done: dict[str, int] = {}
    most_spaces = most_teams = 0
    for number in range(400):
        (step,) = world.rng.choices([s for s, _ in steps], weights=[w for _, w in steps])
        conn.execute("BEGIN")
        step()
        conn.execute("COMMIT")
        done[step.__name__] = done.get(step.__name__, 0) + 1
        kept, naive = kept_counts(conn), naive_counts(conn)
        assert kept_member_counts(conn) == naive_member_counts(conn), (number, step.__name__)
        most_spaces = max(most_spaces, *(spaces for spaces, _ in kept.values()))
        most_teams = max(most_teams, *(teams for _, teams in kept.values()))
        assert kept == naive, (
            number,
            step.__name__,
            {k: (kept[k], naive[k]) for k in kept if kept[k] != naive.get(k)},
        )
    assert len(done) == len(steps), done  # every kind of write was made
    # members held several grants and teams at once, not one at a time
    assert most_spaces >= 3 and most_teams >= 2, (most_spaces, most_teams)


def test_a_purge_without_foreign_keys_still_recounts(conn: sqlite3.Connection) -> None:
    """A connection with foreign keys off (plain `sqlite3.connect`) leaves a purged space's
    grants behind: the naive count ignores them (no live space), and so does the kept one."""
    space, user = conn.execute(
        "SELECT g.space_id, g.user_id FROM space_grants g JOIN spaces s ON s.id = g.space_id"
        " WHERE g.user_id IS NOT NULL AND s.deleted_at IS NULL LIMIT 1"
    ).fetchone()
    conn.execute("PRAGMA foreign_keys = OFF")
    before = kept_counts(conn)
    conn.execute("DELETE FROM spaces WHERE id = ?", (space,))
    assert conn.execute("SELECT COUNT(*) FROM space_grants WHERE space_id = ?", (space,)).fetchone()
    after = kept_counts(conn)
    assert after == naive_counts(conn)
    assert any(after[key][0] == before[key][0] - 1 for key in after if key[1] == user)


async def test_a_guests_spaces_in_the_list_follow_grants_teams_and_deleted_spaces(
    admin: httpx.AsyncClient, ids: DemoIds, conn: sqlite3.Connection
) -> None:
    """Through the API: the guest's `spaces` in the members list, its own member answer and
    the spaces list of the member agree, as spaces are deleted and restored."""
    gus = ids.users[GUEST]

    async def spaces_of_guest() -> tuple[int, int, int]:
        listed = (
            await admin.get(
                f"/v1/orgs/{ids.northwind}/members", params={"role": "guest", "limit": 1000}
            )
        ).json()["items"]
        (row,) = [m for m in listed if m["id"] == gus]
        one = (await admin.get(f"/v1/orgs/{ids.northwind}/members/{gus}")).json()
        their = (await admin.get(f"/v1/orgs/{ids.northwind}/members/{gus}/spaces")).json()
        return row["spaces"], one["spaces"], their["count"]

    first = await spaces_of_guest()
    assert first[0] == first[1] == first[2] >= 2  # an own grant and the Docs Guild's
    granted = _ids(
        conn,
        "SELECT s.id FROM spaces s WHERE s.organization_id = ? AND s.deleted_at IS NULL"
        " AND s.id IN (SELECT space_id FROM space_grants WHERE user_id = ?"
        " UNION SELECT g.space_id FROM space_grants g JOIN team_members tm"
        " ON tm.team_id = g.team_id WHERE tm.user_id = ?) ORDER BY s.id",
        ids.northwind,
        gus,
        gus,
    )
    assert len(granted) == first[0]
    deleted = await admin.delete(f"/v1/spaces/{granted[0]}")
    assert deleted.status_code == 204, deleted.text
    assert await spaces_of_guest() == (first[0] - 1,) * 3
    restored = await admin.post(f"/v1/spaces/{granted[0]}/restore")
    assert restored.status_code == 200, restored.text
    assert await spaces_of_guest() == first


def test_the_migrations_count_what_a_database_already_holds(tmp_path: Path) -> None:
    """A database made before migrations 15 and 16, holding members, teams, grants and live,
    deleted and other organizations' spaces, gets the counts a naive count gives."""
    from docdeck.server.store.schema import MIGRATIONS

    path = tmp_path / "old.db"
    old = store_db._connect(path)
    for number in range(14):
        for statement in store_db._statements(MIGRATIONS[number]):
            old.execute(statement)
    old.execute("PRAGMA user_version = 14")
    rows = {
        "organizations (id, title, created_at)": [("o1", "One", NOW), ("o2", "Two", NOW)],
        "users (id, email, display_name)": [(f"u{i}", f"u{i}@x.test", f"U {i}") for i in range(5)],
        "members (organization_id, user_id, role, joined_at, last_seen_at)": [
            ("o1", "u0", None, NOW, None),
            ("o1", "u1", None, NOW, NOW),
            ("o1", "u2", "admin", NOW, NOW),
            ("o2", "u0", None, NOW, None),
            ("o2", "u3", "read", NOW, None),
        ],
        "spaces (id, organization_id, title, position, created_at, updated_at, deleted_at)": [
            ("s1", "o1", "S1", 1, NOW, NOW, None),
            ("s2", "o1", "S2", 2, NOW, NOW, None),
            ("s3", "o1", "S3", 3, NOW, NOW, NOW),
            ("s4", "o2", "S4", 4, NOW, NOW, None),
        ],
        "teams (id, organization_id, title, created_at)": [("t1", "o1", "T1", NOW)],
        "team_members (team_id, user_id, role, added_at)": [
            ("t1", "u0", "member", NOW),
            ("t1", "u1", "member", NOW),
        ],
        "space_grants (space_id, user_id, team_id, role)": [
            ("s1", "u0", None, "read"),
            ("s1", None, "t1", "read"),
            ("s2", None, "t1", "read"),
            ("s3", "u1", None, "read"),
            ("s4", "u0", None, "read"),
        ],
    }
    for table, values in rows.items():
        marks = ", ".join("?" for _ in values[0])
        old.executemany(f"INSERT INTO {table} VALUES ({marks})", values)
    old.close()
    store_db.migrate(path)
    conn = store_db._connect(path)
    try:
        assert kept_counts(conn) == naive_counts(conn)
        assert kept_member_counts(conn) == naive_member_counts(conn)
        assert kept_counts(conn)[("o1", "u0")] == (2, 1)  # s1 twice over, s2 by the team
        assert kept_counts(conn)[("o1", "u1")] == (2, 1)  # s3 is deleted
        assert kept_counts(conn)[("o2", "u0")] == (1, 0)
        assert kept_member_counts(conn)[("o1", "", 0)] == 1
    finally:
        conn.close()
