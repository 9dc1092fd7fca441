"""A site's adaptive schema (the visitor claims its conditions may use): read, shown with its
claims, edited as JSON (`_json_dialog`) and saved with one PUT."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text

from docdeck.gateway import NotFoundError
from docdeck.models import SiteAdaptiveSchema, TemplateCondition
from docdeck.tui.kit.workers import client_of, read
from docdeck.tui.sites._json_dialog import JsonDialog
from docdeck.tui.sites.actions import write_refusal
from docdeck.tui.sites.claims import claims_of, claims_text
from docdeck.tui.sites.json_edit import dump

if TYPE_CHECKING:
    from docdeck.tui.sites._screen import SiteScreen

__all__ = ["EMPTY_SCHEMA", "adaptive_schema", "read_schema", "reading_schema"]

EMPTY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {},
    "additionalProperties": False,
}
"""Where a site without a schema starts: no claims yet."""


async def read_schema(screen: SiteScreen) -> dict[str, Any] | None:
    """The stored schema, or None when the site has none (the API's 404)."""
    client = client_of(screen)
    try:
        answer: SiteAdaptiveSchema = await client.sites.get_adaptive_schema(
            screen.org_id, screen.site.id
        )
    except NotFoundError:
        return None
    return answer.jsonSchema


async def read_templates(screen: SiteScreen) -> list[TemplateCondition]:
    return await client_of(screen).sites.template_conditions(screen.org_id, screen.site.id)


reading_schema = read("adaptive", "Reading the adaptive schema", opens_a_screen=True)
"""Declares a function of the screen that reads the schema and opens a dialog with it: all
in the one worker group for it, so a second key press replaces a read still running."""


def _context(screen: SiteScreen, stored: dict[str, Any] | None) -> Text:
    text = claims_text(claims_of(stored))
    adaptive = screen.site.adaptiveContent
    if stored is None:
        text = Text("The site has no adaptive schema yet: add claims under properties.", "dim")
    if adaptive is None or not adaptive.enabled:
        text.append("\nAdaptive content is off (S turns it on): conditions are not applied.")
    return text


@reading_schema
async def adaptive_schema(screen: SiteScreen) -> None:
    client = client_of(screen)
    org, site = screen.org_id, screen.site.id

    stored = await read_schema(screen)

    async def submit(value: dict[str, Any]) -> SiteAdaptiveSchema:
        return await client.sites.update_adaptive_schema(org, site, jsonSchema=value)

    def saved(answer: SiteAdaptiveSchema) -> None:
        count = len(claims_of(answer.jsonSchema))
        screen.notify(
            f"The adaptive schema of {screen.site.title} is saved: {count} claim"
            f"{'s' if count != 1 else ''}.",
            title="Adaptive schema",
        )

    dialog = JsonDialog(
        f"Adaptive schema of {screen.site.title}",
        _context(screen, stored),
        stored,
        dump(stored if stored is not None else EMPTY_SCHEMA),
        submit,
        what="The schema",
        doing="Saving the adaptive schema",
        read_only=write_refusal(screen.organization, "change the adaptive schema"),
    )
    dialog.follow(screen.writes, screen.site_subject, "adaptive_schema", applied=saved)
    screen.app.push_screen(dialog)
