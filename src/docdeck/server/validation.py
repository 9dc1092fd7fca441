"""Checks on body values that the models' types cannot express, shared by every area so the
same rule gives the same message everywhere."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel

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


def check_not_null(body: BaseModel, fields: Iterable[str] | None = None) -> None:
    """Fields a body may leave out but must not send as null: `fields` where the body gives
    them, or every field it gives when `fields` is None."""
    given = body.model_fields_set
    for field in given if fields is None else fields:
        if field in given and getattr(body, field) is None:
            raise bad_request(f"{field}: must not be null")
