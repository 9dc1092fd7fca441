"""Shared base classes and enumerations of the wire format."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Generic, Literal, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, PlainSerializer

from docdeck.models._text import one_emoji

__all__ = [
    "ROLE_ORDER",
    "CollectionPointer",
    "ContentPosition",
    "DefaultLevel",
    "Emoji",
    "ErrorBody",
    "ErrorDetail",
    "ListPage",
    "MemberRole",
    "MemberRoleOrGuest",
    "NextPage",
    "RequestBody",
    "Resource",
    "SpacePointer",
    "Timestamp",
    "Url",
]


def _iso(value: datetime) -> str:
    return value.isoformat().replace("+00:00", "Z")


Timestamp = Annotated[datetime, PlainSerializer(_iso, return_type=str)]
"""ISO 8601 date-time; UTC values are written with a `Z` suffix."""

MemberRole = Literal["admin", "create", "edit", "review", "comment", "read"]
MemberRoleOrGuest = MemberRole | None
DefaultLevel = MemberRole | Literal["inherit"] | None
Emoji = Annotated[str, Field(max_length=50), AfterValidator(one_emoji)]
Url = Annotated[str, Field(max_length=2048)]

ROLE_ORDER: tuple[MemberRole, ...] = ("read", "comment", "review", "edit", "create", "admin")
"""Roles from least to most capable; a role may do everything the ones before it may."""


class Resource(BaseModel):
    """A response object; unknown fields are kept so a newer platform never breaks parsing.

    Validators are built on first use (`defer_build`): the TUI's first request needs
    two of them, and building all at import was a fifth of the browser's import time."""

    model_config = ConfigDict(extra="allow", populate_by_name=True, defer_build=True)


class RequestBody(BaseModel):
    """A request body. Unknown fields are refused so a typo is reported, not silently dropped,
    and values must have the JSON type the schema gives (strict): `"yes"` or `1` is not a
    boolean and `5` is not a string, as on the platform."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, strict=True, defer_build=True)


def build_request_bodies_at_once() -> None:
    """Request bodies are built on first use, like responses (the TUI sends none before its
    first view; building them at import took ~25 ms of its start). FastAPI, though, must read
    complete models (with `defer_build` its body adapter is built at the first request,
    through a path that warns and fails), so the server calls this before its routes are
    built: every body class made so far is built now, and every later one as it is made."""
    pending: list[type[RequestBody]] = [RequestBody]
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if cls.model_config.get("defer_build"):
            cls.model_config["defer_build"] = False  # each class has its own merged config
            if cls is not RequestBody:
                cls.model_rebuild(force=True)


T = TypeVar("T")


class NextPage(Resource):
    page: str


class ListPage(Resource, Generic[T]):
    """The list envelope: `items`, total `count`, and `next.page` while more pages remain."""

    items: list[T]
    count: int | None = None
    next: NextPage | None = None


class ErrorDetail(Resource):
    code: int
    message: str


class ErrorBody(Resource):
    error: ErrorDetail


class SpacePointer(RequestBody):
    type: Literal["space"]
    space: str


class CollectionPointer(RequestBody):
    type: Literal["collection"]
    collection: str


class ContentPosition(RequestBody):
    """Where to insert a space or collection among its siblings."""

    before: SpacePointer | CollectionPointer | None = None
    after: SpacePointer | CollectionPointer | None = None
