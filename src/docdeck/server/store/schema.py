"""The versioned SQLite schema: numbered migrations, tracked by `PRAGMA user_version`.

A migration is never edited once released; a change to the schema is a new entry appended here.
"""

from __future__ import annotations

from collections.abc import Callable


def _segment(alias: str) -> str:
    """One level of a depth-first sort key: fixed width and offset so text order is numeric
    order, even for negative positions; the id makes it unique."""
    return f"printf('%024.9f', {alias}.position + 1e12) || ':' || {alias}.id || '/'"


def _collection_path() -> str:
    return (
        "COALESCE((SELECT p.tree_path FROM collections p WHERE p.id = NEW.parent_id), '')"
        f" || {_segment('NEW')}"
    )


def _space_key(alias: str) -> str:
    return (
        f"COALESCE((SELECT c.tree_path FROM collections c WHERE c.id = {alias}.parent_id), '')"
        f" || {_segment(alias)}"
    )


def _ascii_fold(column: str) -> str:
    """SQL for `column`'s casefold() when it is ASCII alone (SQLite's lower() folds ASCII
    exactly as casefold() does); NULL otherwise, to be folded by `casefold` when read."""
    return f"CASE WHEN length(CAST({column} AS BLOB)) = length({column}) THEN lower({column}) END"


_FOLD_NAME = _ascii_fold("display_name")
_FOLD_EMAIL = _ascii_fold("email")

_GRANTED_SPACES = """UPDATE members SET granted_spaces = (
        SELECT COUNT(*) FROM spaces s INDEXED BY sqlite_autoindex_spaces_1
            WHERE s.organization_id = members.organization_id AND s.deleted_at IS NULL
            AND s.id IN (
                SELECT g.space_id FROM space_grants g WHERE g.user_id = members.user_id
                UNION ALL
                SELECT g.space_id FROM team_members tm JOIN teams t ON t.id = tm.team_id
                    JOIN space_grants g ON g.team_id = tm.team_id
                    WHERE tm.user_id = members.user_id))"""


def _recount_granted(where: str) -> str:
    """SQL recounting `members.granted_spaces` (see migration 15) for the members `where`
    selects, from the grants as they are now: a trigger never adds or subtracts, so what it
    counts is right whatever order a cascade deletes rows in. A team's grants count only while
    the team exists (its row is gone before its memberships and grants are cascaded away)."""
    return f"{_GRANTED_SPACES} WHERE {where};"


def _recount_for_grant(row: str) -> str:
    return (
        _recount_granted(f"user_id = {row}.user_id")
        + "\n        "
        + _recount_granted(
            f"user_id IN (SELECT tm.user_id FROM team_members tm WHERE tm.team_id = {row}.team_id)"
        )
    )


_TEAM_COUNT = """UPDATE members SET team_count = (
        SELECT COUNT(*) FROM team_members mt JOIN teams t ON t.id = mt.team_id
            WHERE mt.user_id = members.user_id AND t.organization_id = members.organization_id)"""


def _recount_teams(where: str) -> str:
    """SQL recounting `members.team_count` (migration 15), the member's teams in their
    organization, for the members `where` selects, as `_recount_granted` does."""
    return f"{_TEAM_COUNT} WHERE {where};"


def _member_sort_indexes(more: str) -> str:
    """SQL making the members list's four sort indexes anew, each covering what a row of the
    list reads, and the columns `more` adds (migrations 15 and 20)."""
    return f"""DROP INDEX members_by_joined;
    DROP INDEX members_by_last_seen;
    DROP INDEX members_by_role_joined;
    DROP INDEX members_by_role_last_seen;
    CREATE INDEX members_by_joined ON members(organization_id, joined_at, user_id,
        role, disabled, sso, last_seen_at, granted_spaces, team_count{more});
    CREATE INDEX members_by_last_seen ON members(organization_id, last_seen_at, user_id,
        role, disabled, sso, joined_at, granted_spaces, team_count{more});
    CREATE INDEX members_by_role_joined ON members(organization_id, role, joined_at, user_id,
        disabled, sso, last_seen_at, granted_spaces, team_count{more});
    CREATE INDEX members_by_role_last_seen ON members(organization_id, role, last_seen_at,
        user_id, disabled, sso, joined_at, granted_spaces, team_count{more});"""


_USER_COPIES = ",\n        user_email, user_name, user_photo_url"
"""What a member row keeps of its user (migration 20), last in its sort indexes."""


def wire_time_sql(column: str) -> str:
    """SQL writing a stored time as `server.wire.wire_time` does (a zero fraction left out)."""
    return (
        f"CASE WHEN substr({column}, -8) = '.000000Z'"
        f" THEN substr({column}, 1, length({column}) - 8) || 'Z' ELSE {column} END"
    )


MEMBER_WIRE_USERS = "\x01"
"""Where `member_wire` leaves the users' URL prefix (`{public URL}/v1/users/`, JSON-escaped),
which the configuration gives: a control character, which JSON text never holds raw."""
MEMBER_WIRE_SPACES = "\x02"
"""Where `member_wire` leaves a member's `spaces` when the member has a role: the number of
the organization's live spaces, which the store keeps per organization, not per member."""


def member_wire(m: str = "") -> str:
    """SQL writing a member row (its columns prefixed by `m`) as the JSON text
    `members.wire.members_json` makes of it, but for two values known only when read
    (`MEMBER_WIRE_USERS`, `MEMBER_WIRE_SPACES`). The members list's sort indexes hold it
    (migration 21), so a page of members is read as text ready to send; a query must write
    it exactly as the index does (same text, `m` aside) for SQLite to read it from there
    rather than compute it again per row."""
    return (
        'printf(\'{"object":"member","id":%s,"role":%s,"user":{"object":"user",'
        '"id":%s,"displayName":%s,"email":%s,"urls":{"location":"\' || char(1) ||'
        ' \'%s}%s},"disabled":%s,"joinedAt":%s,"sso":%s,"spaces":%s,"teams":%d%s}\','
        f" json_quote({m}user_id), json_quote({m}role), json_quote({m}user_id),"
        f" json_quote({m}user_name), json_quote({m}user_email), substr(json_quote({m}user_id), 2),"
        f" CASE WHEN {m}user_photo_url IS NULL THEN ''"
        f" ELSE ',\"photoURL\":' || json_quote({m}user_photo_url) END,"
        f" CASE WHEN {m}disabled != 0 THEN 'true' ELSE 'false' END,"
        f" json_quote({wire_time_sql(m + 'joined_at')}),"
        f" CASE WHEN {m}sso != 0 THEN 'true' ELSE 'false' END,"
        f" CASE WHEN {m}role IS NULL THEN {m}granted_spaces ELSE char(2) END, {m}team_count,"
        f" CASE WHEN {m}last_seen_at IS NULL THEN ''"
        f" ELSE ',\"lastSeenAt\":' || json_quote({wire_time_sql(m + 'last_seen_at')}) END)"
    )


