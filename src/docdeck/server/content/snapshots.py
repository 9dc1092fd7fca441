"""Revisions as immutable snapshots, stored the way git stores commits.

Every page entry (its metadata), page body (markdown), file entry and file's bytes is an
`object` addressed by the hash of its content, so a revision that changes one page adds one
entry and one body; everything else is shared with the revisions before it. A revision row
lists the entries it changed relative to its `base_id` (a delta) or, when the chain of deltas
behind it would grow past about twice the revision's own size, every entry (a checkpoint).

Revisions never change once written, so a snapshot read once is kept in a small cache keyed
by revision id.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import zlib
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from docdeck.server.ids import from_db, new_id, to_db

HASH_CHARS = 40
CHECKPOINT_SLACK = 64
"""A revision becomes a checkpoint when its chain would hold more than 2 * size + this."""

Entry = dict[str, Any]
Key = tuple[str, str]  # (kind, item id); kinds: "page", "file", "vars"


def object_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:HASH_CHARS]


def encode_entry(entry: Mapping[str, Any]) -> bytes:
    return json.dumps(entry, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


_RAW, _ZLIB = b"\x00", b"\x01"


def _pack(data: bytes) -> bytes:
    """Stored form: zlib-compressed when that is smaller (markdown, JSON), as git stores its
    objects; raw otherwise (PNG, PDF). The hash is always of the content itself."""
    if len(data) > 64:
        packed = zlib.compress(data, 6)
        if len(packed) < len(data):
            return _ZLIB + packed
    return _RAW + data


def _unpack(stored: bytes) -> bytes:
    return zlib.decompress(stored[1:]) if stored[:1] == _ZLIB else stored[1:]


def put_object(conn: sqlite3.Connection, data: bytes) -> str:
    digest = object_hash(data)
    exists = conn.execute("SELECT 1 FROM objects WHERE hash = ?", (digest,)).fetchone()
    if exists is None:
        conn.execute("INSERT INTO objects (hash, data) VALUES (?, ?)", (digest, _pack(data)))
    return digest


def get_object(conn: sqlite3.Connection, digest: str) -> bytes | None:
    row = conn.execute("SELECT data FROM objects WHERE hash = ?", (digest,)).fetchone()
    return None if row is None else _unpack(bytes(row[0]))


def get_text(conn: sqlite3.Connection, digest: str | None) -> str:
    if digest is None:
        return ""
    data = get_object(conn, digest)
    return "" if data is None else data.decode("utf-8")


@dataclass(frozen=True)
class RevisionInfo:
    id: str
    space_id: str
    parents: tuple[str, ...]
    type: str
    created_at: datetime
    message: str | None
    chain_rows: int
    size: int


@dataclass
class Snapshot:
    """One revision's content: page entries, file entries and variables, by id."""

    info: RevisionInfo
    pages: dict[str, Entry]
    files: dict[str, Entry]
    variables: dict[str, Any]
    hashes: dict[Key, str]
    """The object hash of every entry, to tell what a new revision changed."""
    derived: dict[str, Any] = field(default_factory=dict)
    """Values computed from this (immutable) snapshot: the page tree, link analysis."""


def _info(row: sqlite3.Row) -> RevisionInfo:
    return RevisionInfo(
        id=row["id"],
        space_id=row["space_id"],
        parents=tuple(json.loads(row["parents"] or "[]")),
        type=row["type"],
        created_at=from_db(row["created_at"]),
        message=row["message"],
        chain_rows=row["chain_rows"],
        size=row["size"],
    )


class _Cache:
    def __init__(self, capacity: int) -> None:
        self._items: OrderedDict[str, Snapshot] = OrderedDict()
        self._capacity = capacity
        self._lock = threading.Lock()

    def get(self, key: str) -> Snapshot | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: str, value: Snapshot) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._capacity:
                self._items.popitem(last=False)


_cache = _Cache(8)
"""Eight recent revisions: enough for a current one and its parent in several spaces; each
may carry large derived values (a 5,000-page tree encoded, its link analysis)."""


def cached_snapshot(revision_id: str) -> Snapshot | None:
    """The snapshot if it is in memory (what was derived from it can be reused)."""
    return _cache.get(revision_id)


def changed_pages(old: Snapshot, new: Snapshot) -> set[str]:
    """Pages added, removed or whose entry changed between two snapshots."""
    ids = set(old.pages) | set(new.pages)
    return {i for i in ids if old.hashes.get(("page", i)) != new.hashes.get(("page", i))}


DELTA_STEPS = 1_000
"""Revisions walked at most, looking for where two revisions' chains of deltas meet."""


