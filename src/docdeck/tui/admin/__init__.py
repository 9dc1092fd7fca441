"""Organization administration: settings, OpenAPI specs, single sign-on, translations.

The org tree shows a node per view under each organization (`kit/entries.py`'s
`AdminEntry`); Enter posts `OpenAdmin`, and `app.py` pushes `admin_screen(...)`.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from docdeck.tui.admin._base import AdminScreen
    from docdeck.tui.admin._screens import admin_screen
    from docdeck.tui.admin._settings_screen import SettingsScreen
    from docdeck.tui.admin._spec_content import OperationTree, SpecContentScreen
    from docdeck.tui.admin._specs_screen import SpecsScreen, state_text
    from docdeck.tui.admin.checks import check_http_url, check_slug, check_spec_source
    from docdeck.tui.admin.settings import check_setting
    from docdeck.tui.admin.spec_outline import Operation, Outline, PathItem, outline

__all__ = [
    "AdminScreen",
    "Operation",
    "OperationTree",
    "Outline",
    "PathItem",
    "SettingsScreen",
    "SpecContentScreen",
    "SpecsScreen",
    "admin_screen",
    "check_http_url",
    "check_setting",
    "check_slug",
    "check_spec_source",
    "outline",
    "state_text",
]

_LAZY: dict[str, str] = {
    "AdminScreen": "docdeck.tui.admin._base",
    "Operation": "docdeck.tui.admin.spec_outline",
    "OperationTree": "docdeck.tui.admin._spec_content",
    "Outline": "docdeck.tui.admin.spec_outline",
    "PathItem": "docdeck.tui.admin.spec_outline",
    "SettingsScreen": "docdeck.tui.admin._settings_screen",
    "SpecContentScreen": "docdeck.tui.admin._spec_content",
    "SpecsScreen": "docdeck.tui.admin._specs_screen",
    "admin_screen": "docdeck.tui.admin._screens",
    "check_http_url": "docdeck.tui.admin.checks",
    "check_setting": "docdeck.tui.admin.settings",
    "check_slug": "docdeck.tui.admin.checks",
    "check_spec_source": "docdeck.tui.admin.checks",
    "outline": "docdeck.tui.admin.spec_outline",
    "state_text": "docdeck.tui.admin._specs_screen",
}
"""Each public name and the module that defines it, imported on first use."""


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value
