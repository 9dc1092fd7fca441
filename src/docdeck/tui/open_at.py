"""Open the space screen straight at a target (`docdeck open`), as soon as there is a client.

The reads the first screen needs are sent together the moment the client exists
(`OpenReads`), while the browser is still composing and the org tree loading: the space,
and for a change request the change request, its changes and then both sides of its first
changed page; for a space, its revision. The screens find
them in the session's caches. Nothing waits for the org tree.

The space is read first (a wrong id or a space the account cannot see becomes one
notification, and the tree stays usable); its organization and collections give the
breadcrumb, read once the first page (or diff) is drawn and filled in then; a platform page
path is resolved to the page.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.screen import Screen

from docdeck.gateway import APIStatusError, Client
from docdeck.tui.content.revision_cache import content_cache
from docdeck.tui.kit.beneath import install_beneath, later
from docdeck.tui.kit.open_target import OpenTarget
from docdeck.tui.kit.typeahead import opens_a_screen
from docdeck.tui.kit.workers import client_of, read_ahead, start

if TYPE_CHECKING:  # a space's first page needs none of the change request models
    from docdeck.models import ChangeRequest, PageMarkdown, RevisionSemanticChanges, Space
    from docdeck.tui.last_place import Place
    from docdeck.tui.space import SpaceScreen

__all__ = ["OpenReads", "open_target", "read_breadcrumb", "resume_place"]


class OpenReads:
    """What `docdeck open`'s first screen reads, all asked at once as the client arrives.

    For a change request: the space, the change request and its changes together, then
    both sides of the first changed page (the CR's side as soon as the changes name the
    page), the diff computed; for a space (or a page): the space and the revision shown
    together, then the page's markdown (the first readable page, or the one named). Each
    answer is handed to the caches the screens read through (`RevisionContent.adopt`), so
    they ask for nothing twice; a failed read is asked again by the screen, which shows
    the failure."""

    def __init__(self, app: App[None], client: Client, target: OpenTarget) -> None:
        self.target = target
        self.client = client
        space_id = target.space
        self.space = read_ahead(client.spaces.get(space_id))
        self.change_request: asyncio.Task[ChangeRequest] | None = None
        if target.change_request:
            number = target.change_request
            self.change_request = read_ahead(client.change_requests.get(space_id, number))
            changes = read_ahead(self._changes(number))
            read_ahead(self._first_diff(app, self.change_request, changes))
        elif not target.page_path:
            read_ahead(self._first_page(app))

    async def _changes(self, number: str) -> RevisionSemanticChanges:
        from docdeck.tui.review.content import CHANGES_LIMIT

        return await self.client.change_requests.changes(
            self.target.space, number, limit=CHANGES_LIMIT
        )

    async def _first_diff(
        self,
        app: App[None],
        change_request: Awaitable[ChangeRequest],
        changes_read: asyncio.Task[RevisionSemanticChanges],
    ) -> None:
        from docdeck.tui.review.changes import review_changes
        from docdeck.tui.review.content import change_request_content

        client, space_id = self.client, self.target.space
        changes = review_changes(await changes_read)
        bodies = [page for page in changes.pages if page.body_changed]
        if not bodies:
            return
        page = bodies[0]  # the first diff the pane shows (`ChangedPagesList.show_changes`)
        number = self.target.change_request or ""

        async def change_side() -> PageMarkdown:
            return await client.change_requests.content.page_markdown(
                space_id, number, page.page_id
            )

        side = read_ahead(change_side()) if page.in_change else None
        cr = await change_request
        content, base = change_request_content(app, client, space_id, cr)
        if page.in_base:
            base.ask_markdown(page.page_id)
        content.adopt("changes", changes_read)
        if side is not None and str(cr.number) == number:
            content.adopt_answer(page.page_id, side)
        await content.page_diff(base, page.page_id, in_base=page.in_base, in_change=page.in_change)

    async def _first_page(self, app: App[None]) -> None:
        client, target = self.client, self.target
        revision_read = read_ahead(client.content.revision_in_steps(target.space, target.revision))
        space = await self.space
        content = content_cache(app).get(client, space.id, target.revision or space.revision)
        revision = await revision_read
        if revision.id != content.revision_id:
            return  # the space moved on meanwhile: the screen reads what it shows
        content.adopt("revision", revision_read)
        # The page's markdown asked now (the launcher's answer is in): in when the screen
        # mounts, the page is shown with the tree, not from a worker a frame later. (Its
        # view then mounts before the preview's first layout: it renders when first drawn
        # with a width, Resize or not: `RenderedPage.render_lines`.)
        pages = content.pages_now()
        if pages is not None:
            first = pages.by_id.get(target.page) if target.page else pages.first_readable()
            if first is not None and first.readable:
                content.ask_markdown(first.id)


def open_target(app: App[None], target: OpenTarget) -> None:
    """Open the target's screen once the tree is live (a site: the site editor).

    Keys typed meanwhile (and those typed before the tree was live) wait for the screen
    it opens, as after Enter on the tree: `docdeck open URL` then `G` is the page's `G`."""
    opens_a_screen(
        start(
            app,
            partial(_open_site, app, target) if target.site else partial(_open, app, target),
            name=f"Opening {target.site or target.space}",
            group="open-target",
            exclusive=True,
        )
    )


