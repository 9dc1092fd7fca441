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
from docdeck.server.services.content.fetch import ImportPolicy
from docdeck.server.store import Database

DEFAULT_PUBLIC_URL = "http://127.0.0.1:8080"


def create_app(
    db_path: str | Path,
    *,
    clock: Callable[[], datetime] | None = None,
    public_url: str = DEFAULT_PUBLIC_URL,
    import_policy: ImportPolicy | None = None,
) -> FastAPI:
    """The v1 API on the SQLite file at `db_path` (created and migrated now, so the app works
    without lifespan events, e.g. under `httpx.ASGITransport`). `clock` returns aware UTC
    datetimes; tests pass one to move time. `public_url` is where clients reach the server
    (scheme, host, port, no path): every `urls` value is built from it, never from the
    request's `Host` header, which any client can set. `import_policy` bounds content imports
    from websites; only `ImportPolicy(allow_loopback=True)` lets them reach 127.0.0.1."""
    from docdeck.server.asgi import RequestGuard
    from docdeck.server.openapi import install_openapi
    from docdeck.server.routers import (
        app_pages,
        change_request_comments,
        change_request_content,
        change_request_reviews,
        change_requests,
        collections,
        comments,
        content,
        content_writes,
        files,
        members,
        orgs,
        published_pages,
        revisions,
        site_customization,
        site_publishing,
        site_redirects,
        site_sections,
        site_spaces,
        sites,
        spaces,
        teams,
    )

    now = clock or utc_now
    db = Database(db_path)
    app = FastAPI(
        title="docdeck sandbox",
        version="0.1.0",
        description="A local implementation of the documentation platform's v1 API.",
    )
    app.state.sandbox = Sandbox(
        db=db, clock=now, purger=Purger(db, now), public_url=public_url.rstrip("/")
    )
    app.state.import_policy = import_policy or ImportPolicy()
    install_error_handlers(app)
    app.add_middleware(RequestIntake)
    for module in (
        orgs,
        members,
        teams,
        collections,
        spaces,
        content,
        content_writes,
        revisions,
        change_requests,
        change_request_content,
        change_request_reviews,
        comments,
        change_request_comments,
        files,
        sites,
        site_sections,
        site_spaces,
        site_publishing,
        site_redirects,
        site_customization,
        published_pages,
        app_pages,
    ):
        # The routers carry no prefix or dependencies of their own, so their routes are added
        # as they are: `app.routes` then lists every endpoint (FastAPI >= 0.16x would otherwise
        # nest them in lazily resolved included-router entries).
        app.router.routes.extend(module.router.routes)
    install_openapi(app)
    app.add_middleware(RequestGuard)
    app.router.add_event_handler("shutdown", db.close)
    return app
