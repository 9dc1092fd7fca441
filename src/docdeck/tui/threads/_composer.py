"""The composer: a comment, reply or edit written in a text area, in a dialog.

ctrl+s (or the button) posts. The post is a write of the screen below
(`docdeck.tui.kit.in_flight`): if it fails, the dialog stays open with the server's reason
and the text as typed, editable again — a draft is never lost. Escape on a draft that
differs from what the dialog opened with asks before throwing it away (as every
dialog does: `RequestDialog.edited`). ctrl+o hands the
draft to `$EDITOR` (`docdeck.tui.kit.editor`, shared with the review pane's authoring) and
puts what the editor saved back in the text area, to post from there.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label, Static, TextArea

from docdeck.tui.kit.dialogs.discard import DiscardDraft
from docdeck.tui.kit.dialogs.request import RequestDialog
from docdeck.tui.kit.workers import work

__all__ = ["Composer", "DiscardDraft"]


class Composer(RequestDialog[Any]):
    discard_question = "Throw this draft away?"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "post", "Post", id="composer.post", tooltip="Send what you wrote"),
        Binding(
            "ctrl+o",
            "external_editor",
            "$EDITOR",
            id="composer.editor",
            tooltip="Write the text in your own editor ($VISUAL or $EDITOR)",
        ),
    ]
    DEFAULT_CSS = """
    Composer #dialog.composer { width: 90; }
    Composer #composer-context { color: $text-muted; height: auto; max-height: 4; }
    Composer #composer-body { height: 10; margin-top: 1; }
    """

    def __init__(
        self,
        title: str,
        context: Text | str,
        submit: Callable[[str], Awaitable[Any]],
        *,
        doing: str,
        text: str = "",
        action_label: str = "Post",
    ) -> None:
        super().__init__(title, doing, submit)
        self.context = context
        self.initial = text
        self.action_label = action_label

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="composer"):
            yield Label(self.dialog_title, id="dialog-title", markup=False)
            yield Static(self.context, id="composer-context", markup=False)
            yield TextArea(self.initial, id="composer-body", soft_wrap=True)
            yield Static("", id="dialog-error", markup=False)
            with Horizontal(id="dialog-buttons"):
                yield Button(f"{self.action_label} (ctrl+s)", variant="primary", id="dialog-ok")
                yield Button("$EDITOR (ctrl+o)", id="composer-editor")
                yield Button("Cancel (esc)", id="dialog-cancel")

    def on_mount(self) -> None:
        self._set_error("")
        body = self.body
        body.focus()
        body.move_cursor(body.document.end)

    @property
    def body(self) -> TextArea:
        return self.query_one("#composer-body", TextArea)

    @property
    def text(self) -> str:
        return self.body.text

    def _read_only(self, read_only: bool) -> None:
        super()._read_only(read_only)
        self.body.read_only = read_only

    def action_post(self) -> None:
        if self.sending:
            return
        text = self.text
        if not text.strip():
            self._set_error("Write something first (an empty comment cannot be posted).")
            self.body.focus()
            return
        self.send(text)

    @on(Button.Pressed, "#dialog-ok")
    def _ok(self) -> None:
        self.action_post()

    @on(Button.Pressed, "#composer-editor")
    def _editor(self) -> None:
        self.action_external_editor()

    def action_external_editor(self) -> None:
        """The draft goes to `$EDITOR` (the app suspends) and comes back into the text area;
        an editor that fails or changes nothing leaves the draft as it was."""
        if self.sending:
            return
        self._edit_externally()

    @work(group="composer-editor", exclusive=True)
    async def _edit_externally(self) -> None:
        from docdeck.tui.kit.editor import edit_text

        edited = await edit_text(self.app, self.text)
        if edited is not None and not self.sending:
            self.body.text = edited.rstrip("\n")
            self.body.move_cursor(self.body.document.end)
        self.body.focus()

    @on(Button.Pressed, "#dialog-cancel")
    def _cancel(self) -> None:
        self.action_cancel()

    @property
    def edited(self) -> bool:
        return bool(self.text.strip()) and self.text != self.initial
