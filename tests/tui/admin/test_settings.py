"""Organization settings against the sandbox: each change one PATCH, checked as typed with
the server's own limits (nothing sent, nothing typed lost), flags toggled, a server refusal
shown in the dialog with the value kept; the node is only an admin's."""

from __future__ import annotations

from collections.abc import Callable

from docdeck.gateway import Client
from docdeck.tui.admin import SettingsScreen, check_setting
from docdeck.tui.admin.settings import SETTINGS
from tui.admin.helpers import open_admin
from tui.conftest import RecordingTransport
from tui.helpers import (
    AppFactory,
    open_northwind,
    screen_lines,
    tree_of,
    visible_labels,
    wait_until,
)


def _setting(name: str):  # type: ignore[no-untyped-def]
    return next(s for s in SETTINGS if s.name == name)


def test_checks_use_the_servers_limits() -> None:
    assert check_setting(_setting("title"), "N") == "Title: at least 2 characters."
    assert "at most 255" in check_setting(_setting("title"), "N" * 256)
    assert check_setting(_setting("hostname"), "ab") == "Hostname: at least 3 characters."
    assert "not a domain" in check_setting(_setting("emailDomains"), "example.com, nope")
    assert check_setting(_setting("emailDomains"), "example.com, example.org") == ""
    assert "http:// or https://" in check_setting(_setting("logo"), "ftp://x/logo.png")
    assert check_setting(_setting("logo"), "") == ""  # empty clears it


async def _row(pilot, screen: SettingsScreen, name: str) -> None:  # type: ignore[no-untyped-def]
    index = [s.name for s in SETTINGS].index(name)
    screen.table.move_cursor(row=index)
    await wait_until(pilot, lambda: screen.highlighted is _setting(name), f"on {name}")


async def test_title_and_a_flag_change_on_the_server(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_admin(pilot, "Settings")
        assert isinstance(screen, SettingsScreen)
        await _row(pilot, screen, "title")
        await pilot.press("enter")
        await pilot.pause()
        field = app.screen.query_one("#field-title")
        field.value = "N"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await pilot.pause()
        assert "Title: at least 2 characters." in "\n".join(screen_lines(pilot))
        assert not any(r.startswith("PATCH") for r in transport.requests)
        assert field.value == "N"  # type: ignore[attr-defined]
        field.value = "Northwind Labs GmbH"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is screen, "the dialog closed")
        await wait_until(
            pilot, lambda: screen.organization.title == "Northwind Labs GmbH", "title shown"
        )
        await _row(pilot, screen, "ai")
        before = screen.organization.ai is True
        await pilot.press("enter")
        await wait_until(pilot, lambda: (screen.organization.ai is True) != before, "AI toggled")
        async with Client("http://sandbox", admin_token, transport=transport) as api:
            stored = await api.orgs.get(screen.organization.id)
        assert stored.title == "Northwind Labs GmbH"
        assert (stored.ai is True) != before


async def test_a_refused_value_stays_in_the_dialog(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_admin(pilot, "Settings")
        assert isinstance(screen, SettingsScreen)
        await _row(pilot, screen, "defaultContent")
        await pilot.press("enter")
        await pilot.pause()
        dialog = app.screen
        dialog.query_one("#field-defaultContent").value = "no-such-site"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await wait_until(
            pilot,
            lambda: any(r.startswith("PATCH") for r in transport.requests),
            "the change is sent",
        )
        await wait_until(
            pilot,
            lambda: (
                "failed" in str(dialog.query_one("#dialog-error").render()).lower()
                or "400" in str(dialog.query_one("#dialog-error").render())
            ),
            "the refusal is shown in the dialog",
        )
        assert app.screen is dialog
        assert dialog.query_one("#field-defaultContent").value == "no-such-site"  # type: ignore[attr-defined]


async def test_settings_and_sso_are_an_admins(
    make_app: AppFactory, token_for: Callable[[str], str]
) -> None:
    app = make_app(token=token_for("bruno@northwind.dev"))  # create role, not admin
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        labels = visible_labels(tree_of(pilot))
        assert "  📜 OpenAPI specs" in labels
        assert "  ⚙ Settings" not in labels


async def test_back_from_settings_the_tree_says_the_organizations_new_title(
    make_app: AppFactory, admin_token: str, transport: RecordingTransport
) -> None:
    """In tmux the organization was renamed on its settings screen; back in the tree (Escape)
    its line still said the old title until `r`."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_admin(pilot, "Settings")
        async with Client("http://sandbox", admin_token, transport=transport) as api:
            await api.orgs.update(screen.organization.id, title="Northwind Labs GmbH")
        await pilot.press("escape")
        await wait_until(
            pilot,
            lambda: "🏢 Northwind Labs GmbH" in visible_labels(tree_of(pilot)),
            "the organization's line says its new title",
        )
