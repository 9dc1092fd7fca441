"""The one binding helper: a job's keys get ids `<job>.<action>`, so every key can be
remapped in `[keymap]` by a stable name (the ids are listed in docs/tui.md)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding

__all__ = ["HELP", "QUIT", "BindingMaker", "binder"]


@dataclass(frozen=True)
class BindingMaker:
    """A maker of bindings whose id is `prefix.action` and which carry a tooltip."""

    prefix: str

    def __call__(
        self,
        keys: str,
        action: str,
        description: str,
        tooltip: str,
        *,
        show: bool = True,
        priority: bool = False,
    ) -> Binding:
        return Binding(
            keys,
            action,
            description,
            show=show,
            id=f"{self.prefix}.{action}",
            tooltip=tooltip,
            priority=priority,
        )


HELP = Binding("question_mark", "app.help", "Help", id="app.help", tooltip="Every key")
"""The app's `?`, repeated in a screen's own keys so its footer shows it first."""
QUIT = Binding("q", "app.quit", "Quit", id="app.quit", tooltip="Leave docdeck")
"""The app's `q`, likewise."""


def binder(prefix: str) -> BindingMaker:
    """The binding maker of the job whose ids start with `prefix`."""
    return BindingMaker(prefix)
