"""Dialogs every job opens: confirm, choose, pick, a form, save, and their base."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from docdeck.tui.kit.dialogs.choose import ChooseDialog
    from docdeck.tui.kit.dialogs.confirm import ConfirmDialog
    from docdeck.tui.kit.dialogs.form import FormDialog, FormField
    from docdeck.tui.kit.dialogs.pick import PickDialog

__all__ = [
    "ChooseDialog",
    "ConfirmDialog",
    "FormDialog",
    "FormField",
    "PickDialog",
]

_LAZY: dict[str, str] = {
    "ChooseDialog": "docdeck.tui.kit.dialogs.choose",
    "ConfirmDialog": "docdeck.tui.kit.dialogs.confirm",
    "FormDialog": "docdeck.tui.kit.dialogs.form",
    "FormField": "docdeck.tui.kit.dialogs.form",
    "PickDialog": "docdeck.tui.kit.dialogs.pick",
}
"""Each public name and the module that defines it, imported on first use."""


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value
