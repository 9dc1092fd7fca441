"""Where docdeck keeps its files, without importing pydantic.

Kept apart from `docdeck.config` so the launcher can find the sandbox database
and spawn the server in the first milliseconds of a cold start, before the
heavy imports (pydantic, Textual) run in parallel with the server's own.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path

__all__ = [
    "BASE_URL_ENV",
    "CONFIG_DIR_ENV",
    "CONFIG_FILE_NAME",
    "DATA_DIR_ENV",
    "SANDBOX_DB_NAME",
    "SANDBOX_LABEL",
    "TOKEN_ENV",
    "config_dir",
    "config_path",
    "data_dir",
    "nothing_configured",
    "sandbox_db_path",
    "surely_sandbox",
]

APP_NAME = "docdeck"
CONFIG_FILE_NAME = "config.toml"
SANDBOX_DB_NAME = "sandbox.db"
SANDBOX_LABEL = "sandbox"
"""What the header shows for the embedded sandbox."""
CONFIG_DIR_ENV = "DOCDECK_CONFIG_DIR"
DATA_DIR_ENV = "DOCDECK_DATA_DIR"
BASE_URL_ENV = "DOCDECK_BASE_URL"
TOKEN_ENV = "DOCDECK_TOKEN"
SETTING_ENV_PREFIXES = (
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


def config_path() -> Path:
    return config_dir() / CONFIG_FILE_NAME


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
    try:
        return "default_profile" not in tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return False


def nothing_configured(environ: Mapping[str, str]) -> bool:
    """True when no config file exists and no `DOCDECK_` setting is in the environment.

    Every setting then has its default, so a cold start on the sandbox can skip
    loading the settings model (pydantic-settings) before its first frame.
    """
    if any(name.upper().startswith(SETTING_ENV_PREFIXES) for name in environ):
        return False
    return not config_path().exists()
