"""A JSON document of the site (its adaptive schema, a customization), edited in a text
area or in `$EDITOR`, checked and shown as a diff before it is sent.

ctrl+s reads the text: a mistake is named with its line and the cursor goes there; text
equal to what the server holds sends nothing; otherwise the diff against the stored copy
is shown and ctrl+s again saves (escape goes back to the text). ctrl+o hands the text to
`$EDITOR` (`kit/editor.py`) and reviews what comes back the same way. Whatever fails —
the JSON, the editor, the server's answer — the text stays as typed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Label, Static, TextArea

from docdeck.tui.kit.dialogs.request import RequestDialog
from docdeck.tui.kit.workers import work
from docdeck.tui.sites.json_edit import JsonProblem, diff_lines, diff_text, parse_object

__all__ = ["ChangedMeanwhile", "JsonDialog"]


class ChangedMeanwhile(Exception):
    """The server's copy changed since the dialog read it and the edit cannot simply be put
    on it: the dialog says so, keeps the text, and diffs against `fresh` from now on."""

    def __init__(self, message: str, fresh: dict[str, Any]) -> None:
        super().__init__(message)
        self.fresh = fresh


class JsonDialog(RequestDialog[Any]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "ctrl+s",
            "save",
            "Check/Save",
            id="site_json.save",
            tooltip="Check the JSON and show the diff; pressed again on the diff: save",
        ),
        Binding(
            "ctrl+o",
            "external_editor",
            "$EDITOR",
            id="site_json.editor",
            tooltip="Edit the JSON in your own editor ($VISUAL or $EDITOR)",
        ),
    ]
    DEFAULT_CSS = """
    JsonDialog #json-context { height: auto; max-height: 6; color: $text; }
    JsonDialog #json-body { height: 1fr; }
    JsonDialog #json-diff { height: 1fr; border: round $foreground 30%; }
    JsonDialog #dialog-error { height: auto; max-height: 4; }
    """

    def __init__(
        self,
        title: str,
        context: Text | str,
        stored: dict[str, Any] | None,
        text: str,
        submit: Callable[[dict[str, Any]], Awaitable[Any]],
        *,
        what: str,
        doing: str,
        review: bool = False,
        read_only: str = "",
        rebase: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]] | None = None,
    ) -> None:
        """`stored`: what the server holds (None: nothing yet); `review`: open on the diff
        (the text came from `$EDITOR`); `read_only`: why the user may not save ("" if may);
        `rebase(text's value, stored)`: what is sent for the text once `stored` is a fresher
        copy than the one the text was edited from (the diff shows that)."""
        super().__init__(title, doing, submit)
        self.context = context
        self.stored = stored
        self.initial = text
        self.what = what
        self.review_on_open = review
        self.read_only_reason = read_only
        self.rebase = rebase
        self.error_text = ""
        self.reviewing: dict[str, Any] | None = None
        """The checked value whose diff is shown (ctrl+s sends it); None while editing."""

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="json"):
            yield Label(self.dialog_title, id="dialog-title", markup=False)
            yield Static(self.context, id="json-context", markup=False)
            yield TextArea.code_editor(
                self.initial,
                language=None,
                soft_wrap=False,
                tab_behavior="focus",  # "indent" takes Escape (it moves focus): one closes
                show_line_numbers=True,
                read_only=bool(self.read_only_reason),
                id="json-body",
            )
            with VerticalScroll(id="json-diff"):
                yield Static("", id="json-diff-text", markup=False)
            yield Static("", id="dialog-error", markup=False)
            with Horizontal(id="dialog-buttons"):
                yield Button("Check (ctrl+s)", variant="primary", id="dialog-ok")
                yield Button("$EDITOR (ctrl+o)", id="json-editor")
                yield Button("Cancel (esc)", id="dialog-cancel")

    def on_mount(self) -> None:
        # Inline: the app's `#dialog` rule (width 64, height auto) outranks DEFAULT_CSS.
        frame = self.query_one("#dialog").styles
        frame.width, frame.max_width, frame.height = 100, "95%", "95%"
        self._set_error(self.read_only_reason and f"Read only: {self.read_only_reason}")
        self.query_one("#json-diff").display = False
        self.body.focus()
        if self.review_on_open:
            self.action_save()

    @property
    def body(self) -> TextArea:
        return self.query_one("#json-body", TextArea)

    @property
    def text(self) -> str:
        return self.body.text

    @property
    def edited(self) -> bool:
        return not self.read_only_reason and self.text != self.initial

    def _read_only(self, read_only: bool) -> None:
        super()._read_only(read_only)
        self.body.read_only = read_only or bool(self.read_only_reason)

    # ----- checking, the diff, saving ----------------------------------------------------------

    def action_save(self) -> None:
        if self.sending:
            return
        if self.read_only_reason:
            self._set_error(f"Not saved: {self.read_only_reason}")
            return
        if self.reviewing is not None:
            self.send(self.reviewing)
            return
        value = parse_object(self.text, self.what)
        if isinstance(value, JsonProblem):
            self._set_error(f"{value.message} Nothing was sent; your text is kept.")
            self.body.focus()
            self.body.move_cursor((value.line - 1, max(value.column - 1, 0)))
            return
        if self.rebase is not None and self.stored is not None:
            value = self.rebase(value, self.stored)
        if value == self.stored:
            self._set_error(f"Nothing to save: {self.what} is what the server has.")
            return
        self._review(value)

    def _review(self, value: dict[str, Any]) -> None:
        self.reviewing = value
        lines = diff_lines(self.stored or {}, value, "on the server", "yours")
        self.query_one("#json-diff-text", Static).update(diff_text(lines))
        self.body.display = False
        self.query_one("#json-diff").display = True
        self.query_one("#json-diff").focus()
        self.query_one("#dialog-ok", Button).label = "Save (ctrl+s)"
        self.query_one("#dialog-cancel", Button).label = "Back to the text (esc)"
        self._set_error("")

    def _edit(self) -> None:
        self.reviewing = None
        self.query_one("#json-diff").display = False
        self.body.display = True
        self.body.focus()
        self.query_one("#dialog-ok", Button).label = "Check (ctrl+s)"
        self.query_one("#dialog-cancel", Button).label = "Cancel (esc)"

    def _set_error(self, message: str) -> None:
        self.error_text = message
        super()._set_error(message)

    def write_failed(self, error: BaseException) -> None:
        if isinstance(error, ChangedMeanwhile):
            self.stored = error.fresh
            self._write = None
            self._read_only(False)
            message = str(error)
        else:
            super().write_failed(error)
            message = self.error_text
        self._edit()
        self._set_error(f"{message}\nYour text is kept: correct it and press ctrl+s.")

    # ----- $EDITOR -----------------------------------------------------------------------------

    def action_external_editor(self) -> None:
        if self.sending or self.read_only_reason:
            return
        self._edit_externally()

    @work(group="json-editor", exclusive=True)
    async def _edit_externally(self) -> None:
        from docdeck.tui.kit.editor import edit_text

        edited = await edit_text(self.app, self.text, suffix=".json")
        if edited is None or self.sending:
            return
        self._edit()
        self.body.text = edited
        self.action_save()

    # ----- buttons and escape ------------------------------------------------------------------

    @on(Button.Pressed, "#dialog-ok")
    def _ok(self) -> None:
        self.action_save()

    @on(Button.Pressed, "#json-editor")
    def _editor(self) -> None:
        self.action_external_editor()

    @on(Button.Pressed, "#dialog-cancel")
    def _cancel(self) -> None:
        self.action_cancel()

    def action_cancel(self) -> None:
        """Escape on the diff goes back to the text; on the text it closes."""
        if self.reviewing is not None and not self.sending:
            self._edit()
            self._set_error("")
            return
        super().action_cancel()
