"""The TUI's screens and dialogs."""

from docdeck.tui.screens._choose import ChooseDialog
from docdeck.tui.screens._confirm import ConfirmDialog
from docdeck.tui.screens._connect_error import ConnectErrorScreen
from docdeck.tui.screens._form import FormDialog, FormField
from docdeck.tui.screens._help import HelpRow, HelpScreen, bindings_help
from docdeck.tui.screens._main import BROWSER_ACTIONS, MainScreen
from docdeck.tui.screens._pick import PickDialog

__all__ = [
    "BROWSER_ACTIONS",
    "ChooseDialog",
    "ConfirmDialog",
    "ConnectErrorScreen",
    "FormDialog",
    "FormField",
    "HelpRow",
    "HelpScreen",
    "MainScreen",
    "PickDialog",
    "bindings_help",
]
