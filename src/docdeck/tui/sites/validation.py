"""Checks of what is typed, with the reference's limits and patterns, before any request."""

from __future__ import annotations

import re

from docdeck.models.sites import SITE_PROXY_PATTERN, SITE_REDIRECT_SOURCE_PATTERN

__all__ = [
    "check_basename",
    "check_condition",
    "check_path",
    "check_proxy",
    "check_redirect_source",
]

_SEGMENT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.~-]*$")


def check_path(value: str) -> str:
    if not _SEGMENT.match(value):
        return (
            "Path: one URL segment of letters, digits, -, _, . or ~, starting with a letter "
            "or digit."
        )
    return ""


def check_basename(value: str) -> str:
    return check_path(value).replace("Path", "Basename")


def check_condition(value: str) -> str:
    if value.count("(") != value.count(")"):
        return "Condition: the parentheses do not match."
    return ""


def check_redirect_source(value: str, label: str = "From") -> str:
    """A redirect's source path; `label` is the field's, which the message starts with."""
    if not re.match(SITE_REDIRECT_SOURCE_PATTERN, value):
        return f"{label}: a path starting with / made of URL segments (/old/page)."
    return ""


def check_proxy(value: str) -> str:
    if not re.match(SITE_PROXY_PATTERN, value):
        return "Proxy: a host and a path, such as example.com/docs."
    return ""
