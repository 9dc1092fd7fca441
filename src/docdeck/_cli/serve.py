"""`docdeck serve`: the sandbox API server under uvicorn.

The listening socket is bound here, before uvicorn starts, for two reasons: a
port in use becomes one clear line instead of uvicorn's log-and-exit, and with
`--port 0` the real port is known (uvicorn only logs it). The launcher runs this
command with `--background` (see `docdeck._cli.background`).
"""

from __future__ import annotations

import argparse
import errno
import gc
import ipaddress
import signal
import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from types import FrameType
from typing import Any
from urllib.parse import urlsplit

from docdeck._cli.locations import sandbox_db_path
from docdeck._cli.sandbox_db import check_sandbox_database
from docdeck.cli import EXIT_OK, CLIError

__all__ = ["bind_socket", "format_base_url", "public_url", "run_serve"]


class _Stopped(BaseException):
    """SIGTERM, SIGHUP or SIGINT before the server runs: an exception; `serve` ends, exit 0."""


def _raise_stopped(signum: int, frame: FrameType | None) -> None:
    raise _Stopped


def format_base_url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def public_url(given: str | None, host: str, port: int) -> str:
    """`--public-url` checked (http or https, a host, no query), or the address listened on
    (`host`, `port`: the bound socket's); a wildcard address (0.0.0.0, ::) is not one a client
    can use, so loopback stands in."""
    if given is None:
        if ipaddress.ip_address(host).is_unspecified:
            host = "::1" if ":" in host else "127.0.0.1"
        return format_base_url(host, port)
    parts = urlsplit(given.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise CLIError(f"--public-url: {given!r} is not an http:// or https:// URL with a host")
    if parts.query or parts.fragment or "@" in parts.netloc:
        raise CLIError(f"--public-url: {given!r} must not have a query, fragment or user")
    return given.strip().rstrip("/")


def network_warning(host: str) -> str | None:
    """A warning when the bound address `host` is reachable from other machines."""
    address = ipaddress.ip_address(host)
    if address.is_loopback:
        return None
    return (
        f"docdeck: warning: listening on {address}: the sandbox is reachable from the network,"
        " and anyone who can reach this machine can call its API (with a token) and read its"
        " /app pages (without one). Use --host 127.0.0.1 to keep it local."
    )


def bind_socket(host: str, port: int) -> socket.socket:
    """A listening socket on host:port, or a CLIError saying exactly why not."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        raise CLIError(f"cannot listen on {host!r}: {error.strerror}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as error:
        sock.close()
        where = format_base_url(host, port).removeprefix("http://")
        if error.errno == errno.EADDRINUSE:
            raise CLIError(
                f"port {port} on {host} is already in use; choose another with --port"
            ) from None
        if error.errno == errno.EACCES:
            raise CLIError(f"no permission to listen on {where}; use a port above 1023") from None
        raise CLIError(f"cannot listen on {where}: {error.strerror}") from None
    sock.set_inheritable(False)
    return sock


def _database(path_arg: str | None) -> Path:
    path = Path(path_arg).expanduser() if path_arg else sandbox_db_path()
    try:
        check_sandbox_database(path, may_create=True)
    except ValueError as error:
        raise CLIError(str(error)) from None
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as error:
        raise CLIError(f"cannot create the directory of {path}: {error.strerror}") from None
    return path


def run_serve(args: argparse.Namespace) -> int:
    background = bool(args.background)
    # SIGTERM (a `kill`, `docdeck sandbox stop`), SIGHUP (the terminal closed) and Ctrl-C
    # stop it: at once while it is being built, gracefully once it serves (`_signals_stop`).
    previous = {
        sig: signal.signal(sig, _raise_stopped)
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
    }
    try:
        _serve(args, background=background)
    except (KeyboardInterrupt, _Stopped):
        pass
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if not background:
        print("docdeck: sandbox server stopped", file=sys.stderr)
    return EXIT_OK


def _serve(args: argparse.Namespace, *, background: bool) -> None:
    db_path = _database(args.db)
    host = "127.0.0.1" if background else args.host  # the shared sandbox: loopback only
    with bind_socket(host, 0 if background else args.port) as sock:
        bound_host, port = sock.getsockname()[:2]
        base_url = public_url(None if background else args.public_url, bound_host, port)
        warning = network_warning(bound_host)
        if warning:
            print(warning, file=sys.stderr, flush=True)
        with _no_collections():
            app, accounts, token = _build(args, db_path, base_url, background)
        server = _uvicorn_server(app, args, background)
        _signals_stop(server)
        if background:
            from docdeck._cli.background import run_in_background

            run_in_background(server, sock, db_path, port, token, args.idle_timeout)
            return
        _print_banner(base_url, db_path, accounts)
        _run_until_stopped(server, sock)


@contextmanager
def _no_collections() -> Iterator[None]:
    """No garbage collection while the app is built: what is built then lives as long as the
    server (collecting would only walk it, ~10% of the start), then it is frozen (the
    collector stops walking it on every full collection, which otherwise lands on whichever
    request allocates past the threshold: tens of ms on a list)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
        gc.freeze()
    finally:
        if enabled:
            gc.enable()


def _build(
    args: argparse.Namespace, db_path: Path, base_url: str, background: bool
) -> tuple[Any, list[Any], str]:
    """The app on `db_path` with the demo's people and spaces in it, its accounts, and for a
    background sandbox the token of the first (an admin)."""
    import sqlite3

    from docdeck.server.http.lean_imports import import_fastapi

    import_fastapi()
    from docdeck.server import create_app, ensure_demo, finish_demo, mint_token
    from docdeck.server.store import SchemaTooNewError, ServerKeyError

    try:
        from docdeck.server.content.fetch import ImportPolicy

        policy = ImportPolicy(allow_loopback=bool(getattr(args, "allow_loopback_import", False)))
        app = create_app(
            db_path,
            public_url=base_url,
            import_policy=policy,
            defer_routes=True,
            answer_cache=getattr(args, "answer_cache", True),
        )
        # Without --demo nothing is loaded, but a workspace that holds the demo
        # people still lists them (ensure_demo leaves a non-empty database as it is).
        listed = args.demo or background or _has_organizations(db_path)
        # The demo's pages, change requests and sites load just after start-up, with
        # the routes that read them (`deferred_routes`): the tree comes sooner.
        accounts = ensure_demo(db_path, content_later=True) if listed else []
        # A space's revision and counts come with its content: while it is pending, spaces
        # wait for it (a space read before would name its empty first revision).
        from docdeck.server.demo import demo_content_pending

        db = app.state.sandbox.db
        held = ("/spaces",) if demo_content_pending(db) else ()
        app.state.deferred_routes.run_before(partial(finish_demo, db), holds=held)
        token = mint_token(db_path, accounts[0].email) if background and accounts else ""
    except SchemaTooNewError:
        raise CLIError(
            f"the database {db_path} was written by a newer docdeck; upgrade docdeck "
            "or give another --db path"
        ) from None
    except ServerKeyError as error:
        raise CLIError(str(error)) from None
    except sqlite3.Error as error:
        hint = ""
        if "unable to open" in str(error) or "readonly" in str(error):
            hint = " (check that the file and its directory are writable)"
        raise CLIError(f"cannot use the database {db_path}: {error}{hint}") from None
    if background and not token:
        raise CLIError(f"the sandbox database {db_path} has no demo accounts")
    return app, accounts, token


def _uvicorn_server(app: Any, args: argparse.Namespace, background: bool) -> Any:
    import uvicorn

    return uvicorn.Server(
        uvicorn.Config(
            app,
            log_level="warning" if background else args.log_level,
            access_log=not background,
            timeout_graceful_shutdown=3,
            server_header=False,
        )
    )


def _signals_stop(server: Any) -> None:
    """From here on SIGTERM, SIGHUP and SIGINT ask the server to stop gracefully.

    Raising from a signal handler (as before the server exists) is lost once the
    event loop runs: uvloop calls Python's handlers from a callback and only logs
    what they raise, so a stop would be ignored. uvicorn puts its own handlers on
    SIGTERM and SIGINT while it serves, puts these back after and raises the signal
    it caught again: setting `should_exit` twice is harmless, and the process ends
    by returning from `serve`, through every `finally` on the way.
    """

    def stop(_sig: int, _frame: FrameType | None) -> None:
        server.should_exit = True

    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, stop)


def _has_organizations(db_path: Path) -> bool:
    import sqlite3

    conn = sqlite3.connect(f"{db_path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return bool(conn.execute("SELECT EXISTS (SELECT 1 FROM organizations)").fetchone()[0])
    finally:
        conn.close()


def _run_until_stopped(server: Any, sock: socket.socket) -> None:
    import asyncio

    # The event loop uvicorn's own `run` would use: uvloop when installed (`loop="auto"`).
    with asyncio.Runner(loop_factory=server.config.get_loop_factory()) as runner:
        runner.run(server.serve(sockets=[sock]))


def _print_banner(base_url: str, db_path: Path, accounts: list[Any]) -> None:
    lines = [f"docdeck sandbox API at {base_url}/v1  (database: {db_path})"]
    if accounts:
        width = max(len(account.role or "guest") for account in accounts)
        lines.append("Demo accounts:")
        lines += [
            f"  {(account.role or 'guest'):<{width}}  {account.email}  ({account.display_name})"
            for account in accounts
        ]
    else:
        lines.append("(--demo loads the demo workspace into an empty database)")
    lines.append(f"Get a token with: docdeck token create --db {db_path} --email EMAIL")
    lines.append("Press Ctrl-C to stop.")
    print("\n".join(lines), flush=True)
