"""`docdeck open URL-OR-ID`: where to start, read from an app URL or an id.

Parsing is plain text work (standard library only), so the command refuses what it
cannot read with one line before any UI starts. Understood:

- the sandbox's app URLs (`urls.app`): `/app/spaces/{space}`,
  `/app/spaces/{space}/pages/{page}`, `/app/spaces/{space}/revisions/{revision}`,
  `/app/spaces/{space}/change-requests/{number}`;
- the hosted platform's: `/o/{org}/s/{space}/...`, `/s/{space}/...`, and
  `/s/{space}/~/changes/{number}` for a change request (a page there is a path of
  slugs, which is resolved to the page through the API once connected);
- a site's app URL: the sandbox's `/app/orgs/{org}/sites/{site}`, the platform's
  `/o/{org}/sites/{site}/...`: the site editor;
- a bare id, taken as a space id (or, when no space has it, a site id).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import unquote, urlsplit

__all__ = ["Getter", "OpenTarget", "TargetError", "parse_target"]

_ID = re.compile(r"^[A-Za-z0-9_-]{4,64}$")
_ID_WORDS = "4 to 64 letters, digits, - and _"


class TargetError(ValueError):
    """The text is neither an app URL docdeck understands nor an id."""


class Getter(Protocol):
    """A GET asked of the server before the client exists (the launcher's
    `docdeck._cli.first_answer.Reads`): the answer's JSON, None when it is not a 200."""

    def __call__(self, path: str, params: dict[str, str] | None = None) -> Any: ...


@dataclass(frozen=True)
class OpenTarget:
    space: str = ""
    page: str | None = None
    page_path: str | None = None
    revision: str | None = None
    change_request: str | None = None
    site: str | None = None
    organization: str | None = None
    """The site's organization (a site is read through it)."""


def parse_target(text: str) -> OpenTarget:
    text = text.strip()
    if not text:
        raise TargetError(
            "give an app URL (a space, a page, a change request or a site) or a space or site id"
        )
    if "/" not in text and ":" not in text:
        if not _ID.match(text):
            raise TargetError(f"“{text}” is neither an app URL nor an id (an id is {_ID_WORDS})")
        return OpenTarget(space=text)
    parts = urlsplit(text if "://" in text else f"https://{text}")
    segments = [unquote(s) for s in parts.path.split("/") if s]
    if "sites" in segments and ("orgs" in segments or "o" in segments):
        org = _after(segments, "orgs") or _after(segments, "o")
        return OpenTarget(
            site=_checked(_after(segments, "sites"), "site", text),
            organization=_checked(org, "organization", text),
        )
    if "spaces" in segments:
        return _sandbox(segments, text)
    if "s" in segments:
        return _platform(segments, text)
    raise TargetError(
        f"“{text}” is not a space, page or change request URL "
        "(expected …/app/spaces/ID… or …/s/ID…)"
    )


def _after(segments: list[str], key: str) -> str | None:
    if key in segments:
        index = segments.index(key)
        if index + 1 < len(segments):
            return segments[index + 1]
    return None


def _checked(value: str | None, what: str, text: str) -> str:
    if value is None:
        raise TargetError(f"“{text}” has no {what} id where one was expected")
    if not _ID.match(value):
        raise TargetError(f"“{text}”: “{value}” is not a {what} id ({_ID_WORDS})")
    return value


def _sandbox(segments: list[str], text: str) -> OpenTarget:
    space = _checked(_after(segments, "spaces"), "space", text)
    page = _after(segments, "pages")
    revision = _after(segments, "revisions")
    change = _after(segments, "change-requests")
    return OpenTarget(
        space=space,
        page=_checked(page, "page", text) if page is not None else None,
        revision=_checked(revision, "revision", text) if revision is not None else None,
        change_request=change,
    )


def _platform(segments: list[str], text: str) -> OpenTarget:
    index = segments.index("s")
    space = _checked(_after(segments, "s"), "space", text)
    rest = segments[index + 2 :]
    if rest[:2] == ["~", "changes"] and len(rest) > 2:
        return OpenTarget(space=space, change_request=rest[2])
    if rest[:1] == ["~"]:
        return OpenTarget(space=space)
    return OpenTarget(space=space, page_path="/".join(rest) or None)
