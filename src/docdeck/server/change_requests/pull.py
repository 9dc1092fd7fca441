"""Update (pull main into a change request) and merge (the change request into main)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from docdeck.server.change_requests.blocks import has_markers
from docdeck.server.change_requests.merge import Merged, merge_snapshots
from docdeck.server.change_requests.service import (
    Actor,
    ChangeRequestAccess,
    recount,
    require_edit,
    require_editable,
)
from docdeck.server.content.edits import Draft
from docdeck.server.content.snapshots import (
    Snapshot,
    changed_keys,
    get_text,
    load_snapshot,
)
from docdeck.server.errors import bad_request
from docdeck.server.ids import to_db


@dataclass(frozen=True)
class Outcome:
    revision: str
    conflicts: bool


def _write(draft: Draft, merged: Merged) -> None:
    draft.pages = merged.pages
    draft.files = merged.files
    draft.variables = merged.variables
    for page_id, text in merged.bodies.items():
        if page_id in draft.pages:
            draft.set_markdown(page_id, text)


def update(conn: sqlite3.Connection, ctx: Actor, cr: ChangeRequestAccess) -> Outcome:
    require_edit(cr.space, "updating a change request")
    require_editable(cr, "updating")
    main_id = str(cr.space.row["revision_id"])
    if main_id == cr.base:
        return Outcome(str(cr.row["revision_id"]), False)
    stamp = to_db(ctx.now())
    if cr.row["revision_id"] == cr.base:  # nothing authored yet: take main as it is
        conn.execute(
            "UPDATE change_requests SET revision_id = ?, revision_merged_ancestor = ?,"
            " updated_at = ? WHERE id = ?",
            (main_id, main_id, stamp, cr.id),
        )
        return Outcome(main_id, False)
    base, ours, main = (load_snapshot(conn, r) for r in (cr.base, cr.row["revision_id"], main_id))
    merged = merge_snapshots(
        conn, base, ours, main, onto=ours, number=cr.row["number"], keep_cr=False
    )
    draft = Draft(conn, cr.space.row["id"], ctx.now(), base_revision=ours.info.id)
    _write(draft, merged)
    revision = draft.commit(
        type="update",
        parents=[ours.info.id, main_id],
        message=f"Update change request #{cr.row['number']} from main",
        make_current=False,
    )
    conn.execute(
        "UPDATE change_requests SET revision_id = ?, revision_merged_ancestor = ?,"
        " updated_at = ? WHERE id = ?",
        (revision, main_id, stamp, cr.id),
    )
    return Outcome(revision, bool(merged.conflicts))


def _marked_pages(conn: sqlite3.Connection, base: Snapshot, ours: Snapshot) -> list[str]:
    titles = []
    changed = {item_id for kind, item_id in changed_keys(conn, base, ours) if kind == "page"}
    for page_id in sorted(changed):
        entry = ours.pages.get(page_id)
        if entry and entry.get("body") and has_markers(get_text(conn, entry["body"])):
            titles.append(f"{entry['title']!r} ({page_id})")
    return titles


def merge(conn: sqlite3.Connection, ctx: Actor, cr: ChangeRequestAccess) -> Outcome:
    require_edit(cr.space, "merging a change request")
    number = cr.row["number"]
    if cr.row["status"] != "open":
        raise bad_request(
            f"change request #{number} is {cr.row['status']}; only an open one merges"
        )
    require_editable(cr, "merging")
    if cr.space.row["edit_mode"] == "locked":
        raise bad_request("the space is locked (editMode: locked); unlock it to merge into it")
    main_id = str(cr.space.row["revision_id"])
    base, ours, main = (load_snapshot(conn, r) for r in (cr.base, cr.row["revision_id"], main_id))
    marked = _marked_pages(conn, base, ours)
    if marked:
        raise bad_request(
            f"change request #{number} still holds conflict markers in pages: "
            f"{', '.join(marked)}; resolve them by authoring, then merge"
        )
    merged = merge_snapshots(conn, base, ours, main, onto=main, number=number, keep_cr=True)
    draft = Draft(conn, cr.space.row["id"], ctx.now())
    _write(draft, merged)
    subject = cr.row["subject"]
    revision = draft.commit(
        type="merge",
        parents=[main_id, ours.info.id],
        message=f"Merge change request #{number}" + (f": {subject}" if subject else ""),
    )
    stamp = to_db(ctx.now())
    conn.execute(
        "UPDATE change_requests SET status = 'merged', revision_merged = ?, merged_by = ?,"
        " merged_at = ?, updated_at = ? WHERE id = ?",
        (revision, ctx.caller.user_id, stamp, stamp, cr.id),
    )
    recount(conn, cr.space.row["id"])
    return Outcome(revision, bool(merged.conflicts))
