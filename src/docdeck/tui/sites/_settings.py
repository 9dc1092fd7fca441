"""A site's settings (one PATCH of what changed) and publishing, from the site editor.

Each field is checked as typed with the reference's limits and patterns (the form says how
far over a limit a value is, and refuses a bad basename or proxy before any request); a
refused save keeps the form open with what was typed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docdeck.models import Site, SiteCheckout
from docdeck.tui.kit.dialogs.form import FormDialog, FormField
from docdeck.tui.kit.in_flight import Write
from docdeck.tui.kit.workers import client_of
from docdeck.tui.sites.validation import check_basename, check_proxy

if TYPE_CHECKING:
    from docdeck.tui.sites._screen import SiteScreen

__all__ = ["edit_settings", "publish_or_unpublish"]

VISIBILITIES = ("public", "unlisted", "share-link", "visitor-auth")
ON_OFF = ("off", "on")
AGENTS = ("excluded", "included")


def edit_settings(screen: SiteScreen) -> None:
    site = screen.site
    client = client_of(screen)
    adaptive = "on" if site.adaptiveContent is not None and site.adaptiveContent.enabled else "off"
    proxy = site.proxy.origin if site.proxy is not None else ""
    # Said only to a caller it concerns: an admin read it on every save as a warning.
    admin = screen.organization.permissions.admin
    visibility = "Visibility" if admin else "Visibility (changing it needs the admin role)"
    fields = [
        FormField("title", "Title", site.title, required=True, max_length=128),
        FormField(
            "visibility",
            visibility,
            site.visibility,
            choices=VISIBILITIES,
        ),
        FormField(
            "basename",
            "Basename (the site's URL segment)",
            site.basename or "",
            max_length=100,
            check=check_basename,
        ),
        FormField(
            "proxy", "Proxy (host/path; empty: none)", proxy, max_length=512, check=check_proxy
        ),
        FormField(
            "agentsContext", "Agents context", site.agentsContext or "excluded", choices=AGENTS
        ),
        FormField("adaptiveContent", "Adaptive content", adaptive, choices=ON_OFF),
    ]

    async def submit(values: dict[str, str]) -> Site:
        text = {name: value.strip() for name, value in values.items()}
        changes: dict[str, Any] = {}
        if text["title"] != site.title:
            changes["title"] = text["title"]
        if text["visibility"] != site.visibility:
            changes["visibility"] = text["visibility"]
        if text["basename"] and text["basename"] != (site.basename or ""):
            changes["basename"] = text["basename"]
        if text["proxy"] != proxy:
            changes["proxy"] = text["proxy"] or None
        if text["agentsContext"] != (site.agentsContext or "excluded"):
            changes["agentsContext"] = text["agentsContext"]
        if text["adaptiveContent"] != adaptive:
            changes["adaptiveContent"] = {"enabled": text["adaptiveContent"] == "on"}
        if not changes:
            return site
        return await client.sites.update(screen.org_id, site.id, **changes)

    def applied(saved: Site) -> None:
        screen.site_changed(saved)

    dialog = FormDialog(f"Settings of {site.title}", fields, submit, doing="Saving the settings")
    dialog.follow(
        screen.writes, screen.site_subject, "settings", applied=applied, reread=screen.reread_site
    )
    screen.app.push_screen(dialog)


def publish_or_unpublish(screen: SiteScreen) -> None:
    site = screen.site
    client = client_of(screen)
    org = screen.org_id
    doing = f"Unpublishing {site.title}" if site.published else f"Publishing {site.title}"

    async def request() -> Any:
        if site.published:
            return await client.sites.unpublish(org, site.id)
        return await client.sites.publish(org, site.id)

    def applied(result: Any) -> None:
        if isinstance(result, SiteCheckout):
            screen.notify(
                f"Not published: the site's plan ({site.type}) does not include what its "
                f"visibility ({site.visibility}) needs, so the platform answered with a "
                f"checkout (session {result.sessionId}): upgrade the plan, or choose another "
                "visibility in the settings (S). Nothing changed.",
                title="Publishing needs a better plan",
                severity="warning",
                timeout=12,
            )
            return
        screen.site_changed(result)
        state = "published" if result.published else "no longer published"
        url = result.urls.published or ""
        screen.notify(f"{result.title} is {state}. {url}", title="Publishing")

    started = screen.writes.start(
        Write(
            screen.site_subject,
            "publish",
            doing,
            request,
            applied=applied,
            reread=screen.reread_site,
        )
    )
    if not started:
        screen.notify(f"{doing} is still being sent.", title="Wait", timeout=3)
