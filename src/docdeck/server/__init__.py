"""The sandbox server: a local implementation of the v1 API on SQLite.

Every name is imported lazily: the launcher reads `docdeck.server.store.schema`
on the path to the first frame to know whether a running sandbox speaks this
schema, and must not pay for the models (pydantic) or FastAPI to do so.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from docdeck.server.named_modules import LAZY_HOMES as _HOMES

if TYPE_CHECKING:
    from docdeck.server.app import create_app
    from docdeck.server.demo import DemoAccount, add_bulk_spaces, ensure_demo, finish_demo
    from docdeck.server.http.auth import UnknownUserError, mint_token

__all__ = [
    "DemoAccount",
    "UnknownUserError",
    "add_bulk_spaces",
    "create_app",
    "ensure_demo",
    "finish_demo",
    "mint_token",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
