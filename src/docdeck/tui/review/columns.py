"""Columns of the change-request lists (the space's list and the inbox) that fit the width
they are given: fixed columns keep their width, the subject takes the rest, and a cell too
long for its column ends in "…" rather than being cut mid-word without a sign.

And the orders these lists offer (`O` cycles them): the API sorts change requests only by
their default order, so the lists sort what they have read."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from rich.text import Text

from docdeck.models import ChangeRequest

if TYPE_CHECKING:
    from textual.widgets import DataTable

__all__ = ["CR_ORDERS", "cut", "fit_widths", "lay_columns", "next_order", "sort_by"]

T = TypeVar("T")

CELL_PADDING = 1
"""DataTable's `cell_padding`: on each side of every column."""
SCROLLBAR = 2
"""Kept free for the vertical scrollbar, so the columns never need a horizontal one."""

CR_ORDERS: tuple[str, ...] = ("updated", "created", "number", "subject")
"""Newest updated first (the default), newest created first, highest number first,
subject A→Z."""


def fit_widths(
    total: int, fixed: Sequence[tuple[str, int]], flexible: str, *, minimum: int = 12
) -> dict[str, int]:
    """Each fixed column's width, and the flexible one's: what is left of `total`."""
    used = sum(width for _key, width in fixed)
    padding = 2 * CELL_PADDING * (len(fixed) + 1)
    widths = dict(fixed)
    widths[flexible] = max(minimum, total - used - padding - SCROLLBAR)
    return widths


def lay_columns(
    table: DataTable[Any],
    columns: Sequence[tuple[str, str]],
    widths: dict[str, int],
    laid: dict[str, int],
) -> bool:
    """Lay the (key, label) `columns` at `widths` unless the table has them at those widths
    (`laid`) already; True when they were laid: the rows are then gone and must be added again."""
    if widths == laid:
        return False
    table.clear(columns=True)
    for key, label in columns:
        table.add_column(label, key=key, width=widths[key])
    return True


def cut(value: str | Text, width: int) -> Text:
    """The value in at most `width` cells, ending in "…" when it did not fit."""
    text = Text(value) if isinstance(value, str) else value.copy()
    text.truncate(max(1, width), overflow="ellipsis")
    return text


def next_order(order: str) -> str:
    return (
        CR_ORDERS[(CR_ORDERS.index(order) + 1) % len(CR_ORDERS)]
        if order in CR_ORDERS
        else CR_ORDERS[0]
    )


def sort_by(items: list[T], order: str, change_request: Callable[[T], ChangeRequest]) -> list[T]:
    """The items in the order named (`CR_ORDERS`); ties keep the order they had."""
    if order == "created":
        return sorted(items, key=lambda item: change_request(item).createdAt, reverse=True)
    if order == "number":
        return sorted(items, key=lambda item: change_request(item).number, reverse=True)
    if order == "subject":
        return sorted(items, key=lambda item: change_request(item).subject.casefold())
    return sorted(items, key=lambda item: change_request(item).updatedAt, reverse=True)
