"""Open the space screen straight at a target (`docdeck open`), once the tree is live.

The space is read first (a wrong id or a space the account cannot see becomes one
notification, and the tree stays usable); its organization and collections give the
breadcrumb; a platform page path is resolved to the page.
"""

from __future__ import annotations

from textual.app import App

from docdeck.gateway import APIStatusError
from docdeck.models import Space
from docdeck.tui.kit.open_target import OpenTarget
from docdeck.tui.kit.typeahead import opens_a_screen
from docdeck.tui.kit.workers import client_of

__all__ = ["open_target"]


def open_target(app: App[None], target: OpenTarget) -> None:
    """Open the target's screen once the tree is live (a site: the site editor).

    Keys typed meanwhile (and those typed before the tree was live) wait for the screen
    it opens, as after Enter on the tree: `docdeck open URL` then `G` is the page's `G`."""
    opens_a_screen(
        app.run_worker(
            _open_site(app, target) if target.site else _open(app, target),
            name=f"Opening {target.site or target.space}",
            group="open-target",
            exclusive=True,
            exit_on_error=False,
        )
    )


async def _open(app: App[None], target: OpenTarget) -> None:
    from docdeck.tui.space import SpaceScreen

    client = client_of(app)
    try:
        space = await client.spaces.get(target.space)
    except Exception as error:
        bare = target == OpenTarget(space=target.space)
        not_found = isinstance(error, APIStatusError) and error.status_code == 404
        if bare and not_found and await _open_site(app, OpenTarget(site=target.space), quiet=True):
            return  # the bare id was a site's
        app.report_error(error, f"Opening the space {target.space}")  # type: ignore[attr-defined]
        return
    trail: list[str] = []
    try:
        parent = space.parent
        while parent:
            collection = await client.collections.get(parent)
            trail.insert(0, collection.title)
            parent = collection.parent
        trail.insert(0, (await client.orgs.get(space.organization)).title)
    except APIStatusError:
        pass  # the breadcrumb is shorter; the space itself is readable
    page_id = target.page
    if target.page_path and page_id is None:
        try:
            page = await client.content.page_by_path(space.id, target.page_path, format=None)
            page_id = page.id
        except APIStatusError:
            app.notify(
                f"No page at “{target.page_path}” in {space.title}; showing its first page.",
                title="Page not found",
                severity="warning",
            )
    app.push_screen(
        SpaceScreen(
            space,
            trail,
            revision=target.revision,
            page_id=page_id,
            read=page_id is not None and not target.change_request,
        )
    )
    if target.change_request:
        await _open_change_request(app, space, target.change_request)


async def _open_change_request(app: App[None], space: Space, number_or_id: str) -> None:
    """The review pane over the space screen, so Escape lands in the space."""
    from docdeck.tui.review import ReviewScreen

    try:
        change_request = await client_of(app).change_requests.get(space.id, number_or_id)
    except Exception as error:
        app.report_error(  # type: ignore[attr-defined]
            error, f"Opening change request {number_or_id} of {space.title}"
        )
        return
    app.push_screen(ReviewScreen(space, change_request))


async def _open_site(app: App[None], target: OpenTarget, *, quiet: bool = False) -> bool:
    """The site editor for a site; without its organization, each organization is asked."""
    from docdeck.tui.kit.navigation import OpenSite

    client = client_of(app)
    site_id = target.site or ""
    try:
        if target.organization:
            orgs = [await client.orgs.get(target.organization)]
        else:
            orgs = (await client.orgs.list(limit=100)).items
        for org in orgs:
            try:
                site = await client.sites.get(org.id, site_id)
            except APIStatusError as error:
                if error.status_code in (403, 404) and len(orgs) > 1:
                    continue
                raise
            app.post_message(OpenSite(org, site, [org.title]))
            return True
    except Exception as error:
        if not quiet:
            app.report_error(error, f"Opening the site {site_id}")  # type: ignore[attr-defined]
        return False
    if not quiet:
        app.notify(
            f"No site {site_id} in your organizations.", title="Site not found", severity="error"
        )
    return False
