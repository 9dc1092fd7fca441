"""The condition of a section or a site space, written beside the site's adaptive schema.

The claims the schema declares (name, type, values, description) are listed next to the
field, and the site's template conditions can be inserted from a list (Enter). The server
decides whether a claim exists: its 400 for an unknown claim is shown under the field,
with the claims the schema declares, and the text stays as typed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Static
from textual.widgets.option_list import Option

from docdeck.models import TemplateCondition
from docdeck.tui.kit.dialogs.form import FormDialog, FormField
from docdeck.tui.kit.list_keys import NavOptionList
from docdeck.tui.sites.claims import Claim, claims_text

__all__ = ["ConditionDialog"]


class ConditionDialog(FormDialog[Any]):
    DEFAULT_CSS = """
    ConditionDialog #condition-field { height: auto; }
    ConditionDialog #condition-sides { height: auto; margin-top: 1; }
    ConditionDialog #condition-schema { width: 1fr; height: auto; }
    ConditionDialog #condition-picks { width: 1fr; height: auto; padding-left: 1; }
    ConditionDialog #condition-claims { height: auto; max-height: 8; }
    ConditionDialog #condition-templates { height: auto; max-height: 8; }
    ConditionDialog .schema-label { color: $text-muted; }
    """

    def __init__(
        self,
        title: str,
        field: FormField,
        submit: Callable[[dict[str, str]], Awaitable[Any]],
        *,
        doing: str,
        claims: list[Claim],
        templates: list[TemplateCondition],
        schema_note: str = "",
    ) -> None:
        """`schema_note`: why the claims are not listed (no schema, or reading it failed)."""
        super().__init__(title, [field], submit, doing=doing)
        self.claims = claims
        self.templates = templates
        self.schema_note = schema_note

    def compose(self) -> ComposeResult:
        field = self.fields[0]
        with Vertical(id="dialog", classes="form"):
            yield Label(self.dialog_title, id="dialog-title", markup=False)
            with Vertical(id="condition-field"):
                yield Label(field.label, classes="field-label", markup=False)
                yield Input(
                    value=field.value, placeholder=field.placeholder, id=f"field-{field.name}"
                )
                yield Static("", id="dialog-error", markup=False)
            with Horizontal(id="condition-sides"):
                with Vertical(id="condition-schema"):
                    yield Label("Claims (adaptive schema)", classes="schema-label", markup=False)
                    claims = (
                        Text(self.schema_note, style="dim")
                        if self.schema_note
                        else claims_text(self.claims)
                    )
                    yield Static(claims, id="condition-claims", markup=False)
                if self.templates:
                    with Vertical(id="condition-picks"):
                        yield Label(
                            "Templates (enter inserts)", classes="schema-label", markup=False
                        )
                        yield NavOptionList(
                            *(Option(t.condition) for t in self.templates),
                            id="condition-templates",
                        )
            with Horizontal(id="dialog-buttons"):
                yield Button(self.action_label, variant="primary", id="dialog-ok")
                yield Button("Cancel", id="dialog-cancel")

    def on_mount(self) -> None:
        super().on_mount()
        frame = self.query_one("#dialog").styles  # the app's `#dialog` rule outranks DEFAULT_CSS
        frame.width, frame.max_width = 110, "95%"
        self.field_input.focus()

    @property
    def field_input(self) -> Input:
        return self.query_one(f"#field-{self.fields[0].name}", Input)

    @on(NavOptionList.OptionSelected, "#condition-templates")
    def _insert(self, event: NavOptionList.OptionSelected) -> None:
        """The template goes in at the cursor (after what is typed: joined with &&)."""
        event.stop()
        if self.sending:
            return
        condition = self.templates[event.option_index].condition
        field = self.field_input
        if field.value.strip() and field.cursor_position >= len(field.value.rstrip()):
            field.value = field.value.rstrip()
            field.cursor_position = len(field.value)
            condition = f" && {condition}"
        field.insert_text_at_cursor(condition)
        field.focus()

    def write_failed(self, error: BaseException) -> None:
        super().write_failed(error)
        message = str(error)
        if "claim" in message and self.claims and "declared" not in message:
            declared = ", ".join(claim.path for claim in self.claims)
            self._set_error(f"{message}\nThe schema declares: {declared}.")
        self.field_input.focus()
