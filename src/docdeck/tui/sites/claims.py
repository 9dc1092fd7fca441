"""The claims an adaptive schema declares, as a condition refers to them
(`visitor.claims.plan`, `visitor.claims.unsigned.locale`), with their types and words."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rich.text import Text

__all__ = ["Claim", "claims_of", "claims_text"]


@dataclass(frozen=True)
class Claim:
    path: str
    type: str
    description: str
    values: tuple[str, ...] = ()
    """The values an enum claim (or an array of them) takes."""


def _walk(node: dict[str, Any], prefix: str) -> Iterator[Claim]:
    properties = node.get("properties")
    if not isinstance(properties, dict):
        return
    for name, claim in properties.items():
        if not isinstance(claim, dict):
            continue
        path = f"{prefix}.{name}"
        if claim.get("type") == "object":
            yield from _walk(claim, path)
            continue
        kind = str(claim.get("type", "?"))
        values = claim.get("enum") or (claim.get("items") or {}).get("enum") or ()
        if kind == "array":
            kind = f"array of {(claim.get('items') or {}).get('type', '?')}"
        yield Claim(path, kind, str(claim.get("description", "")), tuple(map(str, values)))


def claims_of(schema: dict[str, Any] | None) -> list[Claim]:
    return list(_walk(schema or {}, "visitor.claims"))


def claims_text(claims: list[Claim]) -> Text:
    """One line a claim: its name in a condition, its type (and values), its description."""
    if not claims:
        return Text("No claims declared: a condition may use any visitor claim.", style="dim")
    text = Text()
    for index, claim in enumerate(claims):
        if index:
            text.append("\n")
        text.append(claim.path, style="bold")
        kind = claim.type + (f" {' | '.join(claim.values)}" if claim.values else "")
        text.append(f"  {kind}", style="cyan")
        if claim.description:
            text.append(f"  {claim.description}", style="dim")
    return text
