"""The sandbox's SQLite store.

Lazy, like `docdeck.server`: `docdeck.server.store.schema` alone must stay cheap to import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from docdeck.server.store.db import Database, SchemaTooNewError, migrate
    from docdeck.server.store.server_key import ServerKeyError

__all__ = ["Database", "SchemaTooNewError", "ServerKeyError", "migrate"]


def __getattr__(name: str) -> Any:
    if name == "ServerKeyError":
        from docdeck.server.store import server_key

        return server_key.ServerKeyError
    if name in __all__:
        from docdeck.server.store import db

        return getattr(db, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
