"""The sandbox's SQLite store."""

from docdeck.server.store.db import Database, SchemaTooNewError, migrate

__all__ = ["Database", "SchemaTooNewError", "migrate"]
