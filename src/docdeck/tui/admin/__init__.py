"""Organization administration: settings, OpenAPI specs, single sign-on, translations.

The org tree shows a node per view under each organization (`kit/entries.py`'s
`AdminEntry`); Enter posts `OpenAdmin`, and `app.py` pushes `admin_screen(...)`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docdeck.tui.kit.lazy import lazy_exports

if TYPE_CHECKING:
    from docdeck.tui.admin._base import AdminScreen
    from docdeck.tui.admin._form import AdminForm, FormPart
    from docdeck.tui.admin._screens import admin_screen
    from docdeck.tui.admin._settings_screen import SettingsScreen
    from docdeck.tui.admin._spec_content import OperationTree, SpecContentScreen
    from docdeck.tui.admin._specs_screen import SpecsScreen, state_text
    from docdeck.tui.admin._sso_screen import SSOScreen
    from docdeck.tui.admin._translations_screen import (
        LANGUAGES,
        NO_TRANSLATOR_WORDS,
        TranslationInstructions,
        TranslationsScreen,
    )
    from docdeck.tui.admin.certificates import check_certificate, read_certificate
    from docdeck.tui.admin.checks import check_http_url, check_slug, check_spec_source
    from docdeck.tui.admin.instructions import document_of, text_of
    from docdeck.tui.admin.settings import check_setting
    from docdeck.tui.admin.spec_outline import Operation, Outline, PathItem, outline

__all__ = [
    "LANGUAGES",
    "NO_TRANSLATOR_WORDS",
    "AdminForm",
    "AdminScreen",
    "FormPart",
    "Operation",
    "OperationTree",
    "Outline",
    "PathItem",
    "SSOScreen",
    "SettingsScreen",
    "SpecContentScreen",
    "SpecsScreen",
    "TranslationInstructions",
    "TranslationsScreen",
    "admin_screen",
    "check_certificate",
    "check_http_url",
    "check_setting",
    "check_slug",
    "check_spec_source",
    "document_of",
    "outline",
    "read_certificate",
    "state_text",
    "text_of",
]

_LAZY: dict[str, str] = {
    "AdminForm": "docdeck.tui.admin._form",
    "FormPart": "docdeck.tui.admin._form",
    "LANGUAGES": "docdeck.tui.admin._translations_screen",
    "NO_TRANSLATOR_WORDS": "docdeck.tui.admin._translations_screen",
    "SSOScreen": "docdeck.tui.admin._sso_screen",
    "TranslationInstructions": "docdeck.tui.admin._translations_screen",
    "TranslationsScreen": "docdeck.tui.admin._translations_screen",
    "check_certificate": "docdeck.tui.admin.certificates",
    "document_of": "docdeck.tui.admin.instructions",
    "read_certificate": "docdeck.tui.admin.certificates",
    "text_of": "docdeck.tui.admin.instructions",
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

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
