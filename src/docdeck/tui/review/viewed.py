"""Viewed marks: the changed pages a reviewer has marked read, kept on this machine.

A mark is kept per change request and page, with the revision it was made on and a digest of
the page's markdown then: it still holds at a later revision when the page's markdown is the
same (the author changed other pages), and it lapses, shown as changed since viewed, when
the page changed. The file is in the app's data directory (`DOCDECK_DATA_DIR`, beside the
sandbox's database: marks are the reviewer's, not a cache to rebuild), named as the
organization tree's first view is, one per account (kind, name and a digest of the base
URL; no token), written 0600 and atomically, a failure silent (losing it loses only marks).
With no first view (`remember_first_view = false`) the marks last for the session.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from docdeck._cli.locations import data_dir, write_private

__all__ = ["Mark", "ViewedMarks", "digest", "viewed_path"]

FORMAT = 1


def digest(markdown: str) -> str:
    return hashlib.sha256(markdown.encode()).hexdigest()[:20]


def viewed_path(first_view_path: str | None) -> Path | None:
    """The marks file of the account whose first view is at `first_view_path`."""
    if first_view_path is None:
        return None
    return data_dir() / "viewed" / Path(first_view_path).name


@dataclass(frozen=True)
class Mark:
    revision: str
    digest: str


class ViewedMarks:
    """The session's marks (`Session.cache(ViewedMarks)`), read from `use(path)`'s file."""

    def __init__(self) -> None:
        self.path: Path | None = None
        self._marks: dict[str, dict[str, Mark]] = {}
        self._used = False

    def use(self, path: Path | None) -> None:
        if self._used:
            return
        self._used = True
        self.path = path
        if path is None:
            return
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or data.get("format") != FORMAT:
                return
            for key, pages in dict(data.get("marks", {})).items():
                self._marks[str(key)] = {
                    str(page): Mark(str(mark[0]), str(mark[1])) for page, mark in pages.items()
                }
        except (OSError, ValueError, TypeError, IndexError, AttributeError):
            self._marks = {}

    def of(self, space_id: str, change_request_id: str) -> dict[str, Mark]:
        return dict(self._marks.get(f"{space_id}/{change_request_id}", {}))

    def mark(self, space_id: str, change_request_id: str, page_id: str, mark: Mark) -> None:
        self._marks.setdefault(f"{space_id}/{change_request_id}", {})[page_id] = mark
        self._save()

    def unmark(self, space_id: str, change_request_id: str, page_id: str) -> None:
        pages = self._marks.get(f"{space_id}/{change_request_id}", {})
        pages.pop(page_id, None)
        self._save()

    def _save(self) -> None:
        if self.path is None:
            return
        marks = {
            key: {page: [mark.revision, mark.digest] for page, mark in pages.items()}
            for key, pages in self._marks.items()
            if pages
        }
        text = json.dumps({"format": FORMAT, "marks": marks})
        with contextlib.suppress(OSError):
            write_private(self.path, text)
