"""The one binding helper: a job's keys get ids `<job>.<action>`, so every key can be
remapped in `[keymap]` by a stable name (the ids are listed in docs/tui.md)."""

from __future__ import annotations

from typing import Protocol

from textual.binding import Binding

__all__ = ["BindingMaker", "binder"]


class BindingMaker(Protocol):
    def __call__(
        self,
        keys: str,
        action: str,
        description: str,
        tooltip: str,
        *,
        show: bool = True,
        priority: bool = False,
    ) -> Binding: ...


def binder(prefix: str) -> BindingMaker:
    """A maker of bindings whose id is `prefix.action` and which carry a tooltip."""

    def make(
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
            id=f"{prefix}.{action}",
            tooltip=tooltip,
            priority=priority,
        )

    return make
