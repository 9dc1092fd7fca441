"""`docdeck token create`: a sandbox API token for scripts and curl."""

from __future__ import annotations

import argparse
from pathlib import Path

from docdeck._cli.locations import sandbox_db_path
from docdeck.cli import EXIT_OK, CLIError

__all__ = ["run_token_create"]


def run_token_create(args: argparse.Namespace) -> int:
    db_path = Path(args.db).expanduser() if args.db else sandbox_db_path()
    # Checked here because opening a missing path would silently create an empty database.
    if not db_path.is_file():
        raise CLIError(
            f"no sandbox database at {db_path} "
            f"(create one with: docdeck serve --demo --db {db_path})"
        )
    import sqlite3

    from docdeck.server import UnknownUserError, mint_token

    try:
        token = mint_token(db_path, args.email)
    except UnknownUserError:
        raise CLIError(f"no user with email {args.email!r} in {db_path}") from None
    except sqlite3.DatabaseError as error:
        raise CLIError(f"{db_path} is not a usable sandbox database: {error}") from None
    print(token)
    return EXIT_OK
