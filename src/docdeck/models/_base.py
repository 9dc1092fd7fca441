"""Shared base classes and enumerations of the wire format."""

from datetime import datetime
from inspect import signature
from typing import Annotated, Any, Generic, Literal, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    model_validator,
)

from docdeck.models._text import one_emoji

__all__ = [
    "ROLE_ORDER",
    "CollectionPointer",
    "ContentPosition",
    "Count",
    "DefaultLevel",
    "Emoji",
    "ErrorBody",
    "ErrorDetail",
    "ListPage",
    "MemberRole",
    "MemberRoleOrGuest",
    "NextPage",
    "Open",
    "RequestBody",
    "Resource",
    "SpacePointer",
    "Timestamp",
    "Url",
    "empty_dict",
    "empty_list",
    "read_tolerantly",
]


def empty_list() -> list[Any]:
    """`default_factory` of a field that defaults to an empty list.

    pydantic asks a factory's signature each time it builds a field's validator (does it
    take the validated data?); `inspect.signature(list)`, a builtin class, costs about
    0.3 ms, and the page tree's validator asked it 12 times (a quarter of its build). This
    function's signature is worked out once, here."""
    return []


def empty_dict() -> dict[str, Any]:
    """`default_factory` of a field that defaults to an empty object (see `empty_list`)."""
    return {}


empty_list.__signature__ = signature(empty_list)  # type: ignore[attr-defined]
empty_dict.__signature__ = signature(empty_dict)  # type: ignore[attr-defined]


def _iso(value: datetime) -> str:
    return value.isoformat().replace("+00:00", "Z")


Timestamp = Annotated[datetime, PlainSerializer(_iso, return_type=str)]
"""ISO 8601 date-time; UTC values are written with a `Z` suffix."""


def _whole(value: object) -> object:
    """A count the documents type as `number`: a whole float is the integer; another is
    rounded (the platform counts, but its documents allow 2.5)."""
    if isinstance(value, float) and value == value and abs(value) != float("inf"):
        return round(value)
    return value


Count = Annotated[int, BeforeValidator(_whole)]
"""A response's counter (`number` in the platform's documents): read as a whole number,
written as the integer it is; its JSON schema stays `integer`."""


def _keep_unknown(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    try:
        return handler(value)
    except ValidationError:
        if isinstance(value, str):
            return value
        raise


Open = WrapValidator(_keep_unknown)
"""`Annotated[Literal[...], Open]`: an enum of a response the platform may extend. A value
this version does not know is kept as the string that came (and shown as it came); the JSON
schema, and so what the sandbox documents and writes, stays the known values. Never on a
request body: what docdeck sends stays strict."""


def read_tolerantly(
    *, absent: dict[str, Any] | None = None, names: dict[str, str] | None = None
) -> Any:
    """A before-validator for a response model's class body (`_tolerant = read_tolerantly(
    ...)`), for what the platform's releases send that the reference's model requires:

    - `absent`: fields the sandbox always writes (so they stay required in its documented
      schema) but a release of the platform may leave out: the value read when one is (a
      callable: made from the answer's other fields);
    - `names`: the platform's name for a field -> the reference's (read under either; the
      sandbox writes the reference's).

    Only the models that need it get it: a Python validator per object costs parse time."""
    defaults = dict(absent or {})
    renamed = dict(names or {})

    def fill(cls: type[BaseModel], data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        if any(name in data for name in renamed) or any(f not in data for f in defaults):
            data = dict(data)
            for platform, reference in renamed.items():
                if platform in data and reference not in data:
                    data[reference] = data.pop(platform)
            for field, value in defaults.items():
                if field not in data:
                    data[field] = value(data) if callable(value) else value
        return data

    return model_validator(mode="before")(classmethod(fill))  # type: ignore[arg-type]


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
    count: Count | None = None
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
