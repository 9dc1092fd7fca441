"""Browser actions on spaces and collections: create, rename, move, delete, restore, duplicate.

Each opens a dialog whose request runs in a worker; on success the tree's model
is edited in place (no reload), so the user keeps their place.
"""

from __future__ import annotations

from docdeck.gateway import NOT_GIVEN
from docdeck.models import Collection, Space, Team
from docdeck.tui.emoji_check import emoji_problem
from docdeck.tui.entries import (
    CollectionEntry,
    DeletedEntry,
    Entry,
    OrgEntry,
    SpaceEntry,
    TeamEntry,
    container_of,
    org_of,
)
from docdeck.tui.screens._browser_base import BrowserBase
from docdeck.tui.screens._confirm import ConfirmDialog
from docdeck.tui.screens._form import FormDialog, FormField
from docdeck.tui.screens._pick import PickDialog

__all__ = ["ContentActions"]

TITLE_MAX = 50
"""Space and collection titles (the API's limit)."""
DESCRIPTION_MAX = 100
"""Collection descriptions."""
TEAM_TITLE_MAX = 64
EMOJI_MAX = 50


def _find_collection(org: OrgEntry, collection_id: str | None) -> Entry | None:
    """The loaded entry that shows a collection (the org for the top level); None if not shown."""
    if collection_id is None:
        return org

    def walk(entry: Entry) -> Entry | None:
        for child in entry.children or ():
            if isinstance(child, CollectionEntry):
                if child.value.id == collection_id:
                    return child
                found = walk(child)
                if found is not None:
                    return found
        return None

    return walk(org)


def _forget_collection(org: OrgEntry, collection_id: str) -> None:
    """Drop a deleted collection and the ones nested in it from the organization's list."""
    if org.collections is None:
        return
    gone = {collection_id}
    changed = True
    while changed:
        changed = False
        for collection in org.collections:
            if collection.parent in gone and collection.id not in gone:
                gone.add(collection.id)
                changed = True
    org.collections = [c for c in org.collections if c.id not in gone]


def _deleted_of(org: OrgEntry) -> DeletedEntry | None:
    for child in org.children or ():
        if isinstance(child, DeletedEntry):
            return child
    return None


