"""The sandbox server: a local implementation of the v1 API on SQLite.

`create_app` is imported lazily so that `ensure_demo`/`mint_token` (used by the launcher
before the server starts) do not pay for importing FastAPI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docdeck.server.auth import UnknownUserError, mint_token
from docdeck.server.demo import DemoAccount, add_bulk_spaces, ensure_demo

if TYPE_CHECKING:
    from docdeck.server.app import create_app

__all__ = [
    "DemoAccount",
    "UnknownUserError",
    "add_bulk_spaces",
    "create_app",
    "ensure_demo",
    "mint_token",
]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from docdeck.server.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
