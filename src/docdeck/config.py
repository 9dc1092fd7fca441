"""User settings, profiles and where docdeck keeps its files.

The settings live in one TOML file (`config.toml` in the platformdirs config
dir). It holds API tokens, so it is written atomically and only ever with mode
0600. Environment variables with the `DOCDECK_` prefix override the file
(nested sections with `__`, e.g. `DOCDECK_UI__THEME`), which is what scripts
and CI expect. Every problem with the file becomes one `ConfigError` line that
names the file and the setting, because a traceback is no help to someone who
mistyped a table name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, MutableMapping
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Self
from urllib.parse import urlsplit

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    SerializationInfo,
    ValidationError,
    field_serializer,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from docdeck._cli.locations import (
    BASE_URL_ENV,
    CONFIG_FILE_NAME,
    DEFAULT_IDLE_MINUTES,
    SANDBOX_DB_NAME,
    SANDBOX_LABEL,
    TOKEN_ENV,
    config_dir,
    config_path,
    data_dir,
    sandbox_db_path,
    write_private,
)

__all__ = [
    "CONFIG_FILE_NAME",
    "SANDBOX_DB_NAME",
    "SANDBOX_LABEL",
    "Account",
    "ConfigError",
    "Profile",
    "SandboxSettings",
    "Settings",
    "UISettings",
    "check_base_url",
    "check_profile_name",
    "check_token",
    "config_dir",
    "config_path",
    "data_dir",
    "load_settings",
    "read_config_file",
    "resolve_account",
    "sandbox_db_path",
    "write_config_file",
]

_PROFILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_REVEAL = "reveal_secrets"
_FILE_ONLY: ContextVar[bool] = ContextVar("docdeck_config_file_only", default=False)
_EDITING: ContextVar[bool] = ContextVar("docdeck_config_editing", default=False)


class ConfigError(Exception):
    """A problem with the settings, worded as one line for the terminal."""


# --- locations: in docdeck._cli.locations (free of pydantic), re-exported here ---


# --- validation shared by the file and the command line ----------------------


def check_base_url(url: str) -> str:
    """Accept only absolute http(s) URLs so a typo fails here, not as a confusing connect error."""
    url = url.strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise ValueError(f"base URL {url!r} must start with http:// or https://")
    if not parts.hostname:
        raise ValueError(f"base URL {url!r} has no host name")
    if parts.query or parts.fragment:
        raise ValueError(f"base URL {url!r} must not have a query or fragment")
    try:
        parts.port  # noqa: B018 - raises on a malformed port
    except ValueError:
        raise ValueError(f"base URL {url!r} has an invalid port") from None
    return url.rstrip("/")


def check_token(token: str) -> str:
    """The token stripped, or a ValueError that never quotes it.

    It travels in an HTTP header, which carries printable ASCII only: a pasted
    accent or line break would otherwise fail every request later, far from here.
    """
    token = token.strip()
    if not token:
        raise ValueError("the token is empty")
    if any(ch.isspace() for ch in token):
        raise ValueError("the token must be a single line without spaces")
    if not (token.isascii() and token.isprintable()):
        raise ValueError("the token must be printable ASCII (was it pasted with extra characters?)")
    return token


def check_profile_name(name: str) -> str:
    """Profile names are TOML keys and command arguments: keep them plain."""
    if not _PROFILE_NAME.fullmatch(name):
        raise ValueError(
            f"profile name {name!r} must be 1-64 letters, digits, '.', '_' or '-', "
            "starting with a letter or digit"
        )
    return name


# --- the settings model ------------------------------------------------------


class Profile(BaseModel):
    """A hosted account: where the API is and the token that opens it."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    base_url: str
    """The API's base URL, e.g. `https://api.example.com` (with or without `/v1`)."""
    token: SecretStr
    """The API token. Kept secret: never shown by `profile list`, repr or logs."""
    remember_first_view: bool = True
    """Keep the organization titles of the last first view (never the token) to paint the next
    start at once; false keeps nothing for this profile."""

    @field_validator("base_url")
    @classmethod
    def _check_base_url(cls, value: str) -> str:
        return check_base_url(value)

    @field_validator("token")
    @classmethod
    def _check_token(cls, value: SecretStr) -> SecretStr:
        return SecretStr(check_token(value.get_secret_value()))

    @field_serializer("token")
    def _dump_token(self, value: SecretStr, info: SerializationInfo) -> str:
        """Reveal the token only when writing the config file asks for it explicitly."""
        context = info.context or {}
        return value.get_secret_value() if context.get(_REVEAL) else str(value)


