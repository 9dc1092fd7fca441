"""Whether a `--db` path may be a sandbox database: the CLI's check, with sqlite3.

Apart from `docdeck._cli.locations` because `docdeck.config` (which the TUI uses
to save a theme) imports that module, and the TUI must never load sqlite3 (the
layering contract "TUI never touches the server" in pyproject.toml).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

__all__ = ["check_sandbox_database"]


def check_sandbox_database(path: Path, *, may_create: bool) -> None:
    """Raise ValueError saying why `path` cannot be a sandbox database; read-only.

    Opening a path with the server's store would create or migrate it, so a typo
    in `--db` could grow docdeck's tables inside another program's SQLite file.
    An empty file is fine (SQLite treats it as a new database).
    """
    if path.is_dir():
        raise ValueError(f"--db {path} is a directory; give a database file path")
    missing = f"no sandbox database at {path} (create one with: docdeck serve --demo --db {path})"
    if not path.exists():
        if may_create:
            return
        raise ValueError(missing)
    if not path.is_file():
        raise ValueError(f"--db {path} is not a regular file; give a database file path")
    try:
        if path.stat().st_size == 0:
            if may_create:
                return
            raise ValueError(f"{missing}; {path} is an empty file")
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            tables = {
                row[0]
                for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
        finally:
            conn.close()
    except OSError as error:
        raise ValueError(f"cannot use the database {path}: {error.strerror}") from None
    except sqlite3.OperationalError as error:
        raise ValueError(
            f"cannot use the database {path}: {error} "
            "(check that the file and its directory are readable and writable)"
        ) from None
    except sqlite3.Error as error:
        raise ValueError(f"{path} is not a usable sandbox database: {error}") from None
    if tables and "users" not in tables:
        raise ValueError(
            f"{path} is an SQLite database of another program (no docdeck tables); "
            "give another --db path"
        )
