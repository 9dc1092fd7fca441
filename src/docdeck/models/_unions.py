"""Discriminated unions that survive a newer platform.

The platform's unions (pages, revisions, content references, semantic changes) are closed
in its OpenAPI document but grow between releases. A variant this version does not know is
parsed as the union's generic model, keeping every field, instead of failing the response.
"""

from collections.abc import Callable, Iterable
from typing import Annotated, Any

from pydantic import Field

__all__ = ["UNKNOWN", "discriminate", "unknown_tag"]

UNKNOWN = "unknown"


def discriminate(field: str, known: Iterable[str]) -> Callable[[Any], str]:
    """A pydantic `Discriminator` callable: the value of `field` when it names a known
    variant, else `UNKNOWN` (the generic fallback's tag)."""
    names = frozenset(known)

    def tag(value: Any) -> str:
        found = value.get(field) if isinstance(value, dict) else getattr(value, field, None)
        return found if isinstance(found, str) and found in names else UNKNOWN

    return tag


def unknown_tag(known: Iterable[str]) -> Any:
    """The discriminator field of a union's generic model: any string, documented (JSON
    schema) as none of the known tags, so the union's `oneOf` stays exclusive."""
    tags: list[Any] = sorted(known)
    return Annotated[str, Field(json_schema_extra={"not": {"enum": tags}})]
