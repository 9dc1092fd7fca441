"""`docdeck profile ...`: hosted accounts in config.toml.

Tokens come from a no-echo prompt or stdin, never argv, so they stay out of
shell history and `ps`; and they are never printed back.
"""

from __future__ import annotations

import argparse
import getpass
import sys

from docdeck.cli import EXIT_OK, CLIError
from docdeck.config import (
    Profile,
    check_base_url,
    check_profile_name,
    check_token,
    config_path,
    read_config_file,
    write_config_file,
)

__all__ = ["run_profile_add", "run_profile_default", "run_profile_list", "run_profile_remove"]


def _read_token(name: str) -> str:
    if sys.stdin is None:
        raise CLIError("no token given: stdin is closed")
    try:
        if sys.stdin.isatty():
            try:
                token = getpass.getpass(f"API token for profile {name!r} (not echoed): ")
            except EOFError:
                token = ""
        else:
            token = sys.stdin.read()
    except UnicodeDecodeError:
        raise CLIError("the token is not text: it must be printable ASCII") from None
    if not token.strip():
        raise CLIError("no token given (type it at the prompt or pipe it on stdin)")
    try:
        token = check_token(token)
    except ValueError as error:
        raise CLIError(str(error)) from None
    return token


def run_profile_add(args: argparse.Namespace) -> int:
    try:
        name = check_profile_name(args.name)
        base_url = check_base_url(args.base_url)
    except ValueError as error:
        raise CLIError(str(error)) from None
    path = config_path()
    settings = read_config_file(path)
    if name in settings.profiles and not args.replace:
        raise CLIError(f"profile {name!r} already exists; add --replace to overwrite it")
    token = _read_token(name)
    if not args.no_check:
        _check_token(base_url, token)
    settings.profiles = {**settings.profiles, name: Profile(base_url=base_url, token=token)}
    if args.default:
        settings.default_profile = name
    write_config_file(settings, path)
    note = " (the default)" if settings.default_profile == name else ""
    checked = "" if args.no_check else " (token accepted)"
    print(f"Saved profile {name!r}{note} for {base_url}{checked} in {path}", file=sys.stderr)
    if settings.default_profile != name:
        print(
            f"Open it with: docdeck --profile {name}   "
            f"(or make it the default: docdeck profile default {name})",
            file=sys.stderr,
        )
    return EXIT_OK


def _check_token(base_url: str, token: str) -> None:
    """Ask the server whether the token works; a CLIError, and nothing saved, if not.

    An unreachable server is an error too (exit 2, like every failure): the
    profile could not be verified. `--no-check` saves it offline.
    """
    import asyncio

    import httpx

    from docdeck.gateway import (
        APIConnectionError,
        APIError,
        AuthenticationError,
        Client,
        PermissionDeniedError,
    )

    async def probe() -> None:
        timeout = httpx.Timeout(10, connect=5)
        async with Client(base_url, token, timeout=timeout, max_retries=0) as client:
            await client.orgs.list(limit=1)

    try:
        asyncio.run(probe())
    except (AuthenticationError, PermissionDeniedError) as error:
        raise CLIError(
            f"{base_url} rejected the token ({error.status_code}: {error.message}); nothing saved"
        ) from None
    except APIConnectionError as error:
        raise CLIError(
            f"cannot check the token: {error.message}; nothing saved "
            "(add --no-check to save it without checking)"
        ) from None
    except APIError as error:
        raise CLIError(
            f"checking the token against {base_url} failed: {error}; nothing saved "
            "(add --no-check to save it without checking)"
        ) from None
    except ValueError as error:
        raise CLIError(f"{error}; nothing saved") from None


def run_profile_list(args: argparse.Namespace) -> int:
    settings = read_config_file()
    if not settings.profiles:
        print(
            "No profiles: docdeck opens the embedded sandbox. "
            "Add one with: docdeck profile add NAME --base-url URL",
            file=sys.stderr,
        )
        return EXIT_OK
    width = max(len(name) for name in settings.profiles)
    for name in sorted(settings.profiles):
        marker = "*" if name == settings.default_profile else " "
        print(f"{marker} {name:<{width}}  {settings.profiles[name].base_url}")
    return EXIT_OK


def _known(settings_names: list[str]) -> str:
    return ", ".join(sorted(settings_names)) or "none"


def run_profile_remove(args: argparse.Namespace) -> int:
    path = config_path()
    settings = read_config_file(path)
    if args.name not in settings.profiles:
        raise CLIError(
            f"no profile named {args.name!r} (profiles: {_known(list(settings.profiles))})"
        )
    settings.profiles = {k: v for k, v in settings.profiles.items() if k != args.name}
    was_default = settings.default_profile == args.name
    if was_default:
        settings.default_profile = None
    write_config_file(settings, path)
    note = "; docdeck now opens the embedded sandbox by default" if was_default else ""
    print(f"Removed profile {args.name!r}{note}", file=sys.stderr)
    return EXIT_OK


def run_profile_default(args: argparse.Namespace) -> int:
    path = config_path()
    settings = read_config_file(path)
    if args.unset and args.name:
        raise CLIError("give a profile name or --unset, not both")
    if args.unset:
        settings.default_profile = None
    elif args.name is None:
        print(settings.default_profile or "(none: the embedded sandbox)")
        return EXIT_OK
    elif args.name not in settings.profiles:
        raise CLIError(
            f"no profile named {args.name!r} (profiles: {_known(list(settings.profiles))})"
        )
    else:
        settings.default_profile = args.name
    write_config_file(settings, path)
    shown = settings.default_profile or "the embedded sandbox"
    print(f"docdeck now opens {shown} by default", file=sys.stderr)
    return EXIT_OK