def space_wire(sp: str = "") -> tuple[str, str, str, str]:
    """SQL writing a space row (its columns prefixed by `sp`) as the JSON text
    `spaces.wire.space_values` makes of it, in four pieces around what only a request knows:
    the public URL goes before the second and the third (JSON-escaped), the caller's
    permissions between the third and the fourth. The index `spaces_wire` holds the pieces
    (migration 25), so a read that writes them exactly so reads them from there, made when
    the space was last written; a read puts them together by concatenation, not by
    searching the text for placeholders (a replace over a structure's 9 KB answer costs
    about 20 us)."""
    return (
        f"""'{{"object":"space","id":' || json_quote({sp}id)"""
        f""" || ',"title":' || json_quote({sp}title)"""
        f""" || ',"emoji":' || json_quote(coalesce({sp}emoji, ''))"""
        f""" || ',"visibility":' || json_quote({sp}visibility)"""
        f""" || ',"createdAt":' || json_quote({wire_time_sql(sp + "created_at")})"""
        f""" || ',"updatedAt":' || json_quote({wire_time_sql(sp + "updated_at")})"""
        f""" || ',"editMode":' || json_quote({sp}edit_mode) || ',"urls":{{"location":"'""",
        f"""'/v1/spaces/' || substr(json_quote({sp}id), 2) || ',"app":"'""",
        f"""'/app/spaces/' || substr(json_quote({sp}id), 2)"""
        f""" || CASE WHEN {sp}icon IS NULL THEN '' ELSE ',"icon":' || json_quote({sp}icon) END"""
        f""" || '}},"organization":' || json_quote({sp}organization_id)"""
        f""" || ',"revision":' || json_quote({sp}revision_id)"""
        f""" || ',"defaultLevel":' || json_quote({sp}default_level)"""
        f""" || ',"comments":' || json_quote({sp}comments)"""
        f""" || ',"changeRequests":' || json_quote({sp}change_requests)"""
        f""" || ',"changeRequestsOpen":' || json_quote({sp}change_requests_open)"""
        f""" || ',"changeRequestsDraft":' || json_quote({sp}change_requests_draft)"""
        """ || ',"permissions":'""",
        f"""CASE WHEN {sp}parent_id IS NULL THEN ''"""
        f""" ELSE ',"parent":' || json_quote({sp}parent_id) END"""
        f""" || CASE WHEN {sp}deleted_at IS NULL THEN ''"""
        f""" ELSE ',"deletedAt":' || json_quote({wire_time_sql(sp + "deleted_at")}) END || '}}'""",
    )


COMMENT_WIRE_URL = "\x03"
"""Where `comment_wire` leaves the server's public URL (JSON-escaped), which the
configuration gives: in the comment's `urls.location` and in every user's."""
COMMENT_WIRE_PAGE = "\x04"
"""Where `comment_wire` leaves the `target.page` of a comment on a page: what the scope's
current content says of that page, which changes with the content, not with the comment."""
COMMENT_WIRE_PERMISSIONS = "\x05"
"""Where `comment_wire` leaves the comment's `permissions`, which depend on the caller."""
COMMENT_WIRE_MINE = "\x06"
"""What the comments list puts for `COMMENT_WIRE_PERMISSIONS` in its caller's own comments."""


def _user_wire(user_id: str) -> str:
    """SQL writing the user `user_id` as `comments.wire._Posts.user` does (a user the sandbox
    no longer has keeps its id), with `COMMENT_WIRE_URL` for the public URL."""
    location = '"urls":{"location":"\' || char(3) || \'/v1/users/%s}'
    return (
        'COALESCE((SELECT printf(\'{"object":"user","id":%s,"displayName":%s,'
        f'"email":%s,{location}%s}}\', json_quote(u.id), json_quote(u.display_name),'
        " json_quote(u.email), substr(json_quote(u.id), 2), CASE WHEN u.photo_url IS NULL"
        " THEN '' ELSE ',\"photoURL\":' || json_quote(u.photo_url) END)"
        f" FROM users u WHERE u.id = {user_id}),"
        ' printf(\'{"object":"user","id":%s,"displayName":"Former user","email":"",'
        f"{location}}}', json_quote({user_id}), substr(json_quote({user_id}), 2)))"
    )


def _reactions_wire(subject_id: str) -> str:
    """SQL writing the reactions of `subject_id` as `comments.wire._Posts.reactions` does:
    each emoji in the order it was first given (by time, user, then emoji: the order its
    rows are stored in), its count, and its first 1,000 users oldest first. Window functions
    give every order (an aggregate's order over a subquery is not one SQLite promises)."""
    every = "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING"
    return (
        "'[' || COALESCE((SELECT group_concat(g, ',') OVER (ORDER BY first_seq " + every + ")"
        ' FROM (SELECT printf(\'{"emoji":%s,"count":%d,"users":[%s]}\', json_quote(emoji),'
        " n, listed) AS g, first_seq FROM (SELECT emoji, n, first_seq, place,"
        " group_concat(given, ',')"
        " OVER (PARTITION BY emoji ORDER BY place " + every + ") AS listed"
        " FROM (SELECT emoji, row_number() OVER (PARTITION BY emoji ORDER BY reacted_at, user_id)"
        " AS place, count(*) OVER (PARTITION BY emoji) AS n, min(seq) OVER (PARTITION BY emoji)"
        ' AS first_seq, printf(\'{"user":%s,"reactedAt":%s}\', ' + _user_wire("user_id") + ","
        " json_quote(" + wire_time_sql("reacted_at") + ")) AS given"
        " FROM (SELECT x.emoji, x.user_id, x.reacted_at, row_number() OVER"
        " (ORDER BY x.reacted_at, x.user_id, x.emoji) AS seq FROM comment_reactions x"
        f" WHERE x.subject_id = {subject_id})) WHERE place <= 1000) WHERE place = 1) LIMIT 1), '')"
        " || ']'"
    )


