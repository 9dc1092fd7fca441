"""A site's customization (or a site space's), edited as JSON in `$EDITOR`, diffed, saved.

GET → `$EDITOR` → the diff (`_json_dialog`) → the write. The site's is a PUT that replaces
every setting, so a stale copy is never sent: the customization is read again just before
the PUT, and when someone changed it meanwhile the user's edit (what differs from the copy
they started from) is put on the fresh copy. Where the other client changed a setting the
user changed too, nothing is sent: the dialog says which, keeps the text, and shows the
diff against the fresh copy, which a second ctrl+s saves. A site space's override is a
PATCH of the user's changes alone (null resets a setting to the site's).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text

from docdeck.models import SiteCustomizationSettings
from docdeck.tui.kit.dialogs.choose import ChooseDialog
from docdeck.tui.kit.editor import edit_text
from docdeck.tui.kit.workers import client_of, read
from docdeck.tui.sites._json_dialog import ChangedMeanwhile, JsonDialog
from docdeck.tui.sites.json_edit import dump, merge_patch, reapply
from docdeck.tui.sites.structure_model import SITE_SPACE, Row

if TYPE_CHECKING:
    from docdeck.tui.sites._screen import SiteScreen

__all__ = ["customize", "settings_of"]


def settings_of(answer: SiteCustomizationSettings) -> dict[str, Any]:
    """The settings as the JSON the user edits (a group the answer lacks is left out)."""
    settings = answer.model_dump(mode="json")
    return {key: value for key, value in settings.items() if value is not None}


def customize(screen: SiteScreen) -> None:
    """On a site space: its override or the site's (asked); elsewhere the site's."""
    row = screen.view.current
    if row is None or row.kind != SITE_SPACE:
        _edit(screen, None)
        return
    choices = [
        (f"The site's customization ({screen.site.title})", "site"),
        (f"The override of {row.describe()[4:]} (the rest follows the site)", "space"),
    ]

    def chosen(which: str | None) -> None:
        if which is not None:
            _edit(screen, row if which == "space" else None)

    screen.app.push_screen(ChooseDialog("Customize", choices), chosen)


def _what(screen: SiteScreen, site_space: Row | None) -> str:
    if site_space is None:
        return f"the customization of {screen.site.title}"
    return f"the customization of {site_space.describe()[4:]}"


@read(
    "customize",
    lambda screen, site_space: f"Editing {_what(screen, site_space)}",
    opens_a_screen=True,
)
async def _edit(screen: SiteScreen, site_space: Row | None) -> None:
    client = client_of(screen)
    org, site = screen.org_id, screen.site.id
    customization = client.sites.customization
    what = _what(screen, site_space)
    fetch: Callable[[], Awaitable[SiteCustomizationSettings]]
    if site_space is None:
        fetch = lambda: customization.get(org, site)  # noqa: E731
    else:
        fetch = lambda: customization.get_site_space(org, site, site_space.id)  # noqa: E731

    base = settings_of(await fetch())
    edited = await edit_text(screen.app, dump(base), suffix=".json")
    if edited is None:
        return  # unchanged (said by edit_text) or the editor failed (reported)
    dialog: JsonDialog | None = None

    async def submit(value: dict[str, Any]) -> SiteCustomizationSettings:
        assert dialog is not None and dialog.stored is not None
        shown = dialog.stored  # the copy the diff was made against
        fresh = settings_of(await fetch())
        if fresh != shown:
            result = reapply(shown, value, fresh)
            if result.conflicts:
                raise ChangedMeanwhile(
                    f"Not saved: {what} changed meanwhile (another client), at "
                    f"{', '.join(result.conflicts)}, which you changed too. The diff is "
                    "now against the current copy; ctrl+s shows it, and saving puts "
                    "your values there.",
                    fresh,
                )
            value = result.value
            screen.notify(
                f"{what[:1].upper()}{what[1:]} had changed meanwhile: your changes were "
                "put on the current copy, and the other changes kept.",
                title="Changed meanwhile",
                severity="warning",
            )
        if site_space is None:
            return await customization.update(org, site, value)
        return await customization.override_site_space(
            org, site, site_space.id, merge_patch(fresh, value)
        )

    def saved(_answer: SiteCustomizationSettings) -> None:
        screen.notify(f"Saved {what}.", title="Customize")

    how = (
        "Saving replaces every setting (PUT); it is read again first, so changes made "
        "meanwhile are kept."
        if site_space is None
        else "Only what you changed is sent (PATCH); a setting you remove goes back to the site's."
    )
    dialog = JsonDialog(
        f"Customize: {what}",
        Text(how, style="dim"),
        base,
        edited,
        submit,
        what="The customization",
        doing=f"Saving {what}",
        review=True,
        rebase=lambda mine, stored: reapply(base, mine, stored).value,
    )
    subject = site_space if site_space is not None else screen.site_subject
    dialog.follow(screen.writes, subject, "customize", applied=saved)
    screen.app.push_screen(dialog)
