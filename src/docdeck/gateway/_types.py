"""The sentinel that tells "leave this field out" from "send null"."""

from __future__ import annotations

from typing import Any, Final, Literal

__all__ = ["NOT_GIVEN", "NotGiven", "body_of", "query_of"]


class NotGiven:
    """A field left at NOT_GIVEN is not sent; None is sent as JSON null."""

    _instance: NotGiven | None = None

    def __new__(cls) -> NotGiven:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __bool__(self) -> Literal[False]:
        return False

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN: Final = NotGiven()


def _plain(value: Any) -> Any:
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(mode="json", exclude_unset=True)
    return value


def body_of(**fields: Any) -> dict[str, Any]:
    """A JSON body of the given fields, leaving out those at NOT_GIVEN."""
    return {k: _plain(v) for k, v in fields.items() if not isinstance(v, NotGiven)}


def query_of(**params: Any) -> dict[str, Any]:
    """Query parameters, leaving out NOT_GIVEN and None; booleans as the API spells them."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        if value is None or isinstance(value, NotGiven):
            continue
        out[key] = ("true" if value else "false") if isinstance(value, bool) else value
    return out
