"""The sandbox's FastAPI application factory."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from fastapi import FastAPI

from docdeck.server.context import Purger, Sandbox
from docdeck.server.errors import install_error_handlers
from docdeck.server.ids import utc_now
from docdeck.server.intake import RequestIntake
from docdeck.server.store import Database

DEFAULT_PUBLIC_URL = "http://127.0.0.1:8080"


def create_app(
    db_path: str | Path,
    *,
    clock: Callable[[], datetime] | None = None,
    public_url: str = DEFAULT_PUBLIC_URL,
) -> FastAPI:
    """The v1 API on the SQLite file at `db_path` (created and migrated now, so the app works
    without lifespan events, e.g. under `httpx.ASGITransport`). `clock` returns aware UTC
    datetimes; tests pass one to move time. `public_url` is where clients reach the server
    (scheme, host, port, no path): every `urls` value is built from it, never from the
    request's `Host` header, which any client can set."""
    from docdeck.server.asgi import RequestGuard
    from docdeck.server.openapi import install_openapi
    from docdeck.server.routers import (
        app_pages,
        collections,
        members,
        orgs,
        spaces,
        teams,
    )
    from docdeck.server.routing import install_route_index

    now = clock or utc_now
    db = Database(db_path)
    app = FastAPI(
        title="docdeck sandbox",
        version="0.1.0",
        description="A local implementation of the documentation platform's v1 API.",
        # FastAPI's native OpenTelemetry hooks look up the global providers on every request
        # (~20 us); the sandbox exports no telemetry.
        telemetry={"tracing": False, "metrics": False, "logs": False, "operation_spans": False},
    )
    app.state.sandbox = Sandbox(
        db=db, clock=now, purger=Purger(db, now), public_url=public_url.rstrip("/")
    )
    install_error_handlers(app)
    app.add_middleware(RequestIntake)
    for module in (orgs, members, teams, collections, spaces, app_pages):
        # The routers carry no prefix or dependencies of their own, so their routes are added
        # as they are: `app.routes` then lists every endpoint (FastAPI >= 0.16x would otherwise
        # nest them in lazily resolved included-router entries).
        app.router.routes.extend(module.router.routes)
    install_openapi(app)
    install_route_index(app)
    app.add_middleware(RequestGuard)
    app.router.add_event_handler("shutdown", db.close)
    return app