class UISettings(BaseModel):
    """How the terminal UI looks."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    theme: str = "textual-dark"
    """A Textual theme name, e.g. `textual-dark`, `textual-light`, `nord`, `gruvbox`."""
    mouse: bool = True
    """False: docdeck does not capture the mouse, so the terminal's own text selection
    works (every action is on the keyboard)."""


class SandboxSettings(BaseModel):
    """The embedded sandbox that docdeck keeps running in the background."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    idle_minutes: float = Field(default=DEFAULT_IDLE_MINUTES, gt=0)
    """Minutes the sandbox server waits, with no request and no docdeck open, before it stops."""
    remember_first_view: bool = True
    """Keep the sandbox's last first view (organization titles) to paint the next start at once."""


class Settings(BaseSettings):
    """Everything `config.toml` may hold; `DOCDECK_*` environment variables override it."""

    model_config = SettingsConfigDict(
        env_prefix="DOCDECK_",
        env_nested_delimiter="__",
        extra="forbid",
        use_attribute_docstrings=True,
    )

    default_profile: str | None = None
    """The profile `docdeck` opens unless a flag, an environment variable or `--profile` wins."""
    profiles: dict[str, Profile] = Field(default_factory=dict)
    """Hosted accounts by name: `[profiles.NAME]` tables with `base_url` and `token`."""
    ui: UISettings = Field(default_factory=UISettings)
    """The `[ui]` table: appearance."""
    sandbox: SandboxSettings = Field(default_factory=SandboxSettings)
    """The `[sandbox]` table: the embedded sandbox server."""
    keymap: dict[str, str] = Field(default_factory=dict)
    """The `[keymap]` table: binding id -> keys (comma separated), e.g. `"app.quit" =
    "ctrl+q"`; written unquoted (`app.quit = "ctrl+q"`), TOML reads the id as a table, which
    means the same here."""

    @field_validator("keymap", mode="before")
    @classmethod
    def _dotted_ids(cls, value: Any) -> Any:
        """`threads.reply = "ctrl+r"` under `[keymap]` (an id as TOML's dotted key, as the help
        screen writes it) arrives as `{"threads": {"reply": ...}}`: flattened back to the id,
        not refused as "keymap.threads: Input should be a valid string"."""
        if not isinstance(value, Mapping):
            return value
        flat: dict[str, Any] = {}

        def add(prefix: str, table: Mapping[Any, Any]) -> None:
            for name, keys in table.items():
                binding_id = f"{prefix}{name}"
                if isinstance(keys, Mapping):
                    add(f"{binding_id}.", keys)
                else:
                    flat[binding_id] = keys

        add("", value)
        return flat

    @field_validator("profiles")
    @classmethod
    def _check_profile_names(cls, value: dict[str, Profile]) -> dict[str, Profile]:
        for name in value:
            check_profile_name(name)
        return value

    @model_validator(mode="after")
    def _default_profile_exists(self) -> Self:
        # Editing commands may be what repairs a dangling default (`profile add NAME`).
        if _EDITING.get():
            return self
        if self.default_profile is not None and self.default_profile not in self.profiles:
            raise ValueError(f"default_profile {self.default_profile!r} names no [profiles] entry")
        return self

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # The file's contents arrive as init kwargs; the environment overrides them,
        # except while reading the file alone to edit and write it back.
        if _FILE_ONLY.get():
            return (init_settings,)
        return (env_settings, init_settings)

    def to_toml_dict(self) -> dict[str, Any]:
        """The file's contents, tokens included, leaving out what is at its default."""
        dumped: dict[str, Any] = self.model_dump(
            mode="json", exclude_none=True, exclude_defaults=True, context={_REVEAL: True}
        )
        return dumped


# --- reading and writing the file --------------------------------------------


def _first_error(error: ValidationError) -> str:
    detail = error.errors(include_url=False)[0]
    where = ".".join(str(part) for part in detail["loc"])
    message = str(detail["msg"]).removeprefix("Value error, ")
    if detail["type"] == "extra_forbidden":
        message = "unknown setting"
    more = len(error.errors()) - 1
    suffix = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
    return f"{where}: {message}{suffix}" if where else f"{message}{suffix}"


def read_config_file(path: Path | None = None) -> Settings:
    """The file's settings alone (no environment): what profile commands edit and write back."""
    path = path or config_path()
    editing = _EDITING.set(True)
    try:
        return _validate_file(path, _read_toml(path))
    finally:
        _EDITING.reset(editing)


def _validate_file(path: Path, data: dict[str, Any]) -> Settings:
    reset = _FILE_ONLY.set(True)
    try:
        return Settings(**data)
    except ValidationError as error:
        raise ConfigError(f"config file {path}: {_first_error(error)}") from None
    finally:
        _FILE_ONLY.reset(reset)


def load_settings(path: Path | None = None) -> Settings:
    """The settings in effect: the file, then `DOCDECK_*` environment variables over it."""
    path = path or config_path()
    data = _read_toml(path)
    _validate_file(path, data)
    try:
        return Settings(**data)
    except ValidationError as error:
        raise ConfigError(f"DOCDECK_ environment setting: {_first_error(error)}") from None


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except UnicodeDecodeError:
        raise ConfigError(f"config file {path}: not UTF-8 text") from None
    except OSError as error:
        raise ConfigError(f"config file {path}: cannot read it ({error.strerror})") from None
    import tomllib  # only when there is a file to read

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"config file {path}: invalid TOML: {error}") from None


