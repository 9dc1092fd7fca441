"""The adaptive schema: shown with its claims, edited as JSON in the dialog or in $EDITOR,
checked before sending, diffed, saved, and checked through the API."""

from __future__ import annotations

import pytest
from textual.widgets import Static, TextArea

from docdeck.gateway import Client
from docdeck.tui.kit.dialogs.discard import DiscardDraft
from docdeck.tui.sites import SiteScreen
from docdeck.tui.sites._json_dialog import JsonDialog
from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, wait_for_workers, wait_until
from tui.review.editor import use_test_editor
from tui.sites.helpers import dialog_error, open_site


def _puts(transport: RecordingTransport) -> list[str]:
    return [r for r in transport.requests if r.startswith("PUT") and "adaptive-schema" in r]


async def _open_schema(pilot: object, app: object) -> JsonDialog:
    await pilot.press("A")  # type: ignore[attr-defined]
    await wait_until(pilot, lambda: isinstance(app.screen, JsonDialog), "the schema dialog")  # type: ignore[arg-type, attr-defined]
    dialog = app.screen  # type: ignore[attr-defined]
    assert isinstance(dialog, JsonDialog)
    return dialog


async def test_invalid_json_names_the_line_and_a_good_edit_is_diffed_then_saved(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_site(pilot)
        dialog = await _open_schema(pilot, app)
        context = str(dialog.query_one("#json-context", Static).render())
        assert "visitor.claims.plan" in context and "Visitor's plan" in context
        assert "visitor.claims.unsigned.locale" in context
        body = dialog.query_one("#json-body", TextArea)
        broken = body.text.replace('"type": "object",', '"type": "object"', 1)
        body.text = broken
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "line 3" in dialog_error(pilot), dialog_error(pilot)
        assert body.text == broken  # nothing typed is lost
        assert body.cursor_location[0] == 2
        assert _puts(transport) == []
        fixed = broken.replace(
            '"type": "object"\n',
            '"type": "object",\n',
            1,
        ).replace(
            '"properties": {\n',
            '"properties": {\n    "region": {"type": "string", "description": "Region"},\n',
            1,
        )
        body.text = fixed
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert dialog.reviewing is not None
        diff = str(dialog.query_one("#json-diff-text", Static).render())
        assert '+    "region"' in diff and "on the server" in diff
        assert _puts(transport) == []
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.screen is screen, "saved")
        await wait_for_workers(pilot)
        client: Client = app.client  # type: ignore[assignment]
        stored = await client.sites.get_adaptive_schema(screen.org_id, screen.site.id)
        assert stored.jsonSchema["properties"]["region"]["description"] == "Region"
        assert "plan" in stored.jsonSchema["properties"]


async def test_a_schema_the_server_refuses_keeps_the_text_and_says_why(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_site(pilot)
        dialog = await _open_schema(pilot, app)
        body = dialog.query_one("#json-body", TextArea)
        # A claim without its description: valid JSON, refused by the server.
        edited = body.text.replace(
            '"properties": {\n', '"properties": {\n    "region": {"type": "string"},\n', 1
        )
        body.text = edited
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_for_workers(pilot)
        assert app.screen is dialog
        error = dialog_error(pilot)
        assert "region" in error and "kept" in error, error
        assert dialog.reviewing is None and body.display
        assert body.text == edited
        client: Client = app.client  # type: ignore[assignment]
        stored = await client.sites.get_adaptive_schema(screen.org_id, screen.site.id)
        assert "region" not in stored.jsonSchema["properties"]


async def test_the_schema_edited_in_editor_is_diffed_then_saved(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_test_editor(monkeypatch, "Visitor's plan=>Subscription plan")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_site(pilot)
        dialog = await _open_schema(pilot, app)
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: dialog.reviewing is not None, "the diff")
        diff = str(dialog.query_one("#json-diff-text", Static).render())
        assert '+      "description": "Subscription plan"' in diff, diff
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.screen is screen, "saved")
        await wait_for_workers(pilot)
        client: Client = app.client  # type: ignore[assignment]
        stored = await client.sites.get_adaptive_schema(screen.org_id, screen.site.id)
        assert stored.jsonSchema["properties"]["plan"]["description"] == "Subscription plan"


async def test_invalid_json_from_the_editor_is_kept_in_the_text_with_its_line(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch, transport: RecordingTransport
) -> None:
    use_test_editor(monkeypatch, '"plan": {=>"plan": {{')
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_site(pilot)
        dialog = await _open_schema(pilot, app)
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: "line" in dialog_error(pilot), "the error")
        assert '"plan": {{' in dialog.query_one("#json-body", TextArea).text
        assert dialog.reviewing is None
        assert _puts(transport) == []
        assert app.screen.focused is dialog.query_one("#json-body", TextArea)
        await pilot.press("escape")  # one Escape leaves, even from the text area: the text
        assert isinstance(app.screen, DiscardDraft)  # differs from the stored copy, so it asks
        await pilot.press("y")
        assert isinstance(app.screen, SiteScreen)


async def test_a_reader_sees_the_schema_but_may_not_save_it(
    make_app: AppFactory, token_for: object, transport: RecordingTransport
) -> None:
    app = make_app(token=token_for("freya@northwind.dev"))  # type: ignore[operator]
    async with app.run_test(size=(80, 24)) as pilot:
        await open_site(pilot)
        dialog = await _open_schema(pilot, app)
        assert dialog.query_one("#json-body", TextArea).read_only
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "create role" in dialog_error(pilot)
        assert _puts(transport) == []
        await pilot.press("escape")
        assert isinstance(app.screen, SiteScreen)