class ContentActions(BrowserBase):
    def action_new_space(self) -> None:
        container = container_of(self.org_tree.current)
        org = org_of(container)
        if container is None or org is None:
            return
        parent = container.value.id if isinstance(container, CollectionEntry) else NOT_GIVEN
        client = self.client

        async def create(values: dict[str, str]) -> Space:
            return await client.spaces.create(
                org.organization.id,
                title=values["title"].strip(),
                emoji=values["emoji"].strip() or NOT_GIVEN,
                parent=parent,
            )

        def created(space: Space | None) -> None:
            if space is not None:
                entry = SpaceEntry(space=space)
                self.org_tree.insert(container, entry)
                self.org_tree.select_entry(entry)
                self.notify(f"Created the space “{space.title}”.", title="Space created")

        self.app.push_screen(
            FormDialog(
                f"New space in {container.title}",
                [
                    FormField("title", "Title", required=True, max_length=TITLE_MAX),
                    FormField(
                        "emoji",
                        "Emoji (optional)",
                        placeholder="one emoji, e.g. 📘",
                        max_length=EMOJI_MAX,
                        check=emoji_problem,
                    ),
                ],
                create,
                doing=f"Creating a space in {container.title}",
                action_label="Create",
            ),
            callback=created,
        )

    def action_new_collection(self) -> None:
        container = container_of(self.org_tree.current)
        org = org_of(container)
        if container is None or org is None:
            return
        parent = container.value.id if isinstance(container, CollectionEntry) else NOT_GIVEN
        client = self.client

        async def create(values: dict[str, str]) -> Collection:
            return await client.collections.create(
                org.organization.id, title=values["title"].strip(), parent=parent
            )

        def created(collection: Collection | None) -> None:
            if collection is None:
                return
            if org.collections is not None:
                org.collections.append(collection)
            entry = CollectionEntry(collection=collection, children=[])
            self.org_tree.insert(container, entry)
            self.org_tree.select_entry(entry)
            self.notify(f"Created the collection “{collection.title}”.", title="Collection created")

        self.app.push_screen(
            FormDialog(
                f"New collection in {container.title}",
                [FormField("title", "Title", required=True, max_length=TITLE_MAX)],
                create,
                doing=f"Creating a collection in {container.title}",
                action_label="Create",
            ),
            callback=created,
        )

    def action_rename(self) -> None:
        entry = self.org_tree.current
        if entry is None:
            return
        client = self.client

        async def rename(values: dict[str, str]) -> object:
            title = values["title"].strip()
            if isinstance(entry, SpaceEntry):
                return await client.spaces.update(entry.value.id, title=title)
            if isinstance(entry, CollectionEntry):
                return await client.collections.update(
                    entry.value.id, title=title, description=values["description"].strip()
                )
            if isinstance(entry, TeamEntry):
                org = org_of(entry)
                assert org is not None
                return await client.teams.update(org.organization.id, entry.value.id, title=title)
            raise ValueError("nothing to rename")

        def renamed(result: object) -> None:
            if result is None:
                return
            if isinstance(entry, SpaceEntry) and isinstance(result, Space):
                entry.space = result
            elif isinstance(entry, CollectionEntry) and isinstance(result, Collection):
                entry.collection = result
                self._replace_collection(entry, result)
            elif isinstance(entry, TeamEntry) and isinstance(result, Team):
                entry.team = result
            self.org_tree.refresh_entry(entry)
            self.notify(f"Renamed to “{entry.title}”.", title="Renamed")

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
        self.app.push_screen(
            FormDialog(
                f"Rename “{entry.title}”",
                fields,
                rename,
                doing=f"Renaming “{entry.title}”",
                action_label="Rename",
            ),
            callback=renamed,
        )

    def _replace_collection(self, entry: CollectionEntry, collection: Collection) -> None:
        org = org_of(entry)
        if org is not None and org.collections is not None:
            org.collections = [c if c.id != collection.id else collection for c in org.collections]

    def action_move(self) -> None:
        entry = self.org_tree.current
        org = org_of(entry)
        if not isinstance(entry, SpaceEntry) or org is None:
            return
        client = self.client
        choices: list[tuple[str, str | None]] = [("(top level of the organization)", None)]
        choices += [(title, cid) for title, cid in self._collection_choices(org)]
        current = next(
            (index for index, (_, cid) in enumerate(choices) if cid == entry.value.parent), 0
        )
        label, here = choices[current]
        choices[current] = (f"{label}  (current)", here)

        async def move(parent: str | None) -> Space:
            return await client.spaces.move(entry.value.id, parent=parent)

        def moved(space: Space | None) -> None:
            if space is None:
                return
            self.org_tree.discard(entry)
            entry.space = space
            target = _find_collection(org, space.parent)
            if target is not None and target.children is not None:
                self.org_tree.insert(target, entry)
                self.org_tree.select_entry(entry)
            where = next(
                (title for title, cid in choices if cid == space.parent and cid is not None),
                "the top level",
            ).removesuffix("  (current)")
            self.notify(f"Moved “{space.title}” to {where}.", title="Space moved")

        self.app.push_screen(
            PickDialog(
                f"Move “{entry.title}” to…",
                choices,
                move,
                doing=f"Moving “{entry.title}”",
                current=current,
            ),
            callback=moved,
        )

    def _collection_choices(self, org: OrgEntry) -> list[tuple[str, str]]:
        """Collections as paths ("Engineering / API"), depth first, from the org's loaded list."""
        collections = org.collections or []
        result: list[tuple[str, str]] = []

        def walk(parent: str | None, path: str) -> None:
            for collection in collections:
                if collection.parent == parent:
                    title = f"{path}{collection.title}"
                    result.append((title, collection.id))
                    walk(collection.id, f"{title} / ")

        walk(None, "")
        return result

    def action_delete(self) -> None:
        entry = self.org_tree.current
        org = org_of(entry)
        if entry is None or org is None:
            return
        client = self.client
        if isinstance(entry, SpaceEntry):
            question = (
                f"Delete the space “{entry.title}”? It moves to Recently deleted "
                "and can be restored for 7 days."
            )
        elif isinstance(entry, CollectionEntry):
            question = (
                f"Delete the collection “{entry.title}” and the collections in it? Their "
                "spaces move to Recently deleted and can be restored for 7 days."
            )
        elif isinstance(entry, TeamEntry):
            question = f"Delete the team “{entry.title}”? Its members stay in the organization."
        else:
            return

        async def delete() -> bool:
            if isinstance(entry, SpaceEntry):
                await client.spaces.delete(entry.value.id)
            elif isinstance(entry, CollectionEntry):
                await client.collections.delete(entry.value.id)
            elif isinstance(entry, TeamEntry):
                await client.teams.delete(org.organization.id, entry.value.id)
            return True

        def deleted(done: bool | None) -> None:
            if not done:
                return
            self.org_tree.discard(entry)
            if isinstance(entry, CollectionEntry):
                _forget_collection(org, entry.value.id)
            if isinstance(entry, SpaceEntry | CollectionEntry):
                self._refill_bin(org)
            self.notify(f"Deleted “{entry.title}”.", title="Deleted")

        self.app.push_screen(
            ConfirmDialog("Delete?", question, delete, doing=f"Deleting “{entry.title}”"),
            callback=deleted,
        )

    def _refill_bin(self, org: OrgEntry) -> None:
        """Deleted spaces now sit in Recently deleted; reload it if it is shown, else on expand."""
        bin_ = _deleted_of(org)
        if bin_ is not None and bin_.children is not None:
            self.org_tree.load(bin_)

    def action_restore(self) -> None:
        entry = self.org_tree.current
        org = org_of(entry)
        if not isinstance(entry, SpaceEntry) or org is None:
            return
        client = self.client

        async def restore() -> Space:
            return await client.spaces.restore(entry.value.id)

        def restored(space: Space | None) -> None:
            if space is None:
                return
            self.org_tree.discard(entry)
            revived = SpaceEntry(space=space)
            target = _find_collection(org, space.parent)
            if target is not None:
                self.org_tree.insert(target, revived)
            self.notify(f"Restored “{space.title}”.", title="Space restored")

        self.app.push_screen(
            ConfirmDialog(
                "Restore?",
                f"Restore the space “{entry.title}” to where it was?",
                restore,
                doing=f"Restoring “{entry.title}”",
                action_label="Restore",
            ),
            callback=restored,
        )

    def action_duplicate(self) -> None:
        entry = self.org_tree.current
        if not isinstance(entry, SpaceEntry) or entry.parent is None:
            return
        container = entry.parent
        self.run_worker(
            self._duplicate(entry, container),
            name=f"Duplicating “{entry.title}”",
            group="duplicate",
            exclusive=True,
            exit_on_error=False,
        )

    async def _duplicate(self, entry: SpaceEntry, container: Entry) -> None:
        copy = await self.client.spaces.duplicate(entry.value.id)
        duplicate = SpaceEntry(space=copy)
        self.org_tree.insert(container, duplicate, after=entry)
        self.org_tree.select_entry(duplicate)
        self.notify(f"Created “{copy.title}”.", title="Space duplicated")
