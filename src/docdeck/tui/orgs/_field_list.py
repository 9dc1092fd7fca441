"""A two-column list of labelled fields, the building block of every detail view."""

from __future__ import annotations

from collections.abc import Iterable

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

__all__ = ["Field", "FieldList"]

Field = tuple[str, str | Text]


class FieldList(Static):
    """Labels on the left, values wrapping on the right, so nothing is cut off at 80 columns."""

    DEFAULT_CSS = """
    FieldList {
        height: auto;
        padding: 0 1;
    }
    """

    def __init__(self, fields: Iterable[Field], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.fields = list(fields)
        self.update(self._table())

    def _table(self) -> Table:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column(overflow="fold")
        for label, value in self.fields:
            # A rich table reads a `str` cell as markup; values are data (a description,
            # a hostname, a title), shown as written.
            table.add_row(Text(label), Text(value) if isinstance(value, str) else value)
        return table

    def set_fields(self, fields: Iterable[Field]) -> None:
        self.fields = list(fields)
        self.update(self._table())

    def value_of(self, label: str) -> str:
        """The plain text shown for a label; what tests and screen readers look at."""
        for name, value in self.fields:
            if name == label:
                return value.plain if isinstance(value, Text) else value
        raise KeyError(label)
