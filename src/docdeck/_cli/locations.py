"""Where docdeck keeps its files, without importing pydantic.

Kept apart from `docdeck.config` so the launcher can find the sandbox database
and spawn the server in the first milliseconds of a cold start, before the
heavy imports (pydantic, Textual) run in parallel with the server's own.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = [
    "BASE_URL_ENV",
    "CACHE_DIR_ENV",
    "CONFIG_DIR_ENV",
    "CONFIG_FILE_NAME",
    "DATA_DIR_ENV",
    "DEFAULT_IDLE_MINUTES",
    "SANDBOX_DB_NAME",
    "SANDBOX_LABEL",
    "TOKEN_ENV",
    "cache_dir",
    "config_dir",
    "config_path",
    "data_dir",
    "first_view_path",
    "nothing_configured",
    "sandbox_db_path",
    "sandbox_settings",
    "surely_sandbox",
    "write_private",
]

APP_NAME = "docdeck"
DEFAULT_IDLE_MINUTES = 15.0
"""How long the shared sandbox waits, unused and with no docdeck open, before it stops."""
CONFIG_FILE_NAME = "config.toml"
SANDBOX_DB_NAME = "sandbox.db"
SANDBOX_LABEL = "sandbox"
"""What the header shows for the embedded sandbox."""
CONFIG_DIR_ENV = "DOCDECK_CONFIG_DIR"
DATA_DIR_ENV = "DOCDECK_DATA_DIR"
BASE_URL_ENV = "DOCDECK_BASE_URL"
TOKEN_ENV = "DOCDECK_TOKEN"
CACHE_DIR_ENV = "DOCDECK_CACHE_DIR"
IDLE_ENV = "DOCDECK_SANDBOX__IDLE_MINUTES"
SETTING_ENV_PREFIXES = (
    "DOCDECK_SANDBOX",
    "DOCDECK_DEFAULT_PROFILE",
    "DOCDECK_PROFILES",
    "DOCDECK_UI",
    "DOCDECK_KEYMAP",
)
"""Environment variables that `docdeck.config.Settings` reads (pydantic-settings ignores case)."""


def config_dir() -> Path:
    """The directory of `config.toml`; `DOCDECK_CONFIG_DIR` moves it (tests, portable setups)."""
    override = os.environ.get(CONFIG_DIR_ENV)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME))


def data_dir() -> Path:
    """The directory of the sandbox database; `DOCDECK_DATA_DIR` moves it."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME))


def cache_dir() -> Path:
    """Where the first-view cache lives; `DOCDECK_CACHE_DIR` moves it."""
    override = os.environ.get(CACHE_DIR_ENV)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir(APP_NAME))


def _sha256(data: bytes) -> Any:
    """SHA-256, from CPython's built-in module when it has one: `hashlib` imports OpenSSL's
    binding and every other algorithm first (~3 ms on the main thread before the first
    frame, where this is asked for the sandbox's first-view cache). The same digest."""
    try:
        from _sha256 import sha256  # CPython 3.11 (3.12 and later: `_sha2`)
    except ImportError:
        try:
            from _sha2 import sha256
        except ImportError:
            from hashlib import sha256
    return sha256(data)


def first_view_path(kind: str, name: str, base_url: str) -> Path:
    """The first-view cache file of one account: no token in its name or its content.

    `kind` is "sandbox", "profile" or "url"; the base URL (or database) is
    hashed so two profiles of one name on different servers never share a file.
    """
    digest = _sha256(f"{kind}\0{name}\0{base_url}".encode()).hexdigest()[:16]
    safe = "".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in name)[:40]
    return cache_dir() / "first-view" / f"{kind}-{safe}-{digest}.json"


def sandbox_settings(environ: Mapping[str, str]) -> tuple[float, bool]:
    """`[sandbox] idle_minutes` and `remember_first_view`, read without pydantic.

    The sandbox is started before the settings model is loaded (or without it),
    so this reads the two values directly; the environment wins, as in
    `docdeck.config`. A malformed value falls back to the default here and is
    reported by the full validation that follows.
    """
    idle, remember = DEFAULT_IDLE_MINUTES, True
    try:
        text = config_path().read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        table = {}
    else:
        table = _toml_or_none(text) or {}
        table = table.get("sandbox", {})
    if not isinstance(table, dict):
        table = {}
    raw_idle = environ.get(IDLE_ENV, table.get("idle_minutes", idle))
    raw_remember = environ.get(
        "DOCDECK_SANDBOX__REMEMBER_FIRST_VIEW", table.get("remember_first_view", True)
    )
    try:
        idle = float(raw_idle)
    except (TypeError, ValueError):
        idle = DEFAULT_IDLE_MINUTES
    if not idle > 0:
        idle = DEFAULT_IDLE_MINUTES
    if isinstance(raw_remember, str):
        remember = raw_remember.strip().lower() not in ("0", "false", "no", "off")
    else:
        remember = bool(raw_remember)
    return idle, remember


def config_path() -> Path:
    return config_dir() / CONFIG_FILE_NAME


def write_private(path: Path, data: str | bytes, *, durable: bool = False) -> None:
    """Replace `path` atomically with a file that is 0600 from birth (tokens, the sandbox's
    state, the first-view cache): a reader sees the old file or the new one, never half of
    one, and nobody else may read it even for a moment. `durable` syncs the bytes to disk
    before the rename (the user's own settings); caches and run state skip that cost.
    Raises OSError, leaving no temporary file behind."""
    import tempfile

    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    # mkstemp creates the file with mode 0600 (less under a strict umask), before any byte,
    # under a fresh name, so a stale temporary of a crashed writer cannot lend its mode.
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data.encode("utf-8") if isinstance(data, str) else data)
            if durable:
                file.flush()
                os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def sandbox_db_path() -> Path:
    return data_dir() / SANDBOX_DB_NAME


def surely_sandbox(
    *, base_url: str | None, token: str | None, profile: str | None, environ: Mapping[str, str]
) -> bool:
    """True when nothing can name another account, so the sandbox may start before validation.

    Any doubt (a flag, an account variable, a default profile, an unreadable
    file) answers False and leaves the decision to the full resolution.
    """
    if base_url or token or profile:
        return False
    if any(
        value.strip() and (name in (BASE_URL_ENV, TOKEN_ENV) or name.startswith("DOCDECK_DEFAULT"))
        for name, value in environ.items()
    ):
        return False
    try:
        text = config_path().read_text(encoding="utf-8")
    except FileNotFoundError:
        return True
    except (OSError, UnicodeDecodeError):
        return False
    table = _toml_or_none(text)
    return table is not None and "default_profile" not in table


def _toml_or_none(text: str) -> dict[str, Any] | None:
    """The TOML document, or None if it is not valid TOML. tomllib is imported only here,
    so only when a config file exists (~10 ms of a start without one)."""
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None


def nothing_configured(environ: Mapping[str, str]) -> bool:
    """True when no config file exists and no `DOCDECK_` setting is in the environment.

    Every setting then has its default, so a cold start on the sandbox can skip
    loading the settings model (pydantic-settings) before its first frame.
    """
    if any(name.upper().startswith(SETTING_ENV_PREFIXES) for name in environ):
        return False
    return not config_path().exists()
