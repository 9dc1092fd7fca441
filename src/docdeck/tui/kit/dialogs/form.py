"""A dialog of text fields (titles, emoji, emails, a comment of several lines) whose values go
into one request."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Select, Static, TextArea

from docdeck.tui.kit.dialogs.request import RequestDialog

__all__ = ["FormDialog", "FormField"]

T = TypeVar("T")


@dataclass(frozen=True)
class FormField:
    name: str
    label: str
    value: str = ""
    placeholder: str = ""
    required: bool = False
    max_length: int = 0
    """The API's limit for the field. The input takes more (a paste is never cut silently) and
    says how far over it is; the dialog does not send until it fits."""
    choices: tuple[str, ...] = ()
    """When given, the field is a picker of these values (no free text to mistype)."""
    check: Callable[[str], str] | None = None
    """A check of the trimmed value done before sending: "" when fine, else what is wrong."""
    multiline: bool = False
    """Several lines (a comment): Enter starts a new line, ctrl+s sends the dialog."""


def _lowered(choices: tuple[str, ...]) -> set[str]:
    """Choices compare without case (a typed role), whatever case the labels are in."""
    return {choice.lower() for choice in choices}


class FormDialog(RequestDialog[T]):
    """Enter in the last field (or the button) sends, ctrl+s from any field; escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "send_form", "Send", id="form.send", tooltip="Send the dialog"),
    ]

    # A field's list of choices (a page's parent among a space's pages) opens under the
    # field; Textual's 12 rows ran over the dialog and the footer at 80x24. Typing a
    # letter in the list moves to the choices that start with it.
    DEFAULT_CSS = "FormDialog Select > SelectOverlay { max-height: 8; }"

    def __init__(
        self,
        title: str,
        fields: list[FormField],
        submit: Callable[[dict[str, str]], Awaitable[T]],
        *,
        doing: str,
        action_label: str = "Save",
    ) -> None:
        super().__init__(title, doing, submit)
        self.fields = fields
        self.action_label = action_label
        self._length_error = False
        self._problem_said: tuple[str, str] | None = None
        """The field whose problem the error line says (`_confirm`) and its value then: said
        until that value is edited."""
        self._opened_with: dict[str, str] | None = None
        """The values as the form opened (`edited` compares with them)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="form"):
            yield Label(self.dialog_title, id="dialog-title", markup=False)
            for field in self.fields:
                yield Label(field.label, classes="field-label", markup=False)
                if field.choices:
                    yield Select(
                        [
                            (Text(choice), choice) for choice in field.choices
                        ],  # as written, not markup
                        value=field.value or field.choices[0],
                        allow_blank=False,
                        id=f"field-{field.name}",
                    )
                    continue
                if field.multiline:
                    area = TextArea(field.value, id=f"field-{field.name}", soft_wrap=True)
                    area.styles.height = 5
                    yield area
                    continue
                yield Input(
                    value=field.value,
                    placeholder=field.placeholder,
                    id=f"field-{field.name}",
                )
            yield Static("", id="dialog-error", markup=False)
            with Horizontal(id="dialog-buttons"):
                yield Button(self.action_label, variant="primary", id="dialog-ok")
                yield Button("Cancel", id="dialog-cancel")

    def on_mount(self) -> None:
        self._set_error("")
        self._opened_with = self.values

    @property
    def edited(self) -> bool:
        return self._opened_with is not None and self.values != self._opened_with

    def _read_only(self, read_only: bool) -> None:
        super()._read_only(read_only)
        for area in self.query(TextArea):
            area.read_only = read_only

    @property
    def values(self) -> dict[str, str]:
        values: dict[str, str] = {}
        for field in self.fields:
            widget = self.query_one(f"#field-{field.name}")
            if isinstance(widget, TextArea):
                values[field.name] = widget.text
                continue
            value = widget.value if isinstance(widget, Input | Select) else ""
            values[field.name] = value if isinstance(value, str) else ""
        return values

    def _problem(self) -> tuple[FormField, str] | None:
        """The first field whose value cannot be sent, and why (checked before any request)."""
        values = self.values
        for field in self.fields:
            value = values[field.name].strip()
            if field.required and not value:
                return field, f"{field.label} is required."
            too_long = self._too_long(field, value)
            if too_long:
                return field, too_long
            if field.choices and value and value.lower() not in _lowered(field.choices):
                return field, f"{field.label}: must be one of {', '.join(field.choices)}."
            checked = field.check(value) if field.check is not None and value else ""
            if checked:
                return field, checked
        return None

    @staticmethod
    def _too_long(field: FormField, value: str) -> str:
        if field.max_length and len(value) > field.max_length:
            over = len(value) - field.max_length
            return (
                f"{field.label}: at most {field.max_length} characters; "
                f"this is {len(value)} ({over} too many)."
            )
        return ""

    @on(Input.Changed)
    @on(TextArea.Changed)
    def _changed(self, event: Input.Changed | TextArea.Changed) -> None:
        """Say at once when a field goes over its limit, and stop saying it once it fits; a
        field's problem found at sending stops being said once that field is edited (it is
        checked again at the next send: a check may read a file)."""
        event.stop()
        values = self.values
        said = self._problem_said
        if said is not None and values[said[0]] != said[1]:
            # (a change is compared with the value checked: the event of an edit made just
            # before sending may arrive after the problem is said)
            self._problem_said = None
            self._set_error("")
        for field in self.fields:
            message = self._too_long(field, values[field.name].strip())
            if message:
                self._set_error(message)
                self._length_error = True
                return
        if self._length_error:
            self._set_error("")
            self._length_error = False

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        inputs = list(self.query(Input))
        if event.input is not inputs[-1]:
            inputs[inputs.index(event.input) + 1].focus()
            return
        self._confirm()

    @on(Button.Pressed, "#dialog-ok")
    def _ok(self) -> None:
        self._confirm()

    def action_send_form(self) -> None:
        self._confirm()

    @on(Button.Pressed, "#dialog-cancel")
    def _cancel(self) -> None:
        self.action_cancel()

    def _confirm(self) -> None:
        problem = self._problem()
        if problem is not None:
            field, message = problem
            self._set_error(message)
            self._problem_said = (field.name, self.values[field.name])
            self.query_one(f"#field-{field.name}").focus()  # an Input or a Select
            return
        self._problem_said = None
        self.send(self.values)
