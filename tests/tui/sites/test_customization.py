"""Customization: GET → $EDITOR → the diff → PUT, never over a copy another client changed
meanwhile; a site space's override is a PATCH of the changes. Checked through the API."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from docdeck.gateway import Client
from docdeck.tui.kit.dialogs.choose import ChooseDialog
from docdeck.tui.sites import SiteScreen
from docdeck.tui.sites._customization import settings_of
from docdeck.tui.sites._json_dialog import JsonDialog
from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, wait_for_workers, wait_until
from tui.review.editor import use_test_editor
from tui.sites.helpers import open_site, put_cursor

OURS = "#0F766E=>#111111"


def _other_client(transport: RecordingTransport, token: str) -> Client:
    return Client("http://sandbox", token, transport=transport, max_retries=0)


async def _edit_in_editor(pilot: object, app: object, screen: SiteScreen) -> JsonDialog:
    await put_cursor(pilot, screen, "Design")  # type: ignore[arg-type]
    await pilot.press("C")  # type: ignore[attr-defined]
    await wait_until(
        pilot,  # type: ignore[arg-type]
        lambda: isinstance(app.screen, JsonDialog) and app.screen.reviewing is not None,  # type: ignore[attr-defined]
        "the diff of the edit",
    )
    dialog = app.screen  # type: ignore[attr-defined]
    diff = str(dialog.query_one("#json-diff-text", Static).render())
    assert '-      "light": "#0F766E"' in diff and '+      "light": "#111111"' in diff, diff
    return dialog  # type: ignore[no-any-return]


async def test_a_customization_changed_meanwhile_keeps_the_other_change(
    make_app: AppFactory,
    monkeypatch: pytest.MonkeyPatch,
    transport: RecordingTransport,
    admin_token: str,
) -> None:
    use_test_editor(monkeypatch, OURS)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_site(pilot)
        await _edit_in_editor(pilot, app, screen)
        other = _other_client(transport, admin_token)
        theirs = settings_of(await other.sites.customization.get(screen.org_id, screen.site.id))
        theirs["favicon"] = {"emoji": "🚀"}
        await other.sites.customization.update(screen.org_id, screen.site.id, theirs)
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.screen is screen, "saved")
        await wait_for_workers(pilot)
        now = settings_of(await other.sites.customization.get(screen.org_id, screen.site.id))
        assert now["styling"]["primaryColor"]["light"] == "#111111"  # ours
        assert now["favicon"] == {"emoji": "🚀"}  # theirs, not overwritten
        assert any("changed meanwhile" in n.message for n in app._notifications)


async def test_a_setting_both_changed_is_not_overwritten_until_the_user_saves_again(
    make_app: AppFactory,
    monkeypatch: pytest.MonkeyPatch,
    transport: RecordingTransport,
    admin_token: str,
) -> None:
    use_test_editor(monkeypatch, OURS)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_site(pilot)
        dialog = await _edit_in_editor(pilot, app, screen)
        typed = dialog.text
        other = _other_client(transport, admin_token)
        org, site = screen.org_id, screen.site.id
        theirs = settings_of(await other.sites.customization.get(org, site))
        theirs["styling"]["primaryColor"]["light"] = "#222222"
        theirs["favicon"] = {"emoji": "🚀"}
        await other.sites.customization.update(org, site, theirs)
        await pilot.press("ctrl+s")
        await wait_for_workers(pilot)
        assert app.screen is dialog
        error = str(dialog.query_one("#dialog-error", Static).render())
        assert "changed meanwhile" in error and "styling.primaryColor.light" in error, error
        assert dialog.text == typed  # the user's text is kept
        now = settings_of(await other.sites.customization.get(org, site))
        assert now["styling"]["primaryColor"]["light"] == "#222222"  # not overwritten
        # Saving again: the diff is against the fresh copy, and their favicon stays.
        await pilot.press("ctrl+s")
        await pilot.pause()
        diff = str(dialog.query_one("#json-diff-text", Static).render())
        assert '-      "light": "#222222"' in diff and "🚀" not in diff.replace(" ", ""), diff
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.screen is screen, "saved")
        await wait_for_workers(pilot)
        now = settings_of(await other.sites.customization.get(org, site))
        assert now["styling"]["primaryColor"]["light"] == "#111111"
        assert now["favicon"] == {"emoji": "🚀"}


async def test_a_site_space_override_sends_only_the_change(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch, transport: RecordingTransport
) -> None:
    ai = '"ai": {\\n    "mode": '
    use_test_editor(monkeypatch, f'{ai}"search"=>{ai}"assistant"')
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_site(pilot)
        await put_cursor(pilot, screen, "Design System")
        row = screen.view.current
        assert row is not None
        await pilot.press("C")
        await wait_until(pilot, lambda: isinstance(app.screen, ChooseDialog), "the choice")
        await pilot.press("down", "enter")
        await wait_until(
            pilot,
            lambda: isinstance(app.screen, JsonDialog) and app.screen.reviewing is not None,
            "the diff",
        )
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.screen is screen, "saved")
        await wait_for_workers(pilot)
        assert not any(r.startswith("PUT") for r in transport.requests)
        client: Client = app.client  # type: ignore[assignment]
        org, site = screen.org_id, screen.site.id
        mine = await client.sites.customization.get_site_space(org, site, row.id)
        assert mine.ai == {"mode": "assistant"}
        assert (await client.sites.customization.get(org, site)).ai == {"mode": "search"}
