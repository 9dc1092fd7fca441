"""Dialogs every job opens: confirm, choose, pick, a form, save, and their base."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docdeck.tui.kit.lazy import lazy_exports

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

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
