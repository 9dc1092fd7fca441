"""Share links and redirects of a site, from the site editor, with the kit's list dialogs.

Each opens a filtered list (`Chooser`); Enter on an item offers what can be done with it
(`ChooseDialog`), and each write is followed by the screen's writes. A share link's URL
holds its secret: copying it says so.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from docdeck.models import ShareLink, SiteRedirect
from docdeck.tui.kit.chooser import Chooser
from docdeck.tui.kit.copy_values import CopyValue
from docdeck.tui.kit.dialogs.choose import ChooseDialog
from docdeck.tui.kit.dialogs.confirm import ConfirmDialog
from docdeck.tui.kit.dialogs.form import FormDialog, FormField
from docdeck.tui.kit.dialogs.request import RequestDialog
from docdeck.tui.kit.in_flight import Write
from docdeck.tui.kit.sharing import copy_value
from docdeck.tui.kit.workers import client_of, read
from docdeck.tui.sites.structure_model import GROUP, redirect_destination
from docdeck.tui.sites.validation import check_redirect_source

if TYPE_CHECKING:
    from docdeck.tui.sites._screen import SiteScreen

__all__ = ["redirects", "share_links"]

_NEW = "new"
_LOOKUP = "lookup"
SECRET = "This URL holds the link's secret: whoever has it can read the site.\n"
T = TypeVar("T")


def _copy_link(screen: SiteScreen, link: ShareLink) -> None:
    url = link.urls.published
    if not url:
        screen.notify(
            "The link has no URL while the site is not published.", title="Nothing to copy"
        )
        return
    copy_value(screen, CopyValue("Share link URL", url), why=SECRET)


def _write(screen: SiteScreen, action: str, doing: str, request: Any, then: Any) -> None:
    def applied(_result: Any) -> None:
        then()

    async def reread() -> None:
        then()

    screen.writes.start(
        Write(screen.site_subject, action, doing, request, applied=applied, reread=reread)
    )


def _open(
    screen: SiteScreen, dialog: RequestDialog[T], action: str, applied: Callable[[T], object]
) -> None:
    """Open `dialog`, its request a write on the site; `applied` follows the answer (what it
    returns, such as the worker reading the list again, is not used)."""

    def then(answer: T) -> None:
        applied(answer)

    dialog.follow(screen.writes, screen.site_subject, action, applied=then)
    screen.app.push_screen(dialog)


def _delete(
    screen: SiteScreen,
    action: str,
    title: str,
    question: str,
    doing: str,
    delete: Callable[[], Awaitable[None]],
    then: Callable[[], object],
) -> None:
    """Ask `question` first, then send `delete`; `then` reads the list again."""
    _open(screen, ConfirmDialog(title, question, delete, doing=doing), action, lambda _: then())


@read("links", "Reading the share links", opens_a_screen=True)
async def share_links(screen: SiteScreen) -> None:
    client = client_of(screen)
    org, site = screen.org_id, screen.site.id

    links = [link async for link in client.sites.share_links.list(org, site)]
    items: list[tuple[str, Any]] = [("+ New share link", _NEW)]
    for link in links:
        state = "on" if link.active else "off"
        items.append((f"{link.name or '(no name)'} · {state} · {link.createdAt:%Y-%m-%d}", link))

    def chosen(value: Any) -> None:
        if value == _NEW:
            _new_link(screen)
        elif isinstance(value, ShareLink):
            _link_actions(screen, value)

    screen.app.push_screen(
        Chooser(
            f"Share links of {screen.site.title}",
            items,
            hint="enter: act on it · y: copy its URL (holds the secret) · esc: close",
            on_copy=lambda value: (
                _copy_link(screen, value) if isinstance(value, ShareLink) else None
            ),
        ),
        chosen,
    )


def _new_link(screen: SiteScreen) -> None:
    client = client_of(screen)

    async def submit(values: dict[str, str]) -> ShareLink:
        return await client.sites.share_links.create(
            screen.org_id, screen.site.id, name=values["name"].strip()
        )

    def created(link: ShareLink) -> None:
        screen.notify(f"Created the share link “{link.name}”.", title="Share link")
        share_links(screen)

    dialog = FormDialog(
        "New share link",
        [FormField("name", "Name", required=True, max_length=50)],
        submit,
        doing="Creating a share link",
        action_label="Create",
    )
    _open(screen, dialog, "new_link", created)


def _link_actions(screen: SiteScreen, link: ShareLink) -> None:
    client = client_of(screen)
    org, site = screen.org_id, screen.site.id
    name = link.name or link.id
    choices = [
        ("Copy its URL (holds the secret)", "copy"),
        ("Rename", "rename"),
        ("Turn off" if link.active else "Turn on", "toggle"),
        ("Delete", "delete"),
    ]

    def chosen(what: str | None) -> None:
        if what == "copy":
            _copy_link(screen, link)
        elif what == "toggle":
            _write(
                screen,
                "toggle_link",
                f"Turning {'off' if link.active else 'on'} “{name}”",
                lambda: client.sites.share_links.update(org, site, link.id, active=not link.active),
                lambda: share_links(screen),
            )
        elif what == "rename":

            async def rename(values: dict[str, str]) -> ShareLink:
                return await client.sites.share_links.update(
                    org, site, link.id, name=values["name"].strip()
                )

            dialog = FormDialog(
                f"Rename “{name}”",
                [FormField("name", "Name", link.name or "", required=True, max_length=50)],
                rename,
                doing=f"Renaming “{name}”",
            )
            _open(screen, dialog, "rename_link", lambda _link: share_links(screen))
        elif what == "delete":

            async def delete() -> None:
                await client.sites.share_links.delete(org, site, link.id)

            _delete(
                screen,
                "delete_link",
                f"Delete “{name}”",
                f"Delete the share link “{name}”? Whoever has its URL loses access at once.",
                f"Deleting “{name}”",
                delete,
                lambda: share_links(screen),
            )

    screen.app.push_screen(ChooseDialog(f"Share link “{name}”", choices), chosen)


# ----- redirects ---------------------------------------------------------------------------------


def _destination_text(screen: SiteScreen, destination: dict[str, Any]) -> str:
    kind = destination.get("kind", "")
    item = destination.get("siteSectionId") or destination.get("siteSpaceId") or ""
    model = screen.view.model
    row = model.find("site-section" if kind == "site-section" else "site-space", item)
    what = row.describe()[4:] if row is not None else f"{kind} {item} (no longer in the site)"
    if kind == "site-page":
        what += f", page {destination.get('pageId')}"
    return what


@read("redirects", "Reading the redirects", opens_a_screen=True)
async def redirects(screen: SiteScreen) -> None:
    client = client_of(screen)
    org, site = screen.org_id, screen.site.id

    found = [item async for item in client.sites.redirects.list(org, site)]
    items: list[tuple[str, Any]] = [("+ Add a redirect", _NEW), ("? Look up a path", _LOOKUP)]
    items += [
        (f"{item.source} → {_destination_text(screen, item.destination)}", item) for item in found
    ]

    def chosen(value: Any) -> None:
        if value == _NEW:
            _pick_destination(screen, None)
        elif value == _LOOKUP:
            _lookup(screen)
        elif isinstance(value, SiteRedirect):
            _redirect_actions(screen, value)

    screen.app.push_screen(Chooser(f"Redirects of {screen.site.title}", items), chosen)


def _destinations(screen: SiteScreen) -> list[tuple[str, dict[str, str]]]:
    choices: list[tuple[str, dict[str, str]]] = []
    for row in screen.view.model.rows:
        if row.kind == GROUP:
            continue
        label = f"{'  ' * row.depth}{row.describe()[4:]}"
        choices.append((label, redirect_destination(row)))
    return choices


def _pick_destination(screen: SiteScreen, existing: SiteRedirect | None) -> None:
    choices = _destinations(screen)

    def chosen(destination: dict[str, str] | None) -> None:
        if destination is not None:
            _redirect_form(screen, existing, destination)

    screen.app.push_screen(ChooseDialog("Where the redirect leads", choices), chosen)


def _source_field(label: str, value: str = "") -> FormField:
    """The path a redirect leads from, as the redirect form and the lookup ask for it."""
    return FormField(
        "source",
        label,
        value,
        placeholder="/old/page",
        required=True,
        max_length=512,
        check=partial(check_redirect_source, label=label),
    )


def _redirect_form(
    screen: SiteScreen, existing: SiteRedirect | None, destination: dict[str, str]
) -> None:
    client = client_of(screen)
    org, site = screen.org_id, screen.site.id

    async def submit(values: dict[str, str]) -> SiteRedirect:
        source = values["source"].strip()
        if existing is None:
            return await client.sites.redirects.create(
                org, site, source=source, destination=destination
            )
        return await client.sites.redirects.update(
            org, site, existing.id, source=source, destination=destination
        )

    dialog = FormDialog(
        f"Redirect to {_destination_text(screen, destination)}",
        [_source_field("From the path", existing.source if existing is not None else "")],
        submit,
        doing="Saving the redirect",
    )
    _open(screen, dialog, "redirect", lambda _item: redirects(screen))


def _redirect_actions(screen: SiteScreen, item: SiteRedirect) -> None:
    client = client_of(screen)
    choices = [("Edit (source and destination)", "edit"), ("Delete", "delete")]

    def chosen(what: str | None) -> None:
        if what == "edit":
            _pick_destination(screen, item)
        elif what == "delete":

            async def delete() -> None:
                await client.sites.redirects.delete(screen.org_id, screen.site.id, item.id)

            _delete(
                screen,
                "delete_redirect",
                f"Delete the redirect from {item.source}",
                f"Visitors of {item.source} will get a “not found”.",
                f"Deleting the redirect from {item.source}",
                delete,
                lambda: redirects(screen),
            )

    screen.app.push_screen(ChooseDialog(f"Redirect from {item.source}", choices), chosen)


def _lookup(screen: SiteScreen) -> None:
    client = client_of(screen)

    async def submit(values: dict[str, str]) -> Any:
        return await client.sites.redirects.resolve(
            screen.org_id, screen.site.id, values["source"].strip()
        )

    def found(resolution: Any) -> None:
        screen.notify(
            f"{resolution.redirect.source} leads to {resolution.target}",
            title="Redirect found",
            timeout=10,
        )

    dialog = FormDialog(
        "Look up a redirect",
        [_source_field("Path")],
        submit,
        doing="Looking up the path",
        action_label="Look up",
    )
    _open(screen, dialog, "lookup", found)
