"""`docdeck token create`: a sandbox API token for scripts and curl."""

from __future__ import annotations

import argparse
from pathlib import Path

from docdeck._cli.locations import sandbox_db_path
from docdeck._cli.sandbox_db import check_sandbox_database
from docdeck.cli import EXIT_OK, CLIError

__all__ = ["run_token_create"]


def run_token_create(args: argparse.Namespace) -> int:
    db_path = Path(args.db).expanduser() if args.db else sandbox_db_path()
    # Checked first because opening a path with the store creates or migrates it.
    try:
        check_sandbox_database(db_path, may_create=False)
    except ValueError as error:
        raise CLIError(str(error)) from None
    import sqlite3

    from docdeck.server import UnknownUserError, mint_token
    from docdeck.server.store import SchemaTooNewError, ServerKeyError

    try:
        token = mint_token(db_path, args.email)
    except UnknownUserError:
        raise CLIError(f"no user with email {args.email!r} in {db_path}") from None
    except SchemaTooNewError:
        raise CLIError(
            f"{db_path} was written by a newer docdeck; upgrade docdeck to use it"
        ) from None
    except ServerKeyError as error:
        raise CLIError(str(error)) from None
    except sqlite3.DatabaseError as error:
        raise CLIError(f"{db_path} is not a usable sandbox database: {error}") from None
    print(token, flush=True)
    return EXIT_OK
