"""Checks on body values that the models' types cannot express, shared by every area so the
same rule gives the same message everywhere."""

from __future__ import annotations

from docdeck.server.errors import bad_request


def check_title(title: str | None, field: str = "title") -> str:
    """A title that was given: a string with something other than spaces in it."""
    if title is None:
        raise bad_request(f"{field}: must be a string, not null")
    if not title.strip():
        raise bad_request(f"{field}: must not be empty")
    return title


def check_http_url(url: str, field: str) -> str:
    if not url.startswith(("http://", "https://")):
        raise bad_request(f"{field}: must be an http(s) URL")
    return url
