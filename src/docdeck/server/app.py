"""The sandbox's FastAPI application factory."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from fastapi import FastAPI

from docdeck.server.content.fetch import ImportPolicy
from docdeck.server.http.context import Purger, Sandbox
from docdeck.server.http.deferred_routes import DeferredRoutes, LoadDeferredRoutes, router_routes
from docdeck.server.http.error_handlers import install_error_handlers
from docdeck.server.http.intake import RequestIntake
from docdeck.server.ids import utc_now
from docdeck.server.named_modules import FIRST_ROUTERS, LATER_ROUTERS
from docdeck.server.store import Database

DEFAULT_PUBLIC_URL = "http://127.0.0.1:8080"


def create_app(
    db_path: str | Path,
    *,
    clock: Callable[[], datetime] | None = None,
    public_url: str = DEFAULT_PUBLIC_URL,
    import_policy: ImportPolicy | None = None,
    defer_routes: bool = False,
    answer_cache: bool = True,
) -> FastAPI:
    """The v1 API on the SQLite file at `db_path` (created and migrated now, so the app works
    without lifespan events, e.g. under `httpx.ASGITransport`). `clock` returns aware UTC
    datetimes; tests pass one to move time. `public_url` is where clients reach the server
    (scheme, host, port, no path): every `urls` value is built from it, never from the
    request's `Host` header, which any client can set. `import_policy` bounds content imports
    from websites; only `ImportPolicy(allow_loopback=True)` lets them reach 127.0.0.1.
    `defer_routes` registers only the organization tree's routes now and the others just
    after start-up (`deferred_routes`): `docdeck serve` uses it to be ready sooner.
    `answer_cache` answers a repeated GET from the answer kept while the database has not
    changed (`answer_cache`)."""
    from docdeck.server.http.access_log import install_access_log_redaction
    from docdeck.server.http.answer_cache import CountedClock
    from docdeck.server.http.asgi import RequestGuard
    from docdeck.server.http.fast_lane import install_fast_lane
    from docdeck.server.http.openapi import install_openapi
    from docdeck.server.http.routing import install_route_index

    now = clock or utc_now
    install_access_log_redaction()
    db = Database(db_path)
    app = FastAPI(
        title="docdeck sandbox",
        version="0.1.0",
        description="A local implementation of the documentation platform's v1 API.",
        # FastAPI's native OpenTelemetry hooks look up the global providers on every request
        # (~20 us); the sandbox exports no telemetry.
        telemetry={"tracing": False, "metrics": False, "logs": False, "operation_spans": False},
    )
    # Starlette would answer a path with a trailing slash with a 307 to `http://<Host>/...`:
    # the Host header is the client's to set. API paths answer 404 in the error shape, and the
    # published pages redirect themselves, from `public_url` (published/routes.py).
    app.router.redirect_slashes = False
    # The handlers' clock counts its reads (an answer that read it is never kept); the
    # purger's own reads do not count.
    app.state.sandbox = Sandbox(
        db=db, clock=CountedClock(now), purger=Purger(db, now), public_url=public_url.rstrip("/")
    )
    app.state.import_policy = import_policy or ImportPolicy()
    install_error_handlers(app)
    first = router_routes(FIRST_ROUTERS)
    # The routers carry no prefix or dependencies of their own, so their routes are added
    # as they are: `app.routes` then lists every endpoint (FastAPI >= 0.16x would otherwise
    # nest them in lazily resolved included-router entries).
    app.router.routes.extend(first)
    if defer_routes:
        deferred = DeferredRoutes(app, LATER_ROUTERS, first)
        app.state.deferred_routes = deferred
        app.add_middleware(LoadDeferredRoutes, deferred=deferred)

        async def warm() -> None:
            app.state.warming = asyncio.create_task(deferred.load_soon())

        app.router.add_event_handler("startup", warm)
    else:
        app.router.routes.extend(router_routes(LATER_ROUTERS))
    app.add_middleware(RequestIntake)
    install_openapi(app)
    install_route_index(app)
    app.add_middleware(RequestGuard)
    install_fast_lane(app, answer_cache=answer_cache)
    app.router.add_event_handler("shutdown", db.close)
    return app
