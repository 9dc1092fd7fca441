"""The versioned SQLite schema: numbered migrations, tracked by `PRAGMA user_version`.

A migration is never edited once released; a change to the schema is a new entry appended here.
"""

from __future__ import annotations

MIGRATIONS: tuple[str, ...] = (
    # 1: organizations, users, members, teams, collections, spaces and their revisions.
    """
    CREATE TABLE users (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL UNIQUE COLLATE NOCASE,
        display_name TEXT NOT NULL,
        photo_url TEXT
    );
    CREATE TABLE api_tokens (
        token_hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL
    );
    CREATE TABLE organizations (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        created_at TEXT NOT NULL,
        email_domains TEXT NOT NULL DEFAULT '[]',
        hostname TEXT UNIQUE,
        type TEXT NOT NULL DEFAULT 'business',
        use_case TEXT,
        community_type TEXT,
        default_role TEXT,
        sso INTEGER NOT NULL DEFAULT 0,
        ai INTEGER NOT NULL DEFAULT 0,
        invite_links INTEGER NOT NULL DEFAULT 1,
        plan TEXT NOT NULL DEFAULT 'free_2024',
        logo TEXT
    );
    CREATE TABLE members (
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        role TEXT,
        disabled INTEGER NOT NULL DEFAULT 0,
        sso INTEGER NOT NULL DEFAULT 0,
        joined_at TEXT NOT NULL,
        last_seen_at TEXT,
        PRIMARY KEY (organization_id, user_id)
    );
    CREATE INDEX members_by_user ON members(user_id);
    CREATE TABLE link_invites (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        role TEXT,
        created_at TEXT NOT NULL
    );
    CREATE TABLE teams (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        title TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE INDEX teams_by_org ON teams(organization_id, created_at, id);
    CREATE TABLE team_members (
        team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        role TEXT NOT NULL,
        added_at TEXT NOT NULL,
        PRIMARY KEY (team_id, user_id)
    );
    CREATE INDEX team_members_by_user ON team_members(user_id);
    CREATE TABLE collections (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        parent_id TEXT REFERENCES collections(id) ON DELETE CASCADE,
        title TEXT NOT NULL,
        description TEXT,
        default_level TEXT DEFAULT 'inherit',
        position REAL NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE INDEX collections_by_org ON collections(organization_id, position, id);
    CREATE INDEX collections_by_parent ON collections(parent_id);
    CREATE TABLE spaces (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        parent_id TEXT REFERENCES collections(id) ON DELETE SET NULL,
        title TEXT NOT NULL,
        emoji TEXT,
        icon TEXT,
        visibility TEXT NOT NULL DEFAULT 'private',
        edit_mode TEXT NOT NULL DEFAULT 'live',
        default_level TEXT DEFAULT 'inherit',
        position REAL NOT NULL,
        revision_id TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT
    );
    CREATE INDEX spaces_by_org ON spaces(organization_id, deleted_at, position, id);
    CREATE INDEX spaces_by_parent ON spaces(parent_id, deleted_at, position, id);
    CREATE INDEX spaces_deleted ON spaces(deleted_at);
    CREATE TABLE revisions (
        id TEXT PRIMARY KEY,
        space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        parent_id TEXT,
        type TEXT NOT NULL DEFAULT 'edits',
        created_at TEXT NOT NULL
    );
    CREATE INDEX revisions_by_space ON revisions(space_id);
    CREATE TABLE space_grants (
        space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
        team_id TEXT REFERENCES teams(id) ON DELETE CASCADE,
        role TEXT NOT NULL,
        CHECK ((user_id IS NULL) != (team_id IS NULL))
    );
    CREATE UNIQUE INDEX space_grants_user ON space_grants(space_id, user_id)
        WHERE user_id IS NOT NULL;
    CREATE UNIQUE INDEX space_grants_team ON space_grants(space_id, team_id)
        WHERE team_id IS NOT NULL;
    CREATE INDEX space_grants_by_user ON space_grants(user_id);
    CREATE INDEX space_grants_by_team ON space_grants(team_id);
    """,
    # 2: an index for every sort order of the members list (with and without a role filter)
    # and of a member's spaces, so a page is read in index order and stops at its limit
    # instead of sorting the whole organization.
    """
    CREATE INDEX members_by_joined ON members(organization_id, joined_at, user_id);
    CREATE INDEX members_by_last_seen ON members(organization_id, last_seen_at, user_id);
    CREATE INDEX members_by_role_joined ON members(organization_id, role, joined_at, user_id);
    CREATE INDEX members_by_role_last_seen
        ON members(organization_id, role, last_seen_at, user_id);
    CREATE INDEX spaces_by_org_created ON spaces(organization_id, deleted_at, created_at, id);
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)