def _listed_between(conn: sqlite3.Connection, old_id: str, new_id: str) -> set[Key] | None:
    """Every key the deltas list from where the two revisions' chains of deltas meet (each
    revision's base, its base's base, ... short of a checkpoint) up to each of them: a key
    whose entry differs between the two is among them. None when the chains do not meet
    within `DELTA_STEPS` revisions."""
    paths: tuple[list[str], list[str]] = ([old_id], [new_id])
    seen: tuple[set[str], set[str]] = ({old_id}, {new_id})
    ends: list[str | None] = [old_id, new_id]
    meet = old_id if old_id in seen[1] else None
    for _ in range(DELTA_STEPS):
        if meet is not None or (ends[0] is None and ends[1] is None):
            break
        for side in (0, 1):
            end = ends[side]
            if end is None:
                continue
            row = conn.execute("SELECT base_id FROM revisions WHERE id = ?", (end,)).fetchone()
            ends[side] = base = None if row is None else row[0]
            if base is None:
                continue
            paths[side].append(base)
            seen[side].add(base)
            if base in seen[1 - side]:
                meet = base
                break
    if meet is None:
        return None
    listed: set[Key] = set()
    for path in paths:
        for revision_id in path[: path.index(meet)] if meet in path else ():
            listed.update(
                (kind, item_id)
                for kind, item_id in conn.execute(
                    "SELECT kind, item_id FROM revision_entries WHERE revision_id = ?",
                    (revision_id,),
                )
            )
    return listed


def changed_keys(conn: sqlite3.Connection, old: Snapshot, new: Snapshot) -> set[Key]:
    """Entries (pages, files, variables) added, removed or changed from `old` to `new`.

    When the two revisions' chains of deltas meet (a change request's revisions and main's
    since its base, a draft's commit and its base), only the entries the deltas since that
    revision list are compared, so the cost follows what changed, not the size of the space;
    otherwise every entry's hash is compared."""
    if old.hashes is new.hashes or old.info.id == new.info.id:
        return set()
    listed = recorded_changes(old, new)
    if listed is None:
        listed = _listed_between(conn, old.info.id, new.info.id)
    if listed is None:
        listed = {k for k, _ in set(old.hashes.items()) ^ set(new.hashes.items())}
    return {k for k in listed if old.hashes.get(k) != new.hashes.get(k)}


def recorded_changes(old: Snapshot, new: Snapshot) -> set[Key] | None:
    """Every key whose entry differs from `old` to `new` (and perhaps a few more), when `new`
    was committed in this process on top of `old`: the delta `commit` wrote. None otherwise."""
    found = new.derived.get("delta")
    if isinstance(found, tuple) and found[0] == old.info.id:
        return set(found[1])
    return None


def revision_info(conn: sqlite3.Connection, revision_id: str) -> RevisionInfo | None:
    row = conn.execute("SELECT * FROM revisions WHERE id = ?", (revision_id,)).fetchone()
    return None if row is None else _info(row)


def load_snapshot(conn: sqlite3.Connection, revision_id: str) -> Snapshot:
    """The content of a revision (KeyError when there is no such revision)."""
    cached = _cache.get(revision_id)
    if cached is not None:
        return cached
    info = revision_info(conn, revision_id)
    if info is None:
        raise KeyError(revision_id)
    rows = conn.execute(
        """WITH RECURSIVE chain(id, base, n) AS (
            SELECT id, base_id, 0 FROM revisions WHERE id = ?
            UNION ALL SELECT r.id, r.base_id, chain.n + 1 FROM revisions r
                JOIN chain ON r.id = chain.base)
        SELECT e.kind, e.item_id, e.object_hash FROM revision_entries e
            JOIN chain c ON e.revision_id = c.id ORDER BY c.n DESC""",
        (revision_id,),
    ).fetchall()
    hashes: dict[Key, str] = {}
    for kind, item_id, digest in rows:
        if digest is None:
            hashes.pop((kind, item_id), None)
        else:
            hashes[(kind, item_id)] = digest
    data = _objects(conn, set(hashes.values()))
    pages: dict[str, Entry] = {}
    files: dict[str, Entry] = {}
    variables: dict[str, Any] = {}
    for (kind, item_id), digest in hashes.items():
        entry = json.loads(data[digest])
        if kind == "page":
            pages[item_id] = entry
        elif kind == "file":
            files[item_id] = entry
        elif kind == "vars":
            variables = entry
    snapshot = Snapshot(info, pages, files, variables, hashes)
    _cache.put(revision_id, snapshot)
    return snapshot


