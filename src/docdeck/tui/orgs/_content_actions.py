"""Browser actions that create or rename: spaces, collections (and renaming teams).

Each is a write (`docdeck.tui.kit.in_flight`) sent from a dialog: on success the
tree's model is edited in place from the answer (no reload), so the user keeps
their place; after a failure or a dialog closed early, what it may have changed
is read again. Moving, deleting, restoring and duplicating are in `_space_actions`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

from docdeck.gateway import NOT_GIVEN, NotGiven
from docdeck.models import Collection, Space, Team
from docdeck.tui.kit.dialogs.form import FormDialog, FormField
from docdeck.tui.kit.entries import (
    CollectionEntry,
    Entry,
    OrgEntry,
    SpaceEntry,
    TeamEntry,
    container_of,
    org_of,
)
from docdeck.tui.orgs._space_actions import SpaceEdits, in_tree
from docdeck.tui.orgs.emoji_check import emoji_problem

if TYPE_CHECKING:
    from docdeck.tui.orgs._browser import OrgBrowser

__all__ = ["ContentEdits"]

T = TypeVar("T")

TITLE_MAX = 50
"""Space and collection titles (the API's limit)."""
DESCRIPTION_MAX = 100
"""Collection descriptions."""
TEAM_TITLE_MAX = 64
EMOJI_MAX = 50


class ContentEdits:
    """A part the browser holds: its keys that create and rename run these."""

    def __init__(self, browser: OrgBrowser, spaces: SpaceEdits) -> None:
        self.browser = browser
        self.spaces = spaces

    async def _reload_container(self, container: Entry) -> None:
        """After a create failed or its dialog closed early: the new item may exist anyway;
        show the container as the server has it."""
        org = org_of(container)
        if org is not None:
            org.collections = None  # a new collection is in the organization's list
        if container.children is not None and (container is org or in_tree(container)):
            self.browser.org_tree.load(container)

    def _where_new(self) -> tuple[OrgEntry | CollectionEntry, OrgEntry, str | NotGiven] | None:
        """Where a new space or collection goes: the container the cursor is in, its
        organization and the parent the API takes; None when the cursor holds no content."""
        container = container_of(self.browser.org_tree.current)
        org = org_of(container)
        if container is None or org is None:
            return None
        parent = container.value.id if isinstance(container, CollectionEntry) else NOT_GIVEN
        return container, org, parent

    def _open_create(
        self,
        kind: str,
        fields: list[FormField],
        create: Callable[[str, str | NotGiven, dict[str, str]], Awaitable[T]],
        entry_of: Callable[[OrgEntry, T], Entry],
    ) -> None:
        """The create dialog for a new `kind` where the cursor is, sent as a write on its
        container: `create(organization id, parent, values)` sends it, and the answer's
        entry (`entry_of`) goes into the tree under the cursor."""
        where = self._where_new()
        if where is None:
            return
        container, org, parent = where

        def created(answer: T) -> None:
            entry = entry_of(org, answer)
            self.browser.org_tree.insert(container, entry)
            self.browser.org_tree.select_entry(entry)
            self.browser.notify(
                f"Created the {kind} “{entry.title}”.", title=f"{kind.capitalize()} created"
            )

        self.browser.open_write(
            FormDialog(
                f"New {kind} in {container.title}",
                fields,
                lambda values: create(org.organization.id, parent, values),
                doing=f"Creating a {kind} in {container.title}",
                action_label="Create",
            ),
            container,
            f"new_{kind}",
            applied=created,
            reread=lambda: self._reload_container(container),
        )

    def new_space(self) -> None:
        client = self.browser.client

        async def create(org_id: str, parent: str | NotGiven, values: dict[str, str]) -> Space:
            return await client.spaces.create(
                org_id,
                title=values["title"].strip(),
                emoji=values["emoji"].strip() or NOT_GIVEN,
                parent=parent,
            )

        fields = [
            FormField("title", "Title", required=True, max_length=TITLE_MAX),
            FormField(
                "emoji",
                "Emoji (optional)",
                placeholder="one emoji, e.g. 📘",
                max_length=EMOJI_MAX,
                check=emoji_problem,
            ),
        ]
        self._open_create("space", fields, create, lambda _org, space: SpaceEntry(space=space))

    def new_collection(self) -> None:
        client = self.browser.client

        async def create(org_id: str, parent: str | NotGiven, values: dict[str, str]) -> Collection:
            return await client.collections.create(
                org_id, title=values["title"].strip(), parent=parent
            )

        def entry_of(org: OrgEntry, collection: Collection) -> Entry:
            if org.collections is not None:
                org.collections.append(collection)
            return CollectionEntry(collection=collection, children=[])

        fields = [FormField("title", "Title", required=True, max_length=TITLE_MAX)]
        self._open_create("collection", fields, create, entry_of)

    def rename(self) -> None:
        entry = self.browser.org_tree.current
        org = org_of(entry)
        if entry is None or org is None:
            return
        client = self.browser.client
        org_id = org.organization.id

        async def rename(values: dict[str, str]) -> object:
            title = values["title"].strip()
            if isinstance(entry, SpaceEntry):
                return await client.spaces.update(entry.value.id, title=title)
            if isinstance(entry, CollectionEntry):
                return await client.collections.update(
                    entry.value.id, title=title, description=values["description"].strip()
                )
            if isinstance(entry, TeamEntry):
                return await client.teams.update(org_id, entry.value.id, title=title)
            raise ValueError("nothing to rename")

        def show(result: object) -> None:
            if isinstance(entry, SpaceEntry) and isinstance(result, Space):
                entry.space = result
            elif isinstance(entry, CollectionEntry) and isinstance(result, Collection):
                entry.collection = result
                self._replace_collection(entry, result)
            elif isinstance(entry, TeamEntry) and isinstance(result, Team):
                entry.team = result
            self.browser.org_tree.refresh_entry(entry)

        def renamed(result: object) -> None:
            show(result)
            self.browser.notify(f"Renamed to “{entry.title}”.", title="Renamed")

        async def reread() -> None:
            if isinstance(entry, SpaceEntry):
                await self.spaces.reread_space(entry)
            elif isinstance(entry, CollectionEntry):
                show(await client.collections.get(entry.value.id))
            elif isinstance(entry, TeamEntry):
                show(await client.teams.get(org_id, entry.value.id))

        max_length = TEAM_TITLE_MAX if isinstance(entry, TeamEntry) else TITLE_MAX
        fields = [
            FormField("title", "New title", entry.title, required=True, max_length=max_length)
        ]
        if isinstance(entry, CollectionEntry):
            fields.append(
                FormField(
                    "description",
                    "Description (optional)",
                    entry.value.description or "",
                    max_length=DESCRIPTION_MAX,
                )
            )
        self.browser.open_write(
            FormDialog(
                f"Rename “{entry.title}”",
                fields,
                rename,
                doing=f"Renaming “{entry.title}”",
                action_label="Rename",
            ),
            entry,
            "rename",
            applied=renamed,
            reread=reread,
        )

    def _replace_collection(self, entry: CollectionEntry, collection: Collection) -> None:
        org = org_of(entry)
        if org is not None and org.collections is not None:
            org.collections = [c if c.id != collection.id else collection for c in org.collections]
