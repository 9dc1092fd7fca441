"""The administration forms (a SAML provider, a translation): the kit's `FormDialog` laid out
one field per row so six fields fit 80x24, with what it lacks for these:

- a multi-line field (`areas`): a pasted certificate keeps its lines (a one-line input
  keeps only the first line of a paste);
- the reason a field cannot be sent shown on the row under that field, whether the form's
  own check found it before sending or the server's 400 names the field ("certificate: …");
  the field gets the focus, and every value typed stays;
- a job's own part below the fields (`FormPart`: the translation's instructions written in
  `$EDITOR`), whose value joins the form's values and whose keys work from any field;
- a check across fields (`check`: two languages that must differ), said under its field.

A job composes the form from these; it does not subclass it.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import ClassVar, TypeVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Select, Static, TextArea

from docdeck.gateway import BadRequestError
from docdeck.tui.kit.bindings import binder
from docdeck.tui.kit.dialogs import FormDialog, FormField

__all__ = ["AdminForm", "CrossCheck", "FormPart"]

T = TypeVar("T")
_b = binder("admin_form")
_FIELD_NAMED = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_.]*)\s*:")

CrossCheck = Callable[[dict[str, str]], tuple[str, str] | None]
"""A check of the values together, before sending: None when fine, else the field to show
it under and what is wrong."""


class FormPart(Widget):
    """A job's own widget below an `AdminForm`'s fields. Its `value` joins the form's values
    under `FIELD`; its `BINDINGS` are the form's too, so they work from any field."""

    DEFAULT_CSS = "FormPart { height: auto; }"
    FIELD: ClassVar[str]

    @property
    def value(self) -> str:
        raise NotImplementedError

    @property
    def sending(self) -> bool:
        """The form's request is running: the part changes nothing now."""
        form = self.screen
        return isinstance(form, AdminForm) and form.sending


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
        part: FormPart | None = None,
        check: CrossCheck | None = None,
    ) -> None:
        super().__init__(title, fields, submit, doing=doing, action_label=action_label)
        self.areas = areas
        self.note = note
        self.aliases = aliases or {}
        """The server's name of a field (`source.space`) -> the form's field (`space`)."""
        self.part = part
        self.check = check
        self._said_at: dict[str, str] = {}
        """A field's value when a problem was said under it: said until the value changes."""
        if part is not None:  # its keys, from any field: run on the part (`action_part`)
            for _key, binding in part._bindings:
                moved = replace(binding, action=f"part({binding.action!r})")
                self._bindings.key_to_bindings.setdefault(moved.key, []).append(moved)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="form"):
            yield Label(self.dialog_title, id="dialog-title", markup=False)
            with _Fields(id="form-fields"):
                for field in self.fields:
                    with Horizontal(classes="form-row"):
                        yield Label(field.label, classes="field-label", markup=False)
                        yield self._widget(field)
                    yield Static("", id=f"error-{field.name}", classes="field-error", markup=False)
                if self.part is not None:
                    yield self.part
            if self.note:
                yield Static(self.note, classes="form-note", markup=False)
            yield Static("", id="dialog-error", markup=False)
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
                [(Text(choice), choice) for choice in field.choices],  # as written
                value=field.value or field.choices[0],
                allow_blank=False,
                id=name,
                compact=True,
            )
        return Input(value=field.value, placeholder=field.placeholder, id=name, compact=True)

    def on_mount(self) -> None:
        super().on_mount()
        for field in self.fields:
            self._show_at(field.name, "")
        if self.fields:
            self.query_one(f"#field-{self.fields[0].name}").focus()

    @property
    def values(self) -> dict[str, str]:
        values = super().values
        if self.part is not None:
            values[self.part.FIELD] = self.part.value
        return values

    def _problem(self) -> tuple[FormField, str] | None:
        problem = super()._problem()
        if problem is not None or self.check is None:
            return problem
        found = self.check(self.values)
        if found is None:
            return None
        name, message = found
        return next(f for f in self.fields if f.name == name), message

    async def action_part(self, action: str) -> None:
        """A key of the part's, pressed anywhere in the form."""
        if self.part is not None:
            await self.app.run_action(action, self.part)

    def _show_at(self, name: str, message: str) -> None:
        line = self.query_one(f"#error-{name}", Static)
        line.update(message)
        line.display = bool(message)

    def _clear_field_errors(self) -> None:
        self._said_at.clear()
        for field in self.fields:
            self._show_at(field.name, "")

    def _focus_field(self, name: str) -> None:
        widget = self.query_one(f"#field-{name}")
        widget.focus()
        widget.scroll_visible(animate=False)

    @on(Input.Changed)
    @on(TextArea.Changed)
    def _changed(self, event: Input.Changed | TextArea.Changed) -> None:
        """A field over its limit says so under it at once, and stops once it fits; any other
        problem said under a field (found at sending, or the server's) goes once the field is
        edited (it is checked again at the next send)."""
        event.stop()
        event.prevent_default()
        widget = event.input if isinstance(event, Input.Changed) else event.text_area
        field = next((f for f in self.fields if widget.id == f"field-{f.name}"), None)
        if field is None:
            return
        value = self.values[field.name]
        if self._said_at.get(field.name) == value:
            return  # (the event of an edit made just before sending, arriving after it)
        self._said_at.pop(field.name, None)
        self._show_at(field.name, self._too_long(field, value.strip()))

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
            self._said_at[field.name] = self.values[field.name]
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
        self._said_at[name] = self.values[name]
        self._focus_field(name)