def resume_place(app: App[None], place: Place) -> None:
    """Return to where the last session was (`docdeck.tui.last_place`), in the background
    once the tree is live. What is gone (a deleted space, page or change request, or one no
    longer shared) is one notification, and the user stays on the tree or the space."""
    work: Callable[[], Awaitable[object]]
    if place.kind == "site" and place.site and place.organization:
        target = OpenTarget(site=place.site, organization=place.organization)
        work = partial(_open_site, app, target, quiet=True, resuming=True)
    else:
        target = OpenTarget(
            space=place.space or "", page=place.page, change_request=place.change_request
        )
        work = partial(_open, app, target, resuming=place.reading and place.kind == "space")
    opens_a_screen(
        start(app, work, name="Returning to where you were", group="open-target", exclusive=True)
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
    had the keys).

    A change request's review pane is pushed alone, and its space screen put beneath it
    once the pane's first diff is drawn (`kit.beneath`): Escape lands in the space as
    before, and the space screen's imports and compose no longer come first."""
    client = client_of(app)
    reads: OpenReads | None = getattr(app, "open_reads", None)
    if reads is not None and (reads.target != target or reads.client is not client):
        reads = None
    _import_first_screen(target)
    try:
        space = await (reads.space if reads is not None else client.spaces.get(target.space))
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

    def space_screen() -> SpaceScreen:
        from docdeck.tui.space import SpaceScreen

        return SpaceScreen(
            space,
            [],
            revision=target.revision,
            page_id=page_id,
            read=page_id is not None
            and not target.change_request
            and (resuming is None or resuming),
        )

    pane: Screen[Any] | None = None
    if target.change_request:
        read = reads.change_request if reads is not None else None
        pane = await _open_change_request(
            app, space, target.change_request, resuming=resuming is not None, read=read
        )

    if pane is None:
        screen = space_screen()  # a space, or a change request not read: its space
        app.push_screen(screen)
        # Its breadcrumb (the collections above it, its organization) once its first page
        # is drawn, as the review pane's space screen's: their answers (asked already by the
        # launcher, with a running sandbox) and the organization's model are parsed after
        # that page, not before it (~10 ms of `docdeck open <space>`).
        later(app, lambda: read_breadcrumb(app, screen))
        return
    review = pane

    def beneath() -> None:
        # The pane shows no breadcrumb: its space screen's is read now, once the first diff
        # is drawn, not beside the reads that diff waited for.
        screen = space_screen()
        install_beneath(app, screen, review)
        read_breadcrumb(app, screen)

    later(app, beneath)


def read_breadcrumb(app: App[None], screen: SpaceScreen) -> None:
    """The breadcrumb of a space screen (its organization and collections), read in the
    background and shown once in: `docdeck open`'s screen, and one opened without it
    (`OpenSpace` with no trail)."""
    client = client_of(app)

    async def work() -> None:
        screen.trail[:] = await _trail(client, screen.space)
        if screen.is_mounted:  # (one mounting later shows the trail as it mounts)
            screen.page_changed()

    start(app, work, name=f"Reading where {screen.space.title} is", group="open-breadcrumb")


def _import_first_screen(target: OpenTarget) -> None:
    """The code of the screen shown first, imported while the server answers the reads
    sent already (the loop would otherwise wait for them, then import)."""
    if target.change_request:
        from docdeck.tui.review import ReviewScreen  # noqa: F401
    else:
        from docdeck.tui.space import SpaceScreen  # noqa: F401


async def _trail(client: Client, space: Space) -> list[str]:
    """The breadcrumb: the space's organization and collections (shorter when one of them
    cannot be read: the space itself is readable)."""
    trail: list[str] = []
    try:
        parent = space.parent
        while parent:
            collection = await client.collections.get(parent)
            trail.insert(0, collection.title)
            parent = collection.parent
        trail.insert(0, (await client.orgs.get(space.organization)).title)
    except APIStatusError:
        pass
    return trail


async def _open_change_request(
    app: App[None],
    space: Space,
    number_or_id: str,
    *,
    resuming: bool = False,
    read: Awaitable[ChangeRequest] | None = None,
) -> Screen[Any] | None:
    """The review pane, pushed (None: the change request could not be read, and the
    reason is shown). `read`: the change request asked for already (`OpenReads`): the pane
    does not read it again."""
    from docdeck.tui.review import ReviewScreen

    try:
        change_request = await (read or client_of(app).change_requests.get(space.id, number_or_id))
    except Exception as error:
        if resuming:
            _gone(app, f"Change request #{number_or_id}", error, f"here is {space.title}")
            return None
        app.report_error(  # type: ignore[attr-defined]
            error, f"Opening change request {number_or_id} of {space.title}"
        )
        return None
    pane = ReviewScreen(space, change_request, fresh=read is None)
    app.push_screen(pane)
    return pane


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
            orgs = await client.orgs.list(limit=100).all()
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
