"""Checks of what is typed on the administration screens, done before anything is sent.

Each returns "" when the value may be sent, else what is wrong in words. Where the models
carry the rule the server applies (a spec's slug, a URL's length), the models decide, so the
screen and the server cannot disagree.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

from docdeck.models import OPENAPI_SPEC_SLUG_PATTERN

__all__ = [
    "MAX_SPEC_FILE_BYTES",
    "check_http_url",
    "check_slug",
    "check_spec_source",
    "is_url",
    "not_a_file",
    "read_spec_file",
]

MAX_SPEC_FILE_BYTES = 5_000_000
"""What the sandbox fetches at most from a URL; a file sent as text is held to the same."""
_SLUG = re.compile(OPENAPI_SPEC_SLUG_PATTERN)


def check_slug(value: str) -> str:
    if len(value) > 100:
        return f"Slug: at most 100 characters; this is {len(value)}."
    if not _SLUG.fullmatch(value):
        return (
            "Slug: lowercase letters and digits, words joined by single hyphens (e.g. payments-v2)."
        )
    return ""


def check_http_url(value: str, label: str, *, max_length: int = 2048) -> str:
    if len(value) > max_length:
        return f"{label}: at most {max_length} characters; this is {len(value)}."
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"{label}: an http:// or https:// address, e.g. https://example.com/openapi.yaml."
    if any(char.isspace() for char in value):
        return f"{label}: an address has no spaces."
    return ""


def not_a_file(typed: str, path: Path) -> str:
    """Why `typed` (read as `path`) gives no file: said with what was typed (a path is not
    normalized: `ftp://x` would read `ftp:/x`), and what a `~` made of it."""
    shown = f"“{typed}” ({path})" if typed.startswith("~") else f"“{typed}”"
    if re.match(r"[A-Za-z][A-Za-z0-9+.-]*://", typed):
        return f"{shown} is not an http:// or https:// address, nor a file"
    if path.is_dir():
        return f"{shown} is a folder, not a file"
    return f"no file at {shown}"


def read_spec_file(value: str) -> tuple[str, str]:
    """(the file's text, "") or ("", what is wrong): the path a spec's text comes from."""
    path = Path(value).expanduser()
    try:
        if not path.is_file():
            return "", f"Source: {not_a_file(value, path)} (give an http(s) URL or a file's path)."
        if path.stat().st_size > MAX_SPEC_FILE_BYTES:
            return "", f"Source: {path.name} is over {MAX_SPEC_FILE_BYTES // 1_000_000} MB."
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return "", f"Source: {path.name} is not UTF-8 text (a JSON or YAML document)."
    except OSError as error:
        return "", f"Source: cannot read {path}: {error.strerror or error}."
    if not text.strip():
        return "", f"Source: {path.name} is empty."
    problem = _not_openapi(text)
    if problem:
        return "", f"Source: {path.name} {problem}; nothing was sent."
    return text, ""


def _not_openapi(text: str) -> str:
    """ "" when the text reads as a JSON or YAML mapping with an `openapi` or `swagger`
    field, else what it is instead. Checked before the file is sent: a mistyped path
    (`~/.ssh/config`, `/etc/shadow`) must not send another file's text to the server. The
    server still validates the document itself."""
    import json

    document: object
    try:
        document = json.loads(text)
    except ValueError:
        import yaml

        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        try:
            document = yaml.load(text, Loader=loader)  # a safe loader: no objects built
        except (yaml.YAMLError, RecursionError):
            return "is neither JSON nor YAML"
    except RecursionError:
        return "nests too deeply to read"
    if not isinstance(document, dict):
        return "is not a JSON or YAML mapping"
    if "openapi" not in document and "swagger" not in document:
        return "is not an OpenAPI document (it has no `openapi` or `swagger` field)"
    return ""


def is_url(value: str) -> bool:
    return value.lower().startswith(("http://", "https://"))


def check_spec_source(value: str) -> str:
    """A spec's source: an http(s) URL to fetch, or a local file whose text is sent."""
    if is_url(value):
        return check_http_url(value, "Source")
    return read_spec_file(value)[1]
