"""Building a request's URL from the path its `@endpoint` marker declares (the reference's
spelling), so each path is written once (the shape of openai-python's `path_template`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from urllib.parse import quote

__all__ = ["PathSegments", "endpoint_path", "path_template", "seg"]

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


class PathSegments(tuple[str, ...]):
    """A value that fills one placeholder with several segments (a page's path)."""


def seg(value: str) -> str:
    """One path segment, escaped so an id can never change the path."""
    if not value:
        raise ValueError("an id in the path must not be empty")
    if value in (".", ".."):
        raise ValueError(f"an id in the path must not be {value!r}")
    return quote(value, safe="")


@lru_cache(maxsize=512)
def _split(template: str) -> tuple[str, ...]:
    """`template` as [text, name, text, name, ..., text]."""
    return tuple(_PLACEHOLDER.split(template))


def placeholders(template: str) -> frozenset[str]:
    return frozenset(_split(template)[1::2])


def path_template(template: str, /, **values: str | int | PathSegments) -> str:
    """`template` with each `{name}` filled by its value, escaped as one path segment (or as
    several, for `PathSegments`); a KeyError names a placeholder left without a value."""
    parts = list(_split(template))
    for i in range(1, len(parts), 2):
        name = parts[i]
        if name not in values:
            raise KeyError(f"no value for {{{name}}} in {template}")
        value = values[name]
        if isinstance(value, PathSegments):
            if not value:
                raise ValueError(f"{{{name}}} must not be empty")
            parts[i] = "/".join(seg(part) for part in value)
        else:
            parts[i] = seg(str(value))
    return "".join(parts)


def endpoint_path(
    operation: Callable[..., object], /, **ids: str | int | PathSegments | None
) -> str:
    """The URL of `operation`: of the paths its `@endpoint` markers declare, the one whose
    placeholders are exactly the ids given (an id at None is not given), filled in.

    An operation that exists under several parents (a space's content now, at a revision,
    in a change request) declares each path once, and the ids a caller passes choose."""
    given: Mapping[str, str | int | PathSegments] = {
        name: value for name, value in ids.items() if value is not None
    }
    paths: tuple[tuple[str, str], ...] = getattr(operation, "__endpoints__", ())
    for _method, template in paths:
        if placeholders(template) == given.keys():
            return path_template(template, **given)
    name = getattr(operation, "__qualname__", repr(operation))
    raise TypeError(f"{name} has no endpoint taking exactly {sorted(given)}")
