"""The condition editor: the adaptive schema beside the field, templates inserted, the
server's 400 for an unknown claim shown at the field; checked through the API."""

from __future__ import annotations

from textual.widgets import Static

from docdeck.gateway import Client
from docdeck.tui.kit.list_keys import NavOptionList
from docdeck.tui.sites import SiteScreen
from docdeck.tui.sites._condition import ConditionDialog
from tui.helpers import AppFactory, dialog_input, type_text, wait_for_workers, wait_until
from tui.sites.helpers import dialog_error, open_site, put_cursor


async def _section_condition(app: object, screen: SiteScreen, title: str) -> str | None:
    client: Client = app.client  # type: ignore[attr-defined]
    async for section in client.sites.sections.list(screen.org_id, screen.site.id):
        if section.title == title:
            return section.condition
    raise AssertionError(f"no section {title}")


async def _open_condition(pilot: object, app: object, screen: SiteScreen, row: str) -> None:
    await put_cursor(pilot, screen, row)  # type: ignore[arg-type]
    await pilot.press("c")  # type: ignore[attr-defined]
    await wait_until(pilot, lambda: isinstance(app.screen, ConditionDialog), "the dialog")  # type: ignore[arg-type, attr-defined]


async def test_the_schema_is_beside_the_field_and_a_template_is_inserted(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_site(pilot)
        await _open_condition(pilot, app, screen, "Runbooks")
        claims = str(app.screen.query_one("#condition-claims", Static).render())
        assert "visitor.claims.plan" in claims and "Visitor's plan" in claims
        assert "boolean" in claims and "free | pro | enterprise" in claims
        field = dialog_input(pilot, "condition")
        assert field.value == 'visitor.claims.plan === "enterprise"'
        templates = app.screen.query_one("#condition-templates", NavOptionList)
        wanted = 'visitor.claims.plan === "pro"'
        index = next(
            i
            for i, t in enumerate(app.screen.templates)
            if t.condition == wanted  # type: ignore[attr-defined]
        )
        field.value = ""
        templates.focus()
        templates.highlighted = index
        await pilot.press("enter")
        assert field.value == wanted
        assert app.screen.focused is field
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is screen, "saved")
        await wait_for_workers(pilot)
        assert await _section_condition(app, screen, "Runbooks") == wanted


async def test_an_unknown_claim_is_refused_at_the_field_with_the_declared_claims(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_site(pilot)
        await _open_condition(pilot, app, screen, "Runbooks")
        field = dialog_input(pilot, "condition")
        field.value = ""
        await type_text(pilot, 'visitor.claims.tier === "gold"')
        await pilot.press("enter")
        await wait_for_workers(pilot)
        assert isinstance(app.screen, ConditionDialog)
        error = dialog_error(pilot)
        assert "visitor.claims.tier" in error and "visitor.claims.plan" in error, error
        # Under the field, in its column (not a toast that covers it at 80x24).
        assert app.screen.query_one("#dialog-error").parent.id == "condition-field"  # type: ignore[union-attr]
        assert field.value == 'visitor.claims.tier === "gold"'
        assert app.screen.focused is field
        assert await _section_condition(app, screen, "Runbooks") == (
            'visitor.claims.plan === "enterprise"'
        )
