"""Open the space screen straight at a target (`docdeck open`), once the tree is live.

The space is read first (a wrong id or a space the account cannot see becomes one
notification, and the tree stays usable); its organization and collections give the
breadcrumb; a platform page path is resolved to the page.
"""

from __future__ import annotations

from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from textual.app import App

from docdeck.gateway import APIStatusError
from docdeck.models import Space
from docdeck.tui.kit.open_target import OpenTarget
from docdeck.tui.kit.typeahead import opens_a_screen
from docdeck.tui.kit.workers import client_of

if TYPE_CHECKING:
    from docdeck.tui.last_place import Place

__all__ = ["open_target", "resume_place"]


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


def resume_place(app: App[None], place: Place) -> None:
    """Return to where the last session was (`docdeck.tui.last_place`), in the background
    once the tree is live. What is gone (a deleted space, page or change request, or one no
    longer shared) is one notification, and the user stays on the tree or the space."""
    work: Coroutine[Any, Any, object]
    if place.kind == "site" and place.site and place.organization:
        target = OpenTarget(site=place.site, organization=place.organization)
        work = _open_site(app, target, quiet=True, resuming=True)
    else:
        target = OpenTarget(
            space=place.space or "", page=place.page, change_request=place.change_request
        )
        work = _open(app, target, resuming=place.reading and place.kind == "space")
    opens_a_screen(
        app.run_worker(
            work,
            name="Returning to where you were",
            group="open-target",
            exclusive=True,
            exit_on_error=False,
        )
    )


def _gone(app: App[None], what: str, error: BaseException | None, where: str) -> None:
    """A place of the last session that cannot be opened now: said once, never an error."""
    missing = error is None or (
        isinstance(error, APIStatusError) and error.status_code in (403, 404)
    )
    why = "is gone (deleted, or no longer shared with you)" if missing else "could not be read"
    app.notify(f"{what} you had open last time {why}; {where}.", title="Where you were")


async def _open(app: App[None], target: OpenTarget, *, resuming: bool | None = None) -> None:
    """`resuming` (not None): the last session's place, not `docdeck open` (True: the page
    had the keys)."""
    from docdeck.tui.space import SpaceScreen

    client = client_of(app)
    try:
        space = await client.spaces.get(target.space)
    except Exception as error:
        if resuming is not None:
            _gone(app, "The space", error, "here is the tree")
            return
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
            read=page_id is not None
            and not target.change_request
            and (resuming is None or resuming),
        )
    )
    if target.change_request:
        await _open_change_request(app, space, target.change_request, resuming=resuming is not None)


async def _open_change_request(
    app: App[None], space: Space, number_or_id: str, *, resuming: bool = False
) -> None:
    """The review pane over the space screen, so Escape lands in the space."""
    from docdeck.tui.review import ReviewScreen

    try:
        change_request = await client_of(app).change_requests.get(space.id, number_or_id)
    except Exception as error:
        if resuming:
            _gone(app, f"Change request #{number_or_id}", error, f"here is {space.title}")
            return
        app.report_error(  # type: ignore[attr-defined]
            error, f"Opening change request {number_or_id} of {space.title}"
        )
        return
    app.push_screen(ReviewScreen(space, change_request))


async def _open_site(
    app: App[None], target: OpenTarget, *, quiet: bool = False, resuming: bool = False
) -> bool:
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
        if resuming:
            _gone(app, "The site", error, "here is the tree")
        elif not quiet:
            app.report_error(error, f"Opening the site {site_id}")  # type: ignore[attr-defined]
        return False
    if resuming:
        _gone(app, "The site", None, "here is the tree")
    elif not quiet:
        app.notify(
            f"No site {site_id} in your organizations.", title="Site not found", severity="error"
        )
    return False