def comment_wire(c: str = "comments.") -> str:
    """SQL writing a comment row (its columns prefixed by `c`) as the JSON text
    `comments.wire.comments_json` makes of it with the body in markdown, but for what only a
    read knows (`COMMENT_WIRE_URL`, `COMMENT_WIRE_PAGE`, `COMMENT_WIRE_PERMISSIONS`). NULL
    where SQL cannot write it as Python does: a body holding a `<` whose safe text was not
    stored (made on read by markdown-it), a resolved comment without its time or resolver.
    Kept in `comments.wire` by triggers (migration 24), so a page of comments is read as text
    ready to send."""
    location = (
        f"'/v1/spaces/' || {c}space_id || CASE WHEN {c}change_request_id IS NULL THEN ''"
        f" ELSE '/change-requests/' || {c}change_request_id END || '/comments/' || {c}id"
    )
    target = (
        f'printf(\'{{"space":%s,"revision":%s\', json_quote({c}space_id),'
        f" json_quote({c}revision_id))"
        f" || CASE WHEN COALESCE({c}change_request_id, '') = '' THEN ''"
        f" ELSE ',\"changeRequest\":' || json_quote({c}change_request_id) END"
        f" || CASE WHEN COALESCE({c}review_id, '') = '' THEN ''"
        f" ELSE ',\"review\":' || json_quote({c}review_id) END"
        f" || CASE WHEN {c}page_id IS NULL THEN '' ELSE ',\"page\":' || char(4)"
        f" || CASE WHEN {c}node_id IS NULL THEN ''"
        f' ELSE \',"node":{{"id":\' || json_quote({c}node_id)'
        f" || CASE WHEN COALESCE({c}node_preview, '') = '' THEN ''"
        f" ELSE ',\"preview\":' || json_quote({c}node_preview) END || '}}' END"
        f" || CASE WHEN {c}table_record IS NULL THEN ''"
        f' ELSE printf(\',"tableCell":{{"record":%s,"definition":%s}}\','
        f" json_quote({c}table_record), json_quote({c}table_definition)) END END || '}}'"
    )
    body = f"CASE WHEN {c}safe_body IS NOT NULL THEN {c}safe_body ELSE {c}body END"
    return (
        f"CASE WHEN ({c}safe_body IS NULL AND instr({c}body, '<') > 0)"
        f" OR ({c}status = 'resolved' AND ({c}resolved_at IS NULL OR {c}resolved_by IS NULL))"
        " THEN NULL ELSE"
        ' printf(\'{"object":"comment","id":%s,"postedBy":%s,"postedAt":%s,'
        '"reactions":%s,"replies":%d,"body":{"markdown":%s},"target":%s,'
        '"urls":{"location":"\' || char(3) || \'%s},"permissions":\' || char(5) ||'
        " ',\"status\":%s%s%s}',"
        f" json_quote({c}id), {_user_wire(c + 'posted_by')},"
        f" json_quote({wire_time_sql(c + 'posted_at')}), {_reactions_wire(c + 'id')},"
        f" (SELECT COUNT(*) FROM comment_replies n WHERE n.comment_id = {c}id),"
        f" json_quote({body}), {target}, substr(json_quote({location}), 2),"
        f" json_quote({c}status),"
        f" CASE WHEN COALESCE({c}edited_at, '') = '' THEN ''"
        f" ELSE ',\"editedAt\":' || json_quote({wire_time_sql(c + 'edited_at')}) END,"
        f" CASE WHEN {c}status = 'resolved' THEN ',\"resolvedAt\":'"
        f" || json_quote({wire_time_sql(c + 'resolved_at')}) || ',\"resolvedBy\":'"
        f" || {_user_wire(c + 'resolved_by')} ELSE '' END) END"
    )


_COMMENT_COLUMNS = (
    "id, space_id, change_request_id, page_id, node_id, node_preview, revision_id, posted_by,"
    " posted_at, edited_at, body, status, resolved_at, resolved_by, review_id, table_record,"
    " table_definition, safe_body"
)
"""Every column of `comments` but `wire`: a change to any of them writes `wire` anew."""


def _users_comments(user: str) -> str:
    """SQL selecting the comments showing the user `user` (`NEW` or `OLD`): posted, resolved
    or reacted to by them."""
    return (
        f"posted_by = {user}.id OR resolved_by = {user}.id OR id IN"
        f" (SELECT subject_id FROM comment_reactions WHERE user_id = {user}.id)"
    )


def _comment_wire_of(where: str) -> str:
    """SQL writing `comments.wire` anew for the comments `where` selects (migration 24: the
    whole expression in each trigger; migration 27 names the view instead)."""
    return f"UPDATE comments SET wire = {comment_wire()} WHERE {where};"


def _comment_wire_from_view(where: str) -> str:
    """SQL writing `comments.wire` anew for the comments `where` selects, from the view that
    holds `comment_wire` once (`comment_wires`, migration 27)."""
    return (
        "UPDATE comments SET wire = (SELECT w.wire FROM comment_wires w"
        f" WHERE w.comment_rowid = comments.rowid) WHERE {where};"
    )


_COMMENT_WIRE_TRIGGERS = (
    ("comments_wire_on_insert", "AFTER INSERT ON comments", ("rowid = NEW.rowid",)),
    (
        "comments_wire_on_update",
        f"AFTER UPDATE OF {_COMMENT_COLUMNS} ON comments",
        ("rowid = NEW.rowid",),
    ),
    ("comments_wire_reply_added", "AFTER INSERT ON comment_replies", ("id = NEW.comment_id",)),
    ("comments_wire_reply_removed", "AFTER DELETE ON comment_replies", ("id = OLD.comment_id",)),
    (
        "comments_wire_reply_moved",
        "AFTER UPDATE OF comment_id ON comment_replies",
        ("id IN (OLD.comment_id, NEW.comment_id)",),
    ),
    (
        "comments_wire_reaction_added",
        "AFTER INSERT ON comment_reactions",
        ("id = NEW.subject_id",),
    ),
    (
        "comments_wire_reaction_removed",
        "AFTER DELETE ON comment_reactions",
        ("id = OLD.subject_id",),
    ),
    (
        "comments_wire_reaction_changed",
        "AFTER UPDATE ON comment_reactions",
        ("id IN (OLD.subject_id, NEW.subject_id)",),
    ),
    ("comments_wire_user_added", "AFTER INSERT ON users", (_users_comments("NEW"),)),
    (
        "comments_wire_user_changed",
        "AFTER UPDATE OF id, email, display_name, photo_url ON users",
        (_users_comments("OLD"), _users_comments("NEW")),
    ),
    ("comments_wire_user_removed", "AFTER DELETE ON users", (_users_comments("OLD"),)),
)
"""Migration 24's triggers keeping `comments.wire`: name, event, and the comments each one
writes anew (migration 27 makes them again from this table, naming the view)."""


def _comment_wire_triggers(write: Callable[[str], str], *, again: bool = False) -> str:
    """The triggers of `_COMMENT_WIRE_TRIGGERS`, each writing its comments' text with `write`
    (`again`: each dropped first where it is there)."""
    made: list[str] = []
    for name, event, writes in _COMMENT_WIRE_TRIGGERS:
        body = "\n        ".join(write(where) for where in writes)
        if again:
            made.append(f"DROP TRIGGER IF EXISTS {name};")
        made.append(f"CREATE TRIGGER {name} {event} BEGIN\n        {body}\nEND;")
    return "\n".join(made)


