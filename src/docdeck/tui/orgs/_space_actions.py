"""Browser actions on one space: move, delete (also collections and teams), restore, duplicate.

Each is a write (`docdeck.tui.kit.in_flight`): on success the model is edited in
place from the API's answer (no reload), so the user keeps their place; after a
failure or a dialog closed early, the space is read again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docdeck.gateway import NotFoundError
from docdeck.models import Space
from docdeck.tui.kit.dialogs.confirm import ConfirmDialog
from docdeck.tui.kit.dialogs.pick import PickDialog
from docdeck.tui.kit.entries import (
    CollectionEntry,
    DeletedEntry,
    Entry,
    OrgEntry,
    SpaceEntry,
    TeamEntry,
    org_of,
)

if TYPE_CHECKING:
    from docdeck.tui.orgs._browser import OrgBrowser

__all__ = ["SpaceEdits", "find_collection", "in_tree"]


def find_collection(org: OrgEntry, collection_id: str | None) -> Entry | None:
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


def in_tree(entry: Entry) -> bool:
    """False once an entry was taken out of the model (deleted, restored, reloaded away)."""
    parent = entry.parent
    return parent is not None and entry in (parent.children or ())


def _deleted_of(org: OrgEntry) -> DeletedEntry | None:
    for child in org.children or ():
        if isinstance(child, DeletedEntry):
            return child
    return None


class SpaceEdits:
    """A part the browser holds: its keys for the tree's space (and deleting collections and
    teams) run these."""

    def __init__(self, browser: OrgBrowser) -> None:
        self.browser = browser

    def collection_choices(self, org: OrgEntry) -> list[tuple[str, str]]:
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

    def _where(self, org: OrgEntry, collection_id: str | None) -> str:
        for title, cid in self.collection_choices(org):
            if cid == collection_id:
                return title
        return "the top level"

    def _place(self, org: OrgEntry, entry: SpaceEntry, space: Space) -> None:
        """Put a space where the server says it is now (if that place is loaded)."""
        self.browser.org_tree.discard(entry)
        entry.space = space
        target = find_collection(org, space.parent)
        if target is not None and target.children is not None:
            self.browser.org_tree.insert(target, entry)
            self.browser.org_tree.select_entry(entry)

    async def reread_space(self, entry: SpaceEntry) -> None:
        """Read a space again after a write on it failed or was abandoned; put it where the
        server has it (moved, deleted or restored meanwhile)."""
        org = org_of(entry)
        if not in_tree(entry):
            return  # the answer already took it out (deleted, restored)
        try:
            space = await self.browser.client.spaces.get(entry.value.id)
        except NotFoundError:
            self.browser.org_tree.discard(entry)
            return
        if org is None:
            return
        if space.deletedAt is not None and not entry.deleted:
            self.browser.org_tree.discard(entry)
            self._refill_bin(org)
        elif space.deletedAt is None and entry.deleted:
            self.browser.org_tree.discard(entry)
            self._place(org, SpaceEntry(space=space), space)
        elif space.parent != entry.value.parent:
            self._place(org, entry, space)
        else:
            entry.space = space
            self.browser.org_tree.refresh_entry(entry)

    def move(self) -> None:
        entry = self.browser.org_tree.current
        org = org_of(entry)
        if not isinstance(entry, SpaceEntry) or org is None:
            return
        client = self.browser.client
        choices: list[tuple[str, str | None]] = [("(top level of the organization)", None)]
        choices += [(title, cid) for title, cid in self.collection_choices(org)]
        current = next(
            (index for index, (_, cid) in enumerate(choices) if cid == entry.value.parent), 0
        )
        label, here = choices[current]
        choices[current] = (f"{label}  (current)", here)

        async def move(parent: str | None) -> Space:
            return await client.spaces.move(entry.value.id, parent=parent)

        def moved(space: Space) -> None:
            self._place(org, entry, space)
            where = self._where(org, space.parent)
            self.browser.notify(f"Moved “{space.title}” to {where}.", title="Space moved")

        self.browser.open_write(
            PickDialog(
                f"Move “{entry.title}” to…",
                choices,
                move,
                doing=f"Moving “{entry.title}”",
                current=current,
            ),
            entry,
            "move",
            applied=moved,
            reread=lambda: self.reread_space(entry),
        )

    def delete(self) -> None:
        entry = self.browser.org_tree.current
        org = org_of(entry)
        if entry is None or org is None:
            return
        client = self.browser.client
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

        def deleted(_: bool) -> None:
            self._forget(org, entry)
            self.browser.notify(f"Deleted “{entry.title}”.", title="Deleted")

        async def reread() -> None:
            if not in_tree(entry):
                return
            if isinstance(entry, SpaceEntry):
                await self.reread_space(entry)
                return
            try:
                if isinstance(entry, CollectionEntry):
                    entry.collection = await client.collections.get(entry.value.id)
                elif isinstance(entry, TeamEntry):
                    entry.team = await client.teams.get(org.organization.id, entry.value.id)
            except NotFoundError:
                self._forget(org, entry)
                return
            self.browser.org_tree.refresh_entry(entry)

        self.browser.open_write(
            ConfirmDialog("Delete?", question, delete, doing=f"Deleting “{entry.title}”"),
            entry,
            "delete",
            applied=deleted,
            reread=reread,
        )

    def _forget(self, org: OrgEntry, entry: Entry) -> None:
        self.browser.org_tree.discard(entry)
        if isinstance(entry, CollectionEntry):
            _forget_collection(org, entry.value.id)
        if isinstance(entry, SpaceEntry | CollectionEntry):
            self._refill_bin(org)

    def _refill_bin(self, org: OrgEntry) -> None:
        """Deleted spaces now sit in Recently deleted; reload it if it is shown, else on expand."""
        bin_ = _deleted_of(org)
        if bin_ is not None and bin_.children is not None:
            self.browser.org_tree.load(bin_)

    def _restore_destination(self, org: OrgEntry, entry: SpaceEntry) -> str:
        """Where a restore puts the space, in words: its collection, or the top level when the
        collection is gone (the server's rule)."""
        parent = entry.value.parent
        top = f"the top level of “{org.title}”"
        if parent is None:
            return top
        if org.collections is None:
            return f"its collection, or {top} if that collection was deleted"
        for title, cid in self.collection_choices(org):
            if cid == parent:
                return f"the collection “{title}”"
        return f"{top}: the collection it was in has been deleted"

    def restore(self) -> None:
        entry = self.browser.org_tree.current
        org = org_of(entry)
        if not isinstance(entry, SpaceEntry) or org is None:
            return
        client = self.browser.client

        async def restore() -> Space:
            return await client.spaces.restore(entry.value.id)

        def restored(space: Space) -> None:
            self.browser.org_tree.discard(entry)
            revived = SpaceEntry(space=space)
            target = find_collection(org, space.parent)
            if target is not None:
                self.browser.org_tree.insert(target, revived)
            where = self._where(org, space.parent)
            self.browser.notify(f"Restored “{space.title}” to {where}.", title="Space restored")

        self.browser.open_write(
            ConfirmDialog(
                "Restore?",
                f"Restore the space “{entry.title}” to {self._restore_destination(org, entry)}?",
                restore,
                doing=f"Restoring “{entry.title}”",
                action_label="Restore",
            ),
            entry,
            "restore",
            applied=restored,
            reread=lambda: self.reread_space(entry),
        )

    def duplicate(self) -> None:
        entry = self.browser.org_tree.current
        if not isinstance(entry, SpaceEntry) or entry.parent is None:
            return
        container = entry.parent
        client = self.browser.client

        async def duplicate() -> Space:
            return await client.spaces.duplicate(entry.value.id)

        def duplicated(copy: Space) -> None:
            added = SpaceEntry(space=copy)
            self.browser.org_tree.insert(container, added, after=entry)
            self.browser.org_tree.select_entry(added)
            self.browser.notify(f"Created “{copy.title}”.", title="Space duplicated")

        async def reread() -> None:
            # A copy may exist though the answer never came: show the list as the server has it.
            if container.children is not None:
                self.browser.org_tree.load(container)

        self.browser.send_write(
            entry,
            "duplicate",
            f"Duplicating “{entry.title}”",
            duplicate,
            applied=duplicated,
            reread=reread,
        )
