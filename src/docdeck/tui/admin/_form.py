"""The administration forms (a SAML provider, a translation): the kit's `FormDialog` laid out
one field per row so six fields fit 80x24, with what it lacks for these:

- a multi-line field (`areas`): a pasted certificate keeps its lines (a one-line input
  keeps only the first line of a paste);
- the reason a field cannot be sent shown on the row under that field, whether the form's
  own check found it before sending or the server's 400 names the field ("certificate: …");
  the field gets the focus, and every value typed stays;
- room for a job's own widgets below the fields (`compose_extra`).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import ClassVar, TypeVar

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Select, Static, TextArea

from docdeck.gateway import BadRequestError
from docdeck.tui.kit.bindings import binder
from docdeck.tui.kit.dialogs import FormDialog, FormField

__all__ = ["AdminForm"]

T = TypeVar("T")
_b = binder("admin_form")
_FIELD_NAMED = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_.]*)\s*:")


class _Fields(VerticalScroll, can_focus=False):
    """The fields, scrolled to the focused one where the terminal is short; the fields take
    the focus, never the scroll area."""


class AdminForm(FormDialog[T]):
    DEFAULT_CSS = """
    AdminForm #dialog { width: 76; }
    AdminForm #form-fields { height: auto; max-height: 16; }
    AdminForm .form-row { height: auto; }
    AdminForm .form-row Label { width: 16; padding: 0 1 0 0; }
    AdminForm .form-row Input, AdminForm .form-row Select { width: 1fr; }
    AdminForm .form-row TextArea { width: 1fr; height: 5; }
    AdminForm .field-error { color: $error; padding-left: 16; height: auto; }
    AdminForm .form-note { color: $text-muted; height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        _b("ctrl+s", "save", "Save", "Send the form from any field", priority=True),
    ]

    def __init__(
        self,
        title: str,
        fields: list[FormField],
        submit: Callable[[dict[str, str]], Awaitable[T]],
        *,
        doing: str,
        action_label: str = "Save",
        areas: frozenset[str] = frozenset(),
        note: str = "",
        aliases: dict[str, str] | None = None,
    ) -> None:
        super().__init__(title, fields, submit, doing=doing, action_label=action_label)
        self.areas = areas
        self.note = note
        self.aliases = aliases or {}
        """The server's name of a field (`source.space`) -> the form's field (`space`)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="form"):
            yield Label(self.dialog_title, id="dialog-title")
            with _Fields(id="form-fields"):
                for field in self.fields:
                    with Horizontal(classes="form-row"):
                        yield Label(field.label, classes="field-label")
                        yield self._widget(field)
                    yield Static("", id=f"error-{field.name}", classes="field-error")
                yield from self.compose_extra()
            if self.note:
                yield Static(self.note, classes="form-note")
            yield Static("", id="dialog-error")
            with Horizontal(id="dialog-buttons"):
                yield Button(self.action_label, variant="primary", id="dialog-ok")
                yield Button("Cancel", id="dialog-cancel")

    def _widget(self, field: FormField) -> Widget:
        name = f"field-{field.name}"
        if field.name in self.areas:
            return TextArea(
                field.value, id=name, compact=True, placeholder=field.placeholder, soft_wrap=True
            )
        if field.choices:
            return Select(
                [(choice, choice) for choice in field.choices],
                value=field.value or field.choices[0],
                allow_blank=False,
                id=name,
                compact=True,
            )
        return Input(value=field.value, placeholder=field.placeholder, id=name, compact=True)

    def compose_extra(self) -> ComposeResult:
        """A job's own widgets below the fields."""
        yield from ()

    def on_mount(self) -> None:
        super().on_mount()
        for field in self.fields:
            self._show_at(field.name, "")
        if self.fields:
            self.query_one(f"#field-{self.fields[0].name}").focus()

    @property
    def values(self) -> dict[str, str]:
        values: dict[str, str] = {}
        for field in self.fields:
            widget = self.query_one(f"#field-{field.name}")
            if isinstance(widget, TextArea):
                value: object = widget.text
            elif isinstance(widget, Input | Select):
                value = widget.value
            else:
                value = ""
            values[field.name] = value if isinstance(value, str) else ""
        return values

    def _show_at(self, name: str, message: str) -> None:
        line = self.query_one(f"#error-{name}", Static)
        line.update(message)
        line.display = bool(message)

    def _clear_field_errors(self) -> None:
        for field in self.fields:
            self._show_at(field.name, "")

    def _focus_field(self, name: str) -> None:
        widget = self.query_one(f"#field-{name}")
        widget.focus()
        widget.scroll_visible(animate=False)

    @on(Input.Changed)
    @on(TextArea.Changed)
    def _changed(self, event: Input.Changed | TextArea.Changed) -> None:
        """A field over its limit says so under it at once, and stops once it fits."""
        event.stop()
        event.prevent_default()
        widget = event.input if isinstance(event, Input.Changed) else event.text_area
        field = next((f for f in self.fields if widget.id == f"field-{f.name}"), None)
        if field is not None and field.max_length:
            self._show_at(field.name, self._too_long(field, self.values[field.name].strip()))

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        """Enter goes to the next field, whatever kind it is; the last one sends."""
        event.stop()
        event.prevent_default()  # not the kit form's handler too (it knows only inputs)
        widgets = [self.query_one(f"#field-{field.name}") for field in self.fields]
        if event.input in widgets and event.input is not widgets[-1]:
            widgets[widgets.index(event.input) + 1].focus()
            return
        self._confirm()

    def action_save(self) -> None:
        self._confirm()

    def _confirm(self) -> None:
        self._clear_field_errors()
        problem = self._problem()
        if problem is not None:
            field, message = problem
            self._set_error("")
            self._show_at(field.name, message)
            self._focus_field(field.name)
            return
        self.send(self.values)

    def write_failed(self, error: BaseException) -> None:
        """The server's refusal goes under the field it names (its message starts with the
        field's name, `certificate: not PEM…`); anything else stays on the error line."""
        super().write_failed(error)
        if not isinstance(error, BadRequestError):
            return
        named = _FIELD_NAMED.match(error.message)
        names = {field.name.lower(): field.name for field in self.fields}
        names |= {alias.lower(): name for alias, name in self.aliases.items()}
        name = names.get(named.group(1).lower()) if named else None
        if name is None:
            return
        self._set_error("")
        self._show_at(name, f"The server refused it: {error.message}")
        self._focus_field(name)