def write_config_file(settings: Settings, path: Path | None = None) -> Path:
    """Write `settings` into the file, changing only the keys whose values changed.

    The file is the user's: the parsed document is edited in place (tomlkit), so
    comments, spacing, key order and settings written out at their default
    (`mouse = true`) stay as typed. It is replaced atomically, 0600 from birth.
    """
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    path = path or config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or "not UTF-8 text"
        raise ConfigError(f"config file {path}: cannot read it ({reason})") from None
    try:
        document = tomlkit.parse(text)
    except TOMLKitError as error:
        raise ConfigError(f"config file {path}: invalid TOML: {error}") from None
    editing = _EDITING.set(True)
    try:
        before = _validate_file(path, document.unwrap())
    finally:
        _EDITING.reset(editing)
    _edit_table(
        document,
        before=_full_dump(before),
        after=_full_dump(settings),
        fresh=settings.to_toml_dict(),
    )
    try:
        write_private(path, tomlkit.dumps(document), durable=True)
    except OSError as error:
        raise ConfigError(f"config file {path}: cannot write it ({error.strerror})") from None
    return path


def _full_dump(settings: Settings) -> dict[str, Any]:
    dumped: dict[str, Any] = settings.model_dump(
        mode="json", exclude_none=True, context={_REVEAL: True}
    )
    return dumped


def _edit_table(
    table: MutableMapping[str, Any],
    *,
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    fresh: Mapping[str, Any],
) -> None:
    """Apply the difference between two dumps of the settings to the document's table.

    `fresh` is the same level without defaults: what a key new to the file is written as.
    """
    for key in [key for key in before if key not in after]:
        table.pop(key, None)
    for key, value in after.items():
        if key in before and before[key] == value:
            continue
        old = before.get(key)
        if isinstance(value, dict) and isinstance(old, dict) and isinstance(table.get(key), dict):
            _edit_table(table[key], before=old, after=value, fresh=fresh.get(key, {}))
        elif key in fresh or key in table:
            table[key] = fresh.get(key, value)
        elif not isinstance(value, dict):
            table[key] = value


# --- which account to open ----------------------------------------------------


@dataclass(frozen=True)
class Account:
    """The account `docdeck` opens. No `base_url` means the embedded sandbox."""

    label: str
    """What the header shows: the profile name, the server's host, or "sandbox"."""
    source: Literal["flags", "environment", "profile", "sandbox"]
    base_url: str | None = None
    token: SecretStr | None = None
    remember_first_view: bool = True

    @property
    def is_sandbox(self) -> bool:
        return self.base_url is None


def _pair(
    base_url: str | None, token: str | None, *, url_name: str, token_name: str, source: str
) -> tuple[str, SecretStr] | None:
    base_url = (base_url or "").strip() or None
    token = (token or "").strip() or None
    if base_url is None and token is None:
        return None
    if token is None:
        raise ConfigError(f"{url_name} needs {token_name} as well ({source})")
    if base_url is None:
        raise ConfigError(f"{token_name} needs {url_name} as well ({source})")
    try:
        url = check_base_url(base_url)
    except ValueError as error:
        raise ConfigError(f"{url_name}: {error}") from None
    try:
        return url, SecretStr(check_token(token))
    except ValueError as error:
        raise ConfigError(f"{token_name}: {error}") from None


def resolve_account(
    *,
    base_url: str | None,
    token: str | None,
    profile: str | None,
    environ: Mapping[str, str],
    settings: Settings,
) -> Account:
    """First match wins: flags, `DOCDECK_BASE_URL`/`DOCDECK_TOKEN`, a profile, the sandbox."""
    flags = _pair(
        base_url, token, url_name="--base-url", token_name="--token", source="command line"
    )
    if flags:
        return Account(urlsplit(flags[0]).netloc, "flags", *flags)
    env = _pair(
        environ.get(BASE_URL_ENV),
        environ.get(TOKEN_ENV),
        url_name=BASE_URL_ENV,
        token_name=TOKEN_ENV,
        source="environment",
    )
    if env:
        return Account(urlsplit(env[0]).netloc, "environment", *env)
    name = profile or settings.default_profile
    if name is not None:
        found = settings.profiles.get(name)
        if found is None:
            known = (
                ", ".join(sorted(settings.profiles))
                or "none yet; add one with `docdeck profile add`"
            )
            raise ConfigError(f"no profile named {name!r} (profiles: {known})")
        return Account(name, "profile", found.base_url, found.token, found.remember_first_view)
    return Account(
        SANDBOX_LABEL, "sandbox", remember_first_view=settings.sandbox.remember_first_view
    )