def _comment_wire_triggers_on_the_view() -> str:
    """Migration 27: `comment_wire` once, in the view `comment_wires`, and migration 24's
    triggers made again to read it. Each trigger held the whole expression (about 5 KB each,
    60 KB of the schema's 106 KB), and SQLite parses a database's whole schema for every
    connection it opens (about 8-11 ms of CPU each before, most of it these triggers). Written
    to run again on a database that has it (tests migrate a current file from an earlier
    version)."""
    return (
        "DROP VIEW IF EXISTS comment_wires;\n"
        "CREATE VIEW comment_wires AS SELECT comments.rowid AS comment_rowid,"
        f" {comment_wire()} AS wire FROM comments;\n"
        + _comment_wire_triggers(_comment_wire_from_view, again=True)
    )


def _copy_user(where: str) -> str:
    """SQL copying onto the members `where` selects their user's email, name and photo
    (migration 20), from the user as it is now."""
    return (
        "UPDATE members SET (user_email, user_name, user_photo_url) = (SELECT u.email,"
        f" u.display_name, u.photo_url FROM users u WHERE u.id = members.user_id) WHERE {where};"
    )


_IN_TEAM = "user_id IN (SELECT tm.user_id FROM team_members tm WHERE tm.team_id = NEW.id)"

_GRANTED_ON_SPACE = (
    "user_id IN (SELECT g.user_id FROM space_grants g"
    " WHERE g.space_id = {0}.id AND g.user_id IS NOT NULL"
    " UNION SELECT tm.user_id FROM space_grants g JOIN team_members tm ON tm.team_id = g.team_id"
    " WHERE g.space_id = {0}.id AND g.team_id IS NOT NULL)"
)


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
    # 3: page cursors are signed with a per-database secret; spaces and collections carry
    # their depth-first sort key (kept by triggers), so a list page is an index range.
    f"""
    CREATE TABLE sandbox_secrets (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    INSERT INTO sandbox_secrets (name, value) VALUES ('cursor', lower(hex(randomblob(32))));
    ALTER TABLE collections ADD COLUMN tree_path TEXT NOT NULL DEFAULT '';
    ALTER TABLE spaces ADD COLUMN tree_key TEXT NOT NULL DEFAULT '';
    WITH RECURSIVE tree(id, path) AS (
        SELECT c.id, {_segment("c")} FROM collections c WHERE c.parent_id IS NULL
        UNION ALL SELECT c.id, tree.path || {_segment("c")} FROM collections c
            JOIN tree ON c.parent_id = tree.id)
    UPDATE collections SET tree_path = (SELECT path FROM tree WHERE tree.id = collections.id);
    UPDATE spaces SET tree_key = {_space_key("spaces")};
    CREATE INDEX collections_in_tree ON collections(organization_id, tree_path);
    CREATE INDEX collections_by_tree_path ON collections(tree_path);
    CREATE INDEX spaces_in_tree ON spaces(organization_id, deleted_at, tree_key);
    CREATE INDEX spaces_by_tree_key ON spaces(tree_key);
    CREATE TRIGGER collections_placed AFTER INSERT ON collections BEGIN
        UPDATE collections SET tree_path = {_collection_path()} WHERE id = NEW.id;
    END;
    CREATE TRIGGER collections_moved AFTER UPDATE OF parent_id, position ON collections BEGIN
        UPDATE collections SET tree_path = {_collection_path()} WHERE id = NEW.id;
    END;
    CREATE TRIGGER collections_path_changed AFTER UPDATE OF tree_path ON collections
        WHEN NEW.tree_path != OLD.tree_path AND OLD.tree_path != '' BEGIN
        UPDATE collections
            SET tree_path = NEW.tree_path || substr(tree_path, length(OLD.tree_path) + 1)
            WHERE tree_path > OLD.tree_path AND tree_path < OLD.tree_path || char(127);
        UPDATE spaces SET tree_key = NEW.tree_path || substr(tree_key, length(OLD.tree_path) + 1)
            WHERE tree_key > OLD.tree_path AND tree_key < OLD.tree_path || char(127);
    END;
    CREATE TRIGGER spaces_placed AFTER INSERT ON spaces BEGIN
        UPDATE spaces SET tree_key = {_space_key("NEW")} WHERE id = NEW.id;
    END;
    CREATE TRIGGER spaces_moved AFTER UPDATE OF parent_id, position ON spaces BEGIN
        UPDATE spaces SET tree_key = {_space_key("NEW")} WHERE id = NEW.id;
    END;
    """,
    # 4: the number of live spaces per organization, kept by triggers, so a page of an
    # organization's spaces does not count the whole organization again.
    """
    CREATE TABLE live_space_counts (
        organization_id TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
        live INTEGER NOT NULL
    );
    INSERT INTO live_space_counts (organization_id, live)
        SELECT o.id, (SELECT COUNT(*) FROM spaces s
            WHERE s.organization_id = o.id AND s.deleted_at IS NULL)
        FROM organizations o;
    CREATE TRIGGER organizations_counted AFTER INSERT ON organizations BEGIN
        INSERT OR IGNORE INTO live_space_counts (organization_id, live) VALUES (NEW.id, 0);
    END;
    CREATE TRIGGER spaces_counted_in AFTER INSERT ON spaces WHEN NEW.deleted_at IS NULL BEGIN
        UPDATE live_space_counts SET live = live + 1 WHERE organization_id = NEW.organization_id;
    END;
    CREATE TRIGGER spaces_counted_out AFTER DELETE ON spaces WHEN OLD.deleted_at IS NULL BEGIN
        UPDATE live_space_counts SET live = live - 1 WHERE organization_id = OLD.organization_id;
    END;
    CREATE TRIGGER spaces_recounted AFTER UPDATE OF deleted_at, organization_id ON spaces BEGIN
        UPDATE live_space_counts SET live = live - 1
            WHERE organization_id = OLD.organization_id AND OLD.deleted_at IS NULL;
        UPDATE live_space_counts SET live = live + 1
            WHERE organization_id = NEW.organization_id AND NEW.deleted_at IS NULL;
    END;
    """,
    # 5: space content. Revisions are immutable snapshots stored like git commits: page and
    # file entries, page bodies and file bytes are content-addressed `objects` shared by every
    # revision that holds them. A revision lists only the entries it changed relative to its
    # `base_id` (a delta); every so often it lists all of them (a checkpoint, `base_id` NULL),
    # so reading any revision reads at most about twice its size in entries.
    """
    ALTER TABLE revisions ADD COLUMN parents TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE revisions ADD COLUMN base_id TEXT;
    ALTER TABLE revisions ADD COLUMN chain_rows INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE revisions ADD COLUMN size INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE revisions ADD COLUMN message TEXT;
    CREATE INDEX revisions_by_space_time ON revisions(space_id, created_at);
    CREATE TABLE objects (
        hash TEXT PRIMARY KEY,
        data BLOB NOT NULL
    );
    CREATE TABLE revision_entries (
        revision_id TEXT NOT NULL REFERENCES revisions(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        item_id TEXT NOT NULL,
        object_hash TEXT,
        PRIMARY KEY (revision_id, kind, item_id)
    ) WITHOUT ROWID;
    CREATE TABLE space_objects (
        space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        hash TEXT NOT NULL,
        PRIMARY KEY (space_id, hash)
    ) WITHOUT ROWID;
    CREATE TABLE body_analysis (
        hash TEXT PRIMARY KEY,
        data TEXT NOT NULL
    );
    CREATE VIRTUAL TABLE search_sections USING fts5(
        title, body, space_id UNINDEXED, page_id UNINDEXED, anchor UNINDEXED,
        tokenize = 'unicode61 remove_diacritics 2'
    );
    CREATE TABLE file_link_secret (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        value TEXT NOT NULL
    );
    INSERT INTO file_link_secret (id, value) VALUES (1, lower(hex(randomblob(32))));
    CREATE TABLE search_state (
        space_id TEXT PRIMARY KEY REFERENCES spaces(id) ON DELETE CASCADE,
        revision_id TEXT NOT NULL
    );
    """,
    # 6: docs sites: sections, section groups, site spaces, share links, redirects.
    """
    CREATE TABLE sites (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        type TEXT NOT NULL DEFAULT 'basic',
        title TEXT NOT NULL,
        visibility TEXT NOT NULL DEFAULT 'public',
        published INTEGER NOT NULL DEFAULT 0,
        hostname TEXT,
        basename TEXT NOT NULL,
        proxy TEXT,
        adaptive_content INTEGER NOT NULL DEFAULT 0,
        agents_context TEXT NOT NULL DEFAULT 'included',
        adaptive_schema TEXT,
        adaptive_schema_updated_at TEXT,
        customization TEXT,
        created_at TEXT NOT NULL
    );
    CREATE INDEX sites_by_org ON sites(organization_id, created_at, id);
    CREATE TABLE site_section_groups (
        id TEXT PRIMARY KEY,
        site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
        title TEXT NOT NULL,
        icon TEXT,
        position REAL NOT NULL
    );
    CREATE INDEX site_section_groups_by_site ON site_section_groups(site_id, position);
    CREATE TABLE site_sections (
        id TEXT PRIMARY KEY,
        site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
        group_id TEXT REFERENCES site_section_groups(id) ON DELETE SET NULL,
        title TEXT NOT NULL,
        description TEXT,
        path TEXT NOT NULL,
        condition TEXT,
        icon TEXT,
        is_default INTEGER NOT NULL DEFAULT 0,
        position REAL NOT NULL
    );
    CREATE INDEX site_sections_by_site ON site_sections(site_id, group_id, position);
    CREATE TABLE site_spaces (
        id TEXT PRIMARY KEY,
        site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
        section_id TEXT REFERENCES site_sections(id) ON DELETE CASCADE,
        space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        condition TEXT,
        is_default INTEGER NOT NULL DEFAULT 0,
        customization TEXT,
        position REAL NOT NULL
    );
    CREATE INDEX site_spaces_by_site ON site_spaces(site_id, section_id, position);
    CREATE INDEX site_spaces_by_space ON site_spaces(space_id);
    CREATE TABLE site_share_links (
        id TEXT PRIMARY KEY,
        site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        secret TEXT NOT NULL UNIQUE,
        active INTEGER NOT NULL DEFAULT 1,
        created_at TEXT NOT NULL
    );
    CREATE INDEX site_share_links_by_site ON site_share_links(site_id, created_at, id);
    CREATE TABLE site_redirects (
        id TEXT PRIMARY KEY,
        site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
        source TEXT NOT NULL,
        destination TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (site_id, source)
    );
    CREATE TABLE site_previews (
        token TEXT PRIMARY KEY,
        site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
        site_space_id TEXT,
        expires_at TEXT NOT NULL
    );
    """,
    # 7: change requests. A change request points at a revision of its space outside main
    # (`revision_id`); `number` counts per space from 1 and is never reused (change requests
    # are never deleted). Contributors are the users who created or authored one, for the
    # list's `contributor` filter. The space's counters are columns refreshed on every change
    # request write, so a list of spaces reads them without counting per row.
    """
    CREATE TABLE change_requests (
        id TEXT PRIMARY KEY,
        space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        status TEXT NOT NULL,
        subject TEXT NOT NULL DEFAULT '',
        created_by TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        revision_id TEXT NOT NULL,
        revision_initial TEXT NOT NULL,
        revision_merged_ancestor TEXT,
        revision_merged TEXT,
        merged_by TEXT,
        merged_at TEXT,
        UNIQUE (space_id, number)
    );
    CREATE INDEX change_requests_by_status ON change_requests(space_id, status, number);
    CREATE TABLE change_request_contributors (
        change_request_id TEXT NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL,
        PRIMARY KEY (change_request_id, user_id)
    ) WITHOUT ROWID;
    CREATE INDEX change_request_contributors_by_user
        ON change_request_contributors(user_id, change_request_id);
    ALTER TABLE spaces ADD COLUMN change_requests INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE spaces ADD COLUMN change_requests_open INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE spaces ADD COLUMN change_requests_draft INTEGER NOT NULL DEFAULT 0;
    """,
    # 8: change request reviews and requested reviewers. A review records the revision it
    # was made against; a request records the change request's revision when it was made.
    """
    CREATE TABLE change_request_reviews (
        id TEXT PRIMARY KEY,
        change_request_id TEXT NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
        reviewer TEXT NOT NULL,
        requested_by TEXT,
        status TEXT NOT NULL,
        comment TEXT,
        revision_id TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE INDEX change_request_reviews_by_time
        ON change_request_reviews(change_request_id, created_at, id);
    CREATE TABLE change_request_requested_reviewers (
        change_request_id TEXT NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL,
        requested_by TEXT NOT NULL,
        revision_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (change_request_id, user_id)
    ) WITHOUT ROWID;
    """,
    # 9: which page each search section belongs to, indexed. `search_sections` is an FTS5
    # table whose `space_id`/`page_id` are UNINDEXED, so deleting a page's sections by them
    # scanned every section of every space: re-indexing the pages a merge changed grew with
    # the size of the index, not with the pages changed. Sections are now deleted by rowid.
    """
    CREATE TABLE search_section_pages (
        section_rowid INTEGER PRIMARY KEY,
        space_id TEXT NOT NULL,
        page_id TEXT NOT NULL
    );
    CREATE INDEX search_section_pages_by_page ON search_section_pages(space_id, page_id);
    INSERT INTO search_section_pages (section_rowid, space_id, page_id)
        SELECT rowid, space_id, page_id FROM search_sections;
    """,
    # 10: comments and replies on a space or a change request, and their reactions. The
    # `comments` counters of spaces and change requests count open comments, recounted from
    # these rows in the transaction that changes them.
    """
    CREATE TABLE comments (
        id TEXT PRIMARY KEY,
        space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        change_request_id TEXT REFERENCES change_requests(id) ON DELETE CASCADE,
        page_id TEXT,
        node_id TEXT,
        node_preview TEXT,
        revision_id TEXT NOT NULL,
        posted_by TEXT NOT NULL,
        posted_at TEXT NOT NULL,
        edited_at TEXT,
        body TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'open',
        resolved_at TEXT,
        resolved_by TEXT
    );
    CREATE INDEX comments_in_space ON comments(space_id, change_request_id, posted_at, id);
    CREATE TABLE comment_replies (
        id TEXT PRIMARY KEY,
        comment_id TEXT NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
        posted_by TEXT NOT NULL,
        posted_at TEXT NOT NULL,
        edited_at TEXT,
        body TEXT NOT NULL
    );
    CREATE INDEX comment_replies_by_time ON comment_replies(comment_id, posted_at, id);
    CREATE TABLE comment_reactions (
        subject_id TEXT NOT NULL,
        emoji TEXT NOT NULL,
        user_id TEXT NOT NULL,
        reacted_at TEXT NOT NULL,
        PRIMARY KEY (subject_id, emoji, user_id)
    ) WITHOUT ROWID;
    ALTER TABLE spaces ADD COLUMN comments INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE change_requests ADD COLUMN comments INTEGER NOT NULL DEFAULT 0;
    """,
    # 11: reactions go with what they react to. `comment_reactions.subject_id` names a comment
    # or a reply (two tables), so no foreign key can cascade to it: a purged space deleted its
    # comments and replies by cascade and left their reactions behind. Triggers fire for
    # cascaded deletes too, so every way a comment or reply goes (a delete, a purged space or
    # change request) now takes its reactions; the orphans already stored are removed.
    # A comment also records the review it was submitted with, and the table cell it is on.
    """
    CREATE TRIGGER comment_reactions_of_comment AFTER DELETE ON comments BEGIN
        DELETE FROM comment_reactions WHERE subject_id = OLD.id;
    END;
    CREATE TRIGGER comment_reactions_of_reply AFTER DELETE ON comment_replies BEGIN
        DELETE FROM comment_reactions WHERE subject_id = OLD.id;
    END;
    DELETE FROM comment_reactions WHERE subject_id NOT IN (SELECT id FROM comments)
        AND subject_id NOT IN (SELECT id FROM comment_replies);
    ALTER TABLE comments ADD COLUMN review_id TEXT;
    ALTER TABLE comments ADD COLUMN table_record TEXT;
    ALTER TABLE comments ADD COLUMN table_definition TEXT;
    """,
    # 12: the demo's content (pages, change requests, comments, sites) is loaded just after
    # the server is ready; what it still needs to load is kept here until it is loaded, so
    # a sandbox stopped in between finishes it on its next start.
    """
    CREATE TABLE demo_pending (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        plan TEXT NOT NULL
    );
    """,
    # 13: the members list reads a page from one index alone. Every sort order's index also
    # holds the member's other columns (covering), so a page of 1,000 members is 1,000 index
    # entries, not 1,000 index entries plus 1,000 lookups into the table; a member's teams
    # are counted from `team_members_by_user` alone, which now holds the team id.
    """
    DROP INDEX members_by_joined;
    DROP INDEX members_by_last_seen;
    DROP INDEX members_by_role_joined;
    DROP INDEX members_by_role_last_seen;
    CREATE INDEX members_by_joined
        ON members(organization_id, joined_at, user_id, role, disabled, sso, last_seen_at);
    CREATE INDEX members_by_last_seen
        ON members(organization_id, last_seen_at, user_id, role, disabled, sso, joined_at);
    CREATE INDEX members_by_role_joined
        ON members(organization_id, role, joined_at, user_id, disabled, sso, last_seen_at);
    CREATE INDEX members_by_role_last_seen
        ON members(organization_id, role, last_seen_at, user_id, disabled, sso, joined_at);
    DROP INDEX team_members_by_user;
    CREATE INDEX team_members_by_user ON team_members(user_id, team_id);
    """,
    # 14: the members list's `search` without a Python call per member. It matched
    # `casefold(display_name)` and `casefold(email)`, two calls into Python for every member
    # it passed (a search matching nobody in 10,000 members: 30 ms). A user now carries both
    # folded, for text that is ASCII alone, where SQLite's lower() is exactly casefold(); other
    # text stays NULL and is folded by `casefold` when read (so the answer is the same, only
    # slower). Triggers keep them, in SQL alone, so a user written by any connection (one
    # without the `casefold` function too) is folded. The index holds everything a member row
    # reads of its user, so a page or a search looks each user up once, in the index alone.
    f"""
    ALTER TABLE users ADD COLUMN folded_name TEXT;
    ALTER TABLE users ADD COLUMN folded_email TEXT;
    UPDATE users SET folded_name = {_FOLD_NAME}, folded_email = {_FOLD_EMAIL};
    CREATE TRIGGER users_folded_on_insert AFTER INSERT ON users BEGIN
        UPDATE users SET folded_name = {_FOLD_NAME}, folded_email = {_FOLD_EMAIL}
            WHERE rowid = NEW.rowid;
    END;
    CREATE TRIGGER users_folded_on_update AFTER UPDATE OF display_name, email ON users BEGIN
        UPDATE users SET folded_name = {_FOLD_NAME}, folded_email = {_FOLD_EMAIL}
            WHERE rowid = NEW.rowid;
    END;
    CREATE INDEX users_for_members
        ON users(id, folded_name, folded_email, email, display_name, photo_url);
    """,
    # 15: a member row's two counts are columns the store keeps, so a page of members reads
    # them with the rest of the row from the sort order's index. A guest's `spaces` was
    # counted per request for the page's guests (their grants and their teams' grants, joined
    # to the live spaces of the organization: 7-8.5 ms of a 1,000-guest page's 15-16 ms), and
    # `teams` by a subquery per member (0.6 ms of a 1,000-row page). `granted_spaces` counts
    # the distinct live spaces of the member's organization granted to the member or to one
    # of their teams, for every member (the list shows it for guests only: a member with a
    # role sees every live space); `team_count` the member's teams in the organization.
    # Triggers recount them, for the members a change can touch, on every write that can
    # change them: a grant or a team membership added, changed or removed (by cascade too),
    # a member added, a team moved, a space deleted, restored, purged or moved to another
    # organization. The sort orders' covering indexes hold both, so a page stays one index
    # range with no lookup into the table.
    f"""
    ALTER TABLE members ADD COLUMN granted_spaces INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE members ADD COLUMN team_count INTEGER NOT NULL DEFAULT 0;
    {_recount_granted("1")}
    {_recount_teams("1")}
    CREATE TRIGGER members_counted_on_insert AFTER INSERT ON members BEGIN
        {_recount_granted("rowid = NEW.rowid")}
        {_recount_teams("rowid = NEW.rowid")}
    END;
    CREATE TRIGGER members_counted_on_update AFTER UPDATE OF organization_id, user_id
        ON members BEGIN
        {_recount_granted("rowid = NEW.rowid")}
        {_recount_teams("rowid = NEW.rowid")}
    END;
    CREATE TRIGGER space_grants_granted_on_insert AFTER INSERT ON space_grants BEGIN
        {_recount_for_grant("NEW")}
    END;
    CREATE TRIGGER space_grants_granted_on_delete AFTER DELETE ON space_grants BEGIN
        {_recount_for_grant("OLD")}
    END;
    CREATE TRIGGER space_grants_granted_on_update AFTER UPDATE OF space_id, user_id, team_id
        ON space_grants BEGIN
        {_recount_for_grant("OLD")}
        {_recount_for_grant("NEW")}
    END;
    CREATE TRIGGER team_members_counted_on_insert AFTER INSERT ON team_members BEGIN
        {_recount_granted("user_id = NEW.user_id")}
        {_recount_teams("user_id = NEW.user_id")}
    END;
    CREATE TRIGGER team_members_counted_on_delete AFTER DELETE ON team_members BEGIN
        {_recount_granted("user_id = OLD.user_id")}
        {_recount_teams("user_id = OLD.user_id")}
    END;
    CREATE TRIGGER team_members_counted_on_update AFTER UPDATE OF team_id, user_id
        ON team_members BEGIN
        {_recount_granted("user_id = OLD.user_id")}
        {_recount_teams("user_id = OLD.user_id")}
        {_recount_granted("user_id = NEW.user_id")}
        {_recount_teams("user_id = NEW.user_id")}
    END;
    CREATE TRIGGER teams_counted_on_move AFTER UPDATE OF organization_id ON teams BEGIN
        {_recount_teams(_IN_TEAM)}
    END;
    CREATE TRIGGER spaces_granted_on_update AFTER UPDATE OF deleted_at, organization_id ON spaces
        WHEN OLD.deleted_at IS NOT NEW.deleted_at
            OR OLD.organization_id IS NOT NEW.organization_id BEGIN
        {_recount_granted(_GRANTED_ON_SPACE.format("NEW"))}
    END;
    CREATE TRIGGER spaces_granted_on_delete AFTER DELETE ON spaces BEGIN
        {_recount_granted(_GRANTED_ON_SPACE.format("OLD"))}
    END;
    {_member_sort_indexes("")}
    """,
    # 16: the number of members per organization, role and whether they were ever seen, kept
    # by triggers like `live_space_counts`, so a page of the members list that does not hold
    # the whole list (every page of a 10,000-member organization) reads its `count` as a sum
    # of at most a dozen rows instead of counting the organization's members (0.3-0.6 ms of
    # a 1,000-row page). A guest's role is kept as ''.
    """
    CREATE TABLE member_counts (
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        role TEXT NOT NULL,
        seen INTEGER NOT NULL,
        members INTEGER NOT NULL,
        PRIMARY KEY (organization_id, role, seen)
    ) WITHOUT ROWID;
    INSERT INTO member_counts (organization_id, role, seen, members)
        SELECT organization_id, coalesce(role, ''), last_seen_at IS NOT NULL, COUNT(*)
        FROM members GROUP BY 1, 2, 3;
    CREATE TRIGGER members_counted_in AFTER INSERT ON members BEGIN
        INSERT INTO member_counts (organization_id, role, seen, members)
            VALUES (NEW.organization_id, coalesce(NEW.role, ''), NEW.last_seen_at IS NOT NULL, 1)
            ON CONFLICT DO UPDATE SET members = members + 1;
    END;
    CREATE TRIGGER members_counted_out AFTER DELETE ON members BEGIN
        UPDATE member_counts SET members = members - 1
            WHERE organization_id = OLD.organization_id AND role = coalesce(OLD.role, '')
            AND seen = (OLD.last_seen_at IS NOT NULL);
    END;
    CREATE TRIGGER members_recounted AFTER UPDATE OF organization_id, role, last_seen_at
        ON members
        WHEN OLD.organization_id IS NOT NEW.organization_id OR OLD.role IS NOT NEW.role
            OR (OLD.last_seen_at IS NULL) != (NEW.last_seen_at IS NULL) BEGIN
        UPDATE member_counts SET members = members - 1
            WHERE organization_id = OLD.organization_id AND role = coalesce(OLD.role, '')
            AND seen = (OLD.last_seen_at IS NOT NULL);
        INSERT INTO member_counts (organization_id, role, seen, members)
            VALUES (NEW.organization_id, coalesce(NEW.role, ''), NEW.last_seen_at IS NOT NULL, 1)
            ON CONFLICT DO UPDATE SET members = members + 1;
    END;
    """,
    # 17: organization administration: OpenAPI specs and their versions, SAML providers,
    # translations. A spec's source is a URL, a text, or (the demo's) a path the sandbox
    # serves itself; a version keeps the text as fetched and its hash, so a run that fetched
    # the same text stores no new version.
    """
    CREATE TABLE openapi_specs (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        slug TEXT NOT NULL,
        source_url TEXT,
        source_text TEXT,
        source_self TEXT,
        processing_state TEXT NOT NULL DEFAULT 'pending',
        visibility TEXT NOT NULL DEFAULT 'private',
        last_version_id TEXT,
        last_processed_at TEXT,
        last_error_code TEXT,
        last_error TEXT,
        run INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (organization_id, slug)
    );
    CREATE TABLE openapi_spec_versions (
        id TEXT PRIMARY KEY,
        spec_id TEXT NOT NULL REFERENCES openapi_specs(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        url TEXT NOT NULL,
        text_hash TEXT NOT NULL,
        text TEXT NOT NULL,
        document TEXT NOT NULL,
        UNIQUE (spec_id, seq)
    );
    CREATE TABLE saml_providers (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        label TEXT NOT NULL,
        entity_id TEXT,
        certificate TEXT,
        sso_url TEXT,
        default_team_id TEXT REFERENCES teams(id) ON DELETE SET NULL,
        default_role TEXT,
        created_at TEXT NOT NULL
    );
    CREATE INDEX saml_providers_by_org ON saml_providers(organization_id, created_at, id);
    CREATE TABLE translations (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        source_space_id TEXT NOT NULL,
        source_language TEXT NOT NULL,
        language TEXT NOT NULL,
        instructions TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending',
        waiting_reason TEXT,
        result_space_id TEXT,
        result_revision_id TEXT,
        stats TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX translations_by_org ON translations(organization_id, created_at, id);
    """,
    # 18: preview tokens are kept as their SHA-256 digests (the token is answered once, in the
    # preview URL), so a copy of the database opens no site; the stored ones are hashed.
    """
    UPDATE site_previews SET token = sha256_hex(token);
    """,
    # 19: share links keep the SHA-256 digest of their key (`key_digest`), never the key: a
    # link's key is an HMAC of its id under the server's key file (store/server_key.py), so
    # a copy of the database opens no site. A key stored before cannot be derived: it keeps
    # working (its digest) and is kept sealed with the server's key (`sealed_key`), so its
    # URL is still shown. `migrate` runs with `secure_delete` and truncates the log after.
    """
    ALTER TABLE site_share_links ADD COLUMN sealed_key TEXT;
    UPDATE site_share_links
        SET sealed_key = seal_share_key(id, secret), secret = sha256_hex(secret);
    ALTER TABLE site_share_links RENAME COLUMN secret TO key_digest;
    """,
    # 20: a member row carries what the members list shows of its user (email, name, photo),
    # kept by triggers, and the sort orders' covering indexes hold them, so a page of members
    # is one index range with no lookup per member: looking each member's user up by id in
    # `users_for_members` was about half of a page's SQL (1.2 ms of 2.6 ms for 1,000 rows of
    # a 10,000-member organization). A member takes its user's values when added (or moved to
    # another user), and every member of a user takes them when the user changes; the
    # members stored before take them here. A search still reads the user's folded name and
    # email from `users_for_members`.
    f"""
    ALTER TABLE members ADD COLUMN user_email TEXT;
    ALTER TABLE members ADD COLUMN user_name TEXT;
    ALTER TABLE members ADD COLUMN user_photo_url TEXT;
    {_copy_user("1")}
    CREATE TRIGGER members_user_copied_on_insert AFTER INSERT ON members BEGIN
        {_copy_user("rowid = NEW.rowid")}
    END;
    CREATE TRIGGER members_user_copied_on_update AFTER UPDATE OF user_id ON members BEGIN
        {_copy_user("rowid = NEW.rowid")}
    END;
    CREATE TRIGGER users_copied_to_members AFTER UPDATE OF email, display_name, photo_url
        ON users BEGIN
        {_copy_user("user_id = NEW.id")}
    END;
    {_member_sort_indexes(_USER_COPIES)}
    """,
    # 21: the members list's sort indexes also hold each member as the JSON text the list
    # sends (`member_wire`, an expression SQLite keeps in the index with the row and reads
    # from there, not computing it again): a page of 50 read its 11 columns into Python
    # values and wrote them as JSON again on every request (about two thirds of the list's
    # own time). The columns stay in the index, as the text is made of them: an index that
    # holds every column a statement reads is one SQLite never leaves for the table.
    _member_sort_indexes(f"{_USER_COPIES},\n        ({member_wire()})"),
    # 22: a list of comments is in the order of (time posted, rowid), and the index ended with
    # the id after the time, so every page sorted all of its scope's comments first (a temporary
    # B-tree, about half of a two-comment page's SQL). Without the id, the rowid that every
    # index entry ends with follows the time: a page is a range of the index read in order.
    """
    DROP INDEX comments_in_space;
    CREATE INDEX comments_in_space ON comments(space_id, change_request_id, posted_at);
    """,
    # 23: a comment's or reply's body as it is sent (`comments.body.safe_markdown`: its raw
    # HTML escaped) is made when the body is written, not on every read: a body holding a `<`
    # was parsed by markdown-it twice per read (a page of 50 comments, a third of them with
    # one: about 7 ms). NULL when the writer did not make it (no `<`: the body goes out as it
    # is; rows written before, or by a writer that does not know the column: made on read);
    # a body changed without a new `safe_body` loses the one it had.
    """
    ALTER TABLE comments ADD COLUMN safe_body TEXT;
    ALTER TABLE comment_replies ADD COLUMN safe_body TEXT;
    CREATE TRIGGER comments_safe_body_stale AFTER UPDATE OF body ON comments
        WHEN NEW.safe_body IS OLD.safe_body BEGIN
        UPDATE comments SET safe_body = NULL WHERE rowid = NEW.rowid;
    END;
    CREATE TRIGGER comment_replies_safe_body_stale AFTER UPDATE OF body ON comment_replies
        WHEN NEW.safe_body IS OLD.safe_body BEGIN
        UPDATE comment_replies SET safe_body = NULL WHERE rowid = NEW.rowid;
    END;
    """,
    # 24: a comment as the JSON text a list sends (`comment_wire`), made by SQL when anything
    # it shows changes and kept with the row: a page of comments read 27 columns per comment
    # and wrote them as JSON again on every request (with its statement, about two thirds of
    # the list's own time). What it shows: the comment's row, its poster's and resolver's
    # users, its reactions and their users, its replies' count, so a trigger on each writes
    # it anew (from the rows as they are after the write); the three indexes find a user's
    # comments. What only a read knows is left as control characters (`COMMENT_WIRE_*`).
    f"""
    ALTER TABLE comments ADD COLUMN wire TEXT;
    CREATE INDEX comments_by_poster ON comments(posted_by);
    CREATE INDEX comments_by_resolver ON comments(resolved_by) WHERE resolved_by IS NOT NULL;
    CREATE INDEX comment_reactions_by_user ON comment_reactions(user_id);
    {_comment_wire_triggers(_comment_wire_of)}
    {_comment_wire_of("1")}
    """,
    # 25: each space as the JSON text its readers send (`space_wire`, in four pieces), kept
    # in an index with the columns a site's structure reads besides (its organization and
    # title), so a structure reads its site spaces' spaces as text made when each space was
    # written (SQLite remakes an index's expressions on every write to the row, whoever
    # writes it), not as 17 columns a space to write as JSON again.
    f"CREATE INDEX spaces_wire ON spaces(id, organization_id, title, {', '.join(space_wire())});",
    # 26: the spaces list's index (organization, deleted or not, tree order) also holds each
    # space's id and its JSON text (`space_wire`'s four pieces, as `spaces_wire` does), so a
    # page of spaces is one range of the index read as text ready to send: the list read 18
    # columns of every space from its row and wrote them as JSON again on every request
    # (about a third of the list's own time for the demo's seven spaces).
    f"""
    DROP INDEX spaces_in_tree;
    CREATE INDEX spaces_in_tree ON spaces(organization_id, deleted_at, tree_key, id,
        {", ".join(space_wire())});
    """,
    # 27: the comment text's expression (migration 24) written once, in a view its triggers
    # read, rather than in each of its eleven triggers: every connection SQLite opens parses
    # the whole schema, and those triggers were most of it (`_comment_wire_triggers_on_the_view`).
    _comment_wire_triggers_on_the_view(),
)

SCHEMA_VERSION = len(MIGRATIONS)
