"""The `docdeck` command: argument parsing and the one place errors become exit codes.

Startup must stay fast (`docdeck --help`, and the TUI's cold start), so this
module imports only the standard library; each command imports what it needs
(Textual, uvicorn, the server) when it runs.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, NoReturn

from docdeck import __version__

if TYPE_CHECKING:  # imported when there are arguments to parse: not by `docdeck` alone
    import argparse

__all__ = [
    "EXIT_ERROR",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "CLIError",
    "main",
    "run",
]

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_ERROR = 2
EXIT_INTERRUPTED = 130
DEBUG_ENV = "DOCDECK_DEBUG"

Handler = Callable[["argparse.Namespace"], int]


class CLIError(Exception):
    """A user or environment error: shown as one line, exit code 2."""


def _parser(prog: str, description: str, epilog: str) -> argparse.ArgumentParser:
    import argparse

    class _Parser(argparse.ArgumentParser):
        """argparse, but a usage error is one line (argparse prints usage plus the message)."""

        def error(self, message: str) -> NoReturn:
            said = _printable(message)
            self.exit(EXIT_ERROR, f"{self.prog}: error: {said} (see '{self.prog} --help')\n")

    return _Parser(prog=prog, description=description, epilog=epilog)


def _port(text: str) -> int:
    import argparse

    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"port {text!r} is not a number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port {port} is outside 0-65535")
    return port


DEFAULT_IDLE_S = 15 * 60.0


def _seconds(text: str) -> float:
    import argparse

    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not seconds > 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be more than 0 seconds")
    return seconds


def _add_account_options(parser: argparse.ArgumentParser, *, suppress_defaults: bool) -> None:
    # The same options on `docdeck` and `docdeck tui`; SUPPRESS stops the subcommand's
    # defaults from overwriting values given before it.
    import argparse

    default = argparse.SUPPRESS if suppress_defaults else None
    group = parser.add_argument_group("account (first match wins)")
    group.add_argument(
        "--base-url", default=default, metavar="URL", help="API base URL (needs --token)"
    )
    group.add_argument(
        "--token",
        default=default,
        metavar="TOKEN",
        help="API token (visible in shell history: prefer DOCDECK_TOKEN or a profile)",
    )
    group.add_argument(
        "--profile", default=default, metavar="NAME", help="a profile from config.toml"
    )


def build_parser() -> argparse.ArgumentParser:
    import argparse

    parser = _parser(
        prog="docdeck",
        description=(
            "Browse and manage a documentation platform from the terminal. With no account "
            "configured, opens a local sandbox with a demo workspace."
        ),
        epilog=(
            "Account resolution: --base-url/--token, then DOCDECK_BASE_URL/DOCDECK_TOKEN, "
            "then --profile or the default profile, otherwise the embedded sandbox."
        ),
    )
    parser.add_argument("--version", action="version", version=f"docdeck {__version__}")
    _add_account_options(parser, suppress_defaults=False)
    parser.set_defaults(handler=_run_tui)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")

    tui = commands.add_parser("tui", help="open the terminal UI (the default)")
    _add_account_options(tui, suppress_defaults=True)
    tui.set_defaults(handler=_run_tui)

    opener = commands.add_parser(
        "open",
        help="open the terminal UI at a space or page, from an app URL or a space id",
    )
    opener.add_argument(
        "target",
        metavar="URL-OR-ID",
        help="an app URL (urls.app of a space, page or revision) or a space id",
    )
    _add_account_options(opener, suppress_defaults=True)
    opener.set_defaults(handler=_run_open)

    serve = commands.add_parser("serve", help="run the sandbox API server")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=_port, default=8080, help="port, 0 for any free one (8080)")
    serve.add_argument(
        "--public-url",
        metavar="URL",
        help="where clients reach the server, e.g. behind a proxy: the base of every `urls` "
        "value in responses (default: the address it listens on)",
    )
    serve.add_argument(
        "--db", metavar="PATH", help="SQLite database (default: the embedded sandbox's)"
    )
    serve.add_argument(
        "--demo", action="store_true", help="load the demo workspace into an empty database"
    )
    serve.add_argument(
        "--log-level",
        choices=("critical", "error", "warning", "info", "debug"),
        default="info",
        help="server log level (info)",
    )
    serve.add_argument(
        "--no-answer-cache",
        dest="answer_cache",
        action="store_false",
        help="answer every GET afresh, never from the answers kept while the database is "
        "unchanged (for measuring the request path itself)",
    )
    serve.add_argument(
        "--allow-loopback-import",
        action="store_true",
        help="let content imports fetch from 127.0.0.1 (for testing a local site)",
    )
    # For the launcher only: the shared embedded sandbox on 127.0.0.1, with its state and
    # token files next to the database, stopping after --idle-timeout seconds unused.
    serve.add_argument("--background", action="store_true", help=argparse.SUPPRESS)
    serve.add_argument(
        "--idle-timeout", type=_seconds, default=DEFAULT_IDLE_S, help=argparse.SUPPRESS
    )
    serve.set_defaults(handler=_lazy("docdeck._cli.serve", "run_serve"))

    sandbox = commands.add_parser(
        "sandbox", help="the embedded sandbox server that docdeck keeps running in the background"
    )
    sandbox_commands = sandbox.add_subparsers(title="commands", metavar="COMMAND", required=True)
    status = sandbox_commands.add_parser(
        "status", help="whether it runs: pid, port, database, version, idle time"
    )
    status.set_defaults(handler=_lazy("docdeck._cli.sandbox", "run_sandbox_status"))
    stop = sandbox_commands.add_parser("stop", help="stop it now (the next docdeck starts one)")
    stop.set_defaults(handler=_lazy("docdeck._cli.sandbox", "run_sandbox_stop"))

    token = commands.add_parser("token", help="sandbox API tokens")
    token_commands = token.add_subparsers(title="commands", metavar="COMMAND", required=True)
    create = token_commands.add_parser(
        "create", help="print a new token for a sandbox user, alone on stdout"
    )
    create.add_argument(
        "--db", metavar="PATH", help="SQLite database (default: the embedded sandbox's)"
    )
    create.add_argument("--email", required=True, help="the user's email address")
    create.set_defaults(handler=_lazy("docdeck._cli.tokens", "run_token_create"))

    profile = commands.add_parser("profile", help="manage hosted accounts in config.toml")
    profile_commands = profile.add_subparsers(title="commands", metavar="COMMAND", required=True)
    add = profile_commands.add_parser(
        "add", help="add a profile; the token is read from a prompt or stdin"
    )
    add.add_argument("name")
    add.add_argument("--base-url", required=True, metavar="URL")
    add.add_argument("--default", action="store_true", help="also make it the default profile")
    add.add_argument("--replace", action="store_true", help="replace a profile of that name")
    add.add_argument(
        "--no-check", action="store_true", help="save without asking the server if the token works"
    )
    add.set_defaults(handler=_lazy("docdeck._cli.profiles", "run_profile_add"))
    listing = profile_commands.add_parser("list", help="list profiles (never their tokens)")
    listing.set_defaults(handler=_lazy("docdeck._cli.profiles", "run_profile_list"))
    remove = profile_commands.add_parser("remove", help="remove a profile")
    remove.add_argument("name")
    remove.set_defaults(handler=_lazy("docdeck._cli.profiles", "run_profile_remove"))
    default_cmd = profile_commands.add_parser(
        "default", help="show, set or --unset the default profile"
    )
    default_cmd.add_argument("name", nargs="?")
    default_cmd.add_argument(
        "--unset", action="store_true", help="open the sandbox by default again"
    )
    default_cmd.set_defaults(handler=_lazy("docdeck._cli.profiles", "run_profile_default"))
    return parser


def _parse(argv: list[str]) -> argparse.Namespace:
    if not argv:
        # `docdeck` alone, every start of the TUI on the default account: what the parser
        # gives for no arguments, without building it (its ~25 subcommands: ~9 ms before the
        # first frame). tests/cli/test_commands.py checks it is the parser's answer.
        return _no_arguments()
    if len(argv) == 2 and argv[0] == "open" and not argv[1].startswith("-"):
        # `docdeck open URL`, a link opened from elsewhere: likewise (argparse and the
        # parser were ~20 ms of the ~420 to a change request's first diff).
        return _open_arguments(argv[1])
    return build_parser().parse_args(argv)


def _no_arguments() -> argparse.Namespace:
    # Handlers read their arguments by attribute only.
    args = SimpleNamespace(base_url=None, token=None, profile=None, handler=_run_tui)
    return args  # type: ignore[return-value]


def _open_arguments(target: str) -> argparse.Namespace:
    """What the parser gives for `open TARGET` (no option), without building it."""
    args = SimpleNamespace(
        base_url=None, token=None, profile=None, target=target, handler=_run_open
    )
    return args  # type: ignore[return-value]


def _lazy(module: str, function: str) -> Handler:
    def handler(args: argparse.Namespace) -> int:
        import importlib

        result: int = getattr(importlib.import_module(module), function)(args)
        return result

    return handler


def _run_open(args: argparse.Namespace) -> int:
    from docdeck.tui.kit.open_target import TargetError, parse_target

    try:
        args.open_at = parse_target(args.target)
    except TargetError as error:
        raise CLIError(str(error)) from None
    return _run_tui(args)


def _run_tui(args: argparse.Namespace) -> int:
    from docdeck._cli.tui import run_tui

    return run_tui(args)


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command; return its exit code (0 ok, 1 internal error, 2 error, 130 interrupted)."""
    # pydantic looks for plugins in every installed package's entry points when it builds its
    # first model (~10 ms of each start, the TUI's and the sandbox server's); docdeck uses none.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    # And then its plugin loader's import of importlib.metadata (~20 ms) is left out too.
    from docdeck._cli.pydantic_plugins import install

    install()
    try:
        args = _parse(sys.argv[1:] if argv is None else list(argv))
        handler: Handler = args.handler
        code = handler(args)
        sys.stdout.flush()
        return code
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # Whoever read our output has gone (`docdeck ... | head -1`): nothing to report
        # to them, and Python's own flush at exit must not print a traceback either.
        _discard_stdout()
        return EXIT_ERROR
    except Exception as error:
        from docdeck.config import ConfigError

        if isinstance(error, CLIError | ConfigError):
            _say_error(str(error))
            return EXIT_ERROR
        if os.environ.get(DEBUG_ENV):
            raise
        _say_error(
            f"internal error: {type(error).__name__}: {error} "
            f"(set {DEBUG_ENV}=1 to see the traceback, and please report it)"
        )
        return EXIT_INTERNAL


def run() -> NoReturn:
    """The `docdeck` executable: `main()`, then leave without the interpreter's teardown.

    Once a command is done nothing is left to clean up (files are closed, the
    shared sandbox is meant to stay), but tearing down the modules of a TUI
    session (Textual, pydantic, httpx) took longer than the whole quit, up to
    a second on a busy machine. Standard streams are flushed first.
    """
    code = main()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


def _discard_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def _say_error(message: str) -> None:
    print(f"docdeck: error: {_printable(' '.join(message.split()))}", file=sys.stderr)


def _printable(text: str) -> str:
    """`text` with each character a terminal would act on (an escape sequence, a NUL, a bell:
    errors quote what was typed, decoded from a URL's %1b or %00) written as its escape."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)