def _objects(conn: sqlite3.Connection, digests: Iterable[str]) -> dict[str, bytes]:
    wanted = list(digests)
    found: dict[str, bytes] = {}
    for start in range(0, len(wanted), 5000):
        chunk = json.dumps(wanted[start : start + 5000])
        for digest, data in conn.execute(
            "SELECT o.hash, o.data FROM objects o JOIN json_each(?) j ON o.hash = j.value",
            (chunk,),
        ):
            found[digest] = _unpack(bytes(data))
    return found


def current_revision_id(conn: sqlite3.Connection, space_id: str) -> str:
    row = conn.execute("SELECT revision_id FROM spaces WHERE id = ?", (space_id,)).fetchone()
    return str(row[0])


def commit(
    conn: sqlite3.Connection,
    *,
    space_id: str,
    base: Snapshot | None,
    pages: Mapping[str, Entry],
    files: Mapping[str, Entry],
    variables: Mapping[str, Any],
    now: datetime,
    type: str = "edits",
    parents: Iterable[str] | None = None,
    message: str | None = None,
    new_objects: Iterable[str] = (),
    make_current: bool = True,
) -> str:
    """Writes a new revision of `space_id` holding exactly `pages`, `files`, `variables`.

    `base` is the revision it is computed from (its first parent); `new_objects` are the
    hashes of bodies and bytes the entries point to, recorded as belonging to the space.
    """
    # Start from the base's hashes and visit only what differs from it: an entry that is
    # still the base's own object is untouched, and removed ids come from one set difference.
    old = base.hashes if base is not None else {}
    entries: dict[Key, str] = dict(old)
    changes: dict[Key, str | None] = {}
    for kind, items, before in (
        ("page", pages, base.pages if base else {}),
        ("file", files, base.files if base else {}),
    ):
        for item_id in before.keys() - items.keys():
            del entries[(kind, item_id)]
            changes[(kind, item_id)] = None
        for item_id, entry in items.items():
            if before.get(item_id) is not entry:
                key = (kind, item_id)
                digest = put_object(conn, encode_entry(entry))
                entries[key] = digest
                if old.get(key) != digest:
                    changes[key] = digest
    entries.pop(("vars", ""), None)
    if variables:
        entries[("vars", "")] = put_object(conn, encode_entry(dict(variables)))
    if old.get(("vars", "")) != entries.get(("vars", "")):
        changes[("vars", "")] = entries.get(("vars", ""))
    size = len(entries)
    chain = (base.info.chain_rows if base is not None else 0) + len(changes)
    checkpoint = base is None or chain > 2 * size + CHECKPOINT_SLACK
    written: Mapping[Key, str | None] = entries if checkpoint else changes
    revision_id = new_id()
    parent_list = list(parents) if parents is not None else ([base.info.id] if base else [])
    conn.execute(
        """INSERT INTO revisions (id, space_id, parent_id, parents, type, created_at, base_id,
            chain_rows, size, message) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        (
            revision_id,
            space_id,
            parent_list[0] if parent_list else None,
            json.dumps(parent_list),
            type,
            to_db(now),
            None if checkpoint or base is None else base.info.id,
            size if checkpoint else chain,
            size,
            message,
        ),
    )
    conn.executemany(
        "INSERT INTO revision_entries (revision_id, kind, item_id, object_hash) VALUES (?,?,?,?)",
        [(revision_id, kind, item_id, digest) for (kind, item_id), digest in written.items()],
    )
    owned = [h for h in changes.values() if h is not None] + list(new_objects)
    conn.executemany(
        "INSERT OR IGNORE INTO space_objects (space_id, hash) VALUES (?, ?)",
        [(space_id, digest) for digest in owned],
    )
    info = RevisionInfo(
        id=revision_id,
        space_id=space_id,
        parents=tuple(parent_list),
        type=type,
        created_at=from_db(to_db(now)),
        message=message,
        chain_rows=size if checkpoint else chain,
        size=size,
    )
    snapshot = Snapshot(info, dict(pages), dict(files), dict(variables), entries)
    if base is not None:
        snapshot.derived["delta"] = (base.info.id, frozenset(changes))
    _cache.put(revision_id, snapshot)
    if make_current:
        conn.execute(
            "UPDATE spaces SET revision_id = ?, updated_at = ? WHERE id = ?",
            (revision_id, to_db(now), space_id),
        )
    return revision_id


def space_owns(conn: sqlite3.Connection, space_id: str, digest: str) -> bool:
    row = conn.execute(
        "SELECT 1 FROM space_objects WHERE space_id = ? AND hash = ?", (space_id, digest)
    ).fetchone()
    return row is not None
