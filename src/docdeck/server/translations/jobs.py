"""Running a translation: every page of the source space's current revision through the
translator, into a result space (made on the first run, a new revision on each later one).

A run happens in a daemon thread, off the request: `running` while it translates (outside
any transaction: a page may take the translator seconds), then one transaction writes the
result revision, `stats` and `completed`. A page that fails ends the run: the translation
goes back to `pending` with the reason in `waiting_reason` (the platform documents no failed
state)."""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from docdeck.server.ids import to_db
from docdeck.server.store import Database
from docdeck.server.translations.translator import Translator, TranslatorError

log = logging.getLogger(__name__)

RUNS_AT_ONCE = threading.BoundedSemaphore(1)


@dataclass(frozen=True)
class TranslationJob:
    db: Database
    clock: Callable[[], datetime]
    translation_id: str
    translator: Translator


def instructions_text(stored: str) -> str:
    """The instructions document's text, for a translator that reads plain words."""
    words: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("object") == "leaf" and isinstance(node.get("text"), str):
                words.append(node["text"])
            for child in node.get("nodes", []) or []:
                walk(child)
            if node.get("object") == "block":
                words.append("\n")
        elif isinstance(node, list):
            for child in node:
                walk(child)

    walk(json.loads(stored))
    return "".join(words).strip()


def _ordered_pages(pages: dict[str, dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """Parents before children, siblings in order."""
    children: dict[str | None, list[str]] = {}
    for page_id, entry in pages.items():
        children.setdefault(entry.get("parent"), []).append(page_id)
    out: list[tuple[str, dict[str, Any]]] = []
    stack = sorted(children.get(None, []), key=lambda i: pages[i]["position"], reverse=True)
    while stack:
        page_id = stack.pop()
        out.append((page_id, pages[page_id]))
        kids = sorted(children.get(page_id, []), key=lambda i: pages[i]["position"], reverse=True)
        stack.extend(kids)
    return out


def _set(conn: sqlite3.Connection, job: TranslationJob, **values: Any) -> None:
    assignments = ", ".join(f"{column} = ?" for column in values)
    conn.execute(
        f"UPDATE translations SET {assignments}, updated_at = ? WHERE id = ?",
        (*values.values(), to_db(job.clock()), job.translation_id),
    )


def run(job: TranslationJob) -> None:
    from docdeck.server.content.snapshots import get_object, load_snapshot

    with job.db.write() as conn:
        row = conn.execute(
            "SELECT t.*, s.revision_id, s.title AS space_title, s.parent_id FROM translations t"
            " JOIN spaces s ON s.id = t.source_space_id WHERE t.id = ?",
            (job.translation_id,),
        ).fetchone()
        if row is None or row["status"] == "running":
            return
        _set(conn, job, status="running", waiting_reason=None)
        snapshot = load_snapshot(conn, row["revision_id"])
        bodies = {
            page_id: (get_object(conn, entry["body"]) or b"").decode("utf-8", "replace")
            for page_id, entry in snapshot.pages.items()
            if entry.get("type") == "document" and entry.get("body")
        }
    started = time.monotonic()
    instructions = instructions_text(row["instructions"])
    translated: dict[str, tuple[str, str]] = {}
    try:
        for page_id, entry in _ordered_pages(snapshot.pages):
            if page_id in bodies:
                title = (
                    job.translator.translate(
                        entry["title"], row["source_language"], row["language"], instructions
                    ).strip()
                    or entry["title"]
                )
                markdown = job.translator.translate(
                    bodies[page_id], row["source_language"], row["language"], instructions
                )
                translated[page_id] = (title[:255], markdown)
    except TranslatorError as error:
        with job.db.write() as conn:
            _set(conn, job, status="pending", waiting_reason=f"the last run failed: {error}")
        return
    _write_result(job, row, snapshot.pages, translated, words_of(bodies), started)


def words_of(bodies: dict[str, str]) -> int:
    return sum(len(text.split()) for text in bodies.values())


def _write_result(
    job: TranslationJob,
    row: sqlite3.Row,
    pages: dict[str, dict[str, Any]],
    translated: dict[str, tuple[str, str]],
    words: int,
    started: float,
) -> None:
    from docdeck.server.content.edits import Draft
    from docdeck.server.spaces.ordering import end_position
    from docdeck.server.spaces.service import insert_space

    with job.db.write() as conn:
        current = conn.execute(
            "SELECT * FROM translations WHERE id = ?", (job.translation_id,)
        ).fetchone()
        if current is None:
            return  # deleted while it ran
        now = job.clock()
        space_id = current["result_space_id"]
        alive = (
            space_id is not None
            and conn.execute(
                "SELECT 1 FROM spaces WHERE id = ? AND deleted_at IS NULL", (space_id,)
            ).fetchone()
        )
        if not alive:
            org_id = current["organization_id"]
            space_id = insert_space(
                conn,
                org_id=org_id,
                now=now,
                title=f"{row['space_title']} ({row['language']})"[:255],
                parent=row["parent_id"],
                position=end_position(conn, org_id, row["parent_id"]),
            )
        draft = Draft(conn, space_id, now)
        for page_id in list(draft.pages):
            draft.pages.pop(page_id)
        mapped: dict[str, str] = {}
        for page_id, entry in _ordered_pages(pages):
            if page_id not in translated:
                continue
            parent = entry.get("parent")
            title, markdown = translated[page_id]
            mapped[page_id] = draft.add_page(
                title, parent=mapped.get(parent) if parent else None, markdown=markdown
            )
        revision = draft.commit(message=f"Translated into {row['language']}")
        stats = json.loads(current["stats"] or "{}")
        duration = round(time.monotonic() - started)
        stats = {
            "runs": stats.get("runs", 0) + 1,
            "totalWords": stats.get("totalWords", 0) + words,
            "totalPages": len(translated),
            "totalDuration": stats.get("totalDuration", 0) + duration,
            "latestRunDuration": duration,
            "latestPages": len(translated),
            "latestWords": words,
        }
        _set(
            conn,
            job,
            status="completed",
            waiting_reason=None,
            result_space_id=space_id,
            result_revision_id=revision,
            stats=json.dumps(stats),
        )


def _guarded(job: TranslationJob) -> None:
    with RUNS_AT_ONCE:
        try:
            run(job)
        except sqlite3.ProgrammingError:
            pass  # the database was closed under the run (the server stopped)
        except Exception as error:
            log.exception("translation %s failed", job.translation_id)
            try:
                with job.db.write() as conn:
                    _set(
                        conn, job, status="pending", waiting_reason=f"the last run failed: {error}"
                    )
            except Exception:
                log.exception("could not record the failure of translation %s", job.translation_id)


def start(job: TranslationJob) -> None:
    name = f"translation-{job.translation_id}"
    threading.Thread(target=_guarded, args=(job,), name=name, daemon=True).start()
