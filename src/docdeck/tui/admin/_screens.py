"""Which screen each administration view is (`OpenAdmin.view`)."""

from __future__ import annotations

from docdeck.models import Organization
from docdeck.tui.admin._base import AdminScreen

__all__ = ["admin_screen"]


def admin_screen(organization: Organization, view: str) -> AdminScreen:
    if view == "openapi":
        from docdeck.tui.admin._specs_screen import SpecsScreen

        return SpecsScreen(organization)
    if view == "settings":
        from docdeck.tui.admin._settings_screen import SettingsScreen

        return SettingsScreen(organization)
    if view == "sso":
        from docdeck.tui.admin._sso_screen import SSOScreen

        return SSOScreen(organization)
    if view == "translations":
        from docdeck.tui.admin._translations_screen import TranslationsScreen

        return TranslationsScreen(organization)
    raise ValueError(f"no administration view {view!r}")
