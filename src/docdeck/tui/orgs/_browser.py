"""The browser: the organization tree (with its filter) beside the selected item's details,
and the keys that act on them.

One widget holds both halves because its keys work from either: `n`, `R` or `y` act on the
tree's entry or on the highlighted row of the detail table whether the tree, a table or a
filter has focus (`FocusPlaces` decides only what the footer advertises where). The keys
are declared here, once; what they do is in the parts it holds: `SpaceEdits` and
`ContentEdits` (spaces, collections, teams), `PeopleEdits` (roles and team members),
`CopyOpen` (`y`, `Y`, `o`) and the sites functions; the tree filter's field searches the
server itself (`TreeFilter`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from functools import cached_property
from typing import Any, ClassVar, TypeVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input
from textual.worker import Worker

from docdeck.gateway import Client
from docdeck.models import Organization
from docdeck.tui.kit.availability import Availability, blocked_by_cause
from docdeck.tui.kit.bindings import QUIT, binder
from docdeck.tui.kit.dialogs.request import RequestDialog
from docdeck.tui.kit.entries import (
    ITS_DETAILS,
    CollectionEntry,
    Entry,
    FoundEntry,
    LoadMoreEntry,
    MembersEntry,
    OrgEntry,
    SiteEntry,
    SpaceEntry,
    TeamEntry,
    org_of,
    trail_of,
)
from docdeck.tui.kit.explained import ExplainsKeys
from docdeck.tui.kit.focus import focus_now
from docdeck.tui.kit.in_flight import Subject, Write, Writes
from docdeck.tui.kit.navigation import OpenAdmin, OpenInbox, OpenSpace
from docdeck.tui.kit.workers import client_of, read, report_worker_failure
from docdeck.tui.last_place import Place as LastPlace
from docdeck.tui.last_place import place_of
from docdeck.tui.orgs._availability import Selection, availability
from docdeck.tui.orgs._content_actions import ContentEdits
from docdeck.tui.orgs._copy_open_actions import CopyOpen
from docdeck.tui.orgs._detail_pane import DetailPane
from docdeck.tui.orgs._focus_keys import FocusPlaces, Place
from docdeck.tui.orgs._org_tree import OrgTree
from docdeck.tui.orgs._people_actions import PeopleEdits
from docdeck.tui.orgs._server_search import TreeFilter
from docdeck.tui.orgs._space_actions import SpaceEdits
from docdeck.tui.orgs.first_view_capture import entry_key
from docdeck.tui.orgs.messages import EntryOpened, EntrySelected, RowChanged, SpaceOpened

__all__ = ["BROWSER_ACTIONS", "OrgBrowser", "organization_here"]

T = TypeVar("T")
W = TypeVar("W", bound=Widget)

BROWSER_ACTIONS = (
    "new_space",
    "new_collection",
    "rename",
    "move",
    "delete",
    "restore",
    "duplicate",
    "change_role",
    "add_team_member",
    "remove_team_member",
    "toggle_team_role",
    "copy",
    "copy_choose",
    "open",
    "new_site",
    "delete_site",
)
"""Actions whose availability depends on the selection and the caller's permissions."""


_b = binder("browser")


_TOGGLE = Binding("t", "toggle_team_role", "Owner/member")


class OrgBrowser(ExplainsKeys, Horizontal):
    BINDINGS: ClassVar[list[BindingType]] = [
        # The app's own keys, repeated here so the footer shows them first at any width.
        Binding(
            "question_mark", "app.help", "Help", id="app.help", tooltip="Every key and what it does"
        ),
        QUIT,
        _b(
            "n",
            "new_space",
            "New space",
            "Create a space in the selected collection or organization",
        ),
        _b(
            "c",
            "new_collection",
            "New collection",
            "Create a collection in the selected one or the organization",
        ),
        _b("e", "rename", "Rename", "Rename the selected space, collection or team"),
        _b("m", "move", "Move", "Move the selected space into a collection or to the top level"),
        _b(
            "d,delete",
            "delete",
            "Delete",
            "Delete the selected space, collection or team (asks first)",
        ),
        _b("u", "restore", "Restore", "Restore the selected recently deleted space"),
        _b("D", "duplicate", "Duplicate", "Make a copy of the selected space next to it"),
        _b(
            "R",
            "change_role",
            "Change role",
            "Change the organization role of the highlighted member",
        ),
        _b("y", "copy", "Copy id", "Copy the id of the selection or of the highlighted row"),
        _b("Y", "copy_choose", "Copy…", "Choose what to copy: id, URL, title, email"),
        _b("o", "open", "Open", "Open the selection's page in the browser (or copy its URL)"),
        _b(
            "a",
            "add_team_member",
            "Add member",
            "Add a member to the selected team by email or id",
        ),
        _b(
            "x",
            "remove_team_member",
            "Remove member",
            "Remove the highlighted member from the team",
        ),
        _b(
            "t",
            "toggle_team_role",
            "Owner/member",
            "Make the highlighted team member an owner, or a member again",
        ),
        # A priority binding: it moves focus before the keys typed after it are routed
        # (`docdeck.tui.kit.focus`); in a text field it does not apply, so "/" is typed there.
        _b("slash", "filter", "Filter", "Filter the loaded tree by title", priority=True),
        _b(
            "escape",
            "back",
            "Back",
            "Clear the tree filter, or go back to the tree from the pane",
        ),
        _b("r", "refresh", "Refresh", "Reload the selected item and what is under it"),
        # On the Sites node n and d are the site's (`new_space`/`delete` do not apply there).
        _b("n", "new_site", "New site", "Create a docs site showing spaces picked from a list"),
        _b("d,delete", "delete_site", "Delete site", "Delete the selected site (asks first)"),
        _b("i", "review_inbox", "Inbox", "Open change requests I wrote or am asked to review"),
    ]
    EXPLAINED_ACTIONS = BROWSER_ACTIONS

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown_states: tuple[object, ...] = ()
        self._away_in: OrgEntry | None = None
        """The organization whose administration screen was opened, until this screen is in
        front again."""
        self._away_at: LastPlace | None = None
        """What the screen in front of this one shows (a space, a change request, a site),
        however it was opened, until this screen is in front again."""

    def compose(self) -> ComposeResult:
        with Vertical(id="tree-panel"):
            tree = OrgTree(id="org-tree")
            field = TreeFilter(tree, placeholder="filter the tree by title", id="tree-filter")
            field.display = False  # until "/" (or a paste over the tree)
            yield field
            yield tree
        yield DetailPane(id="detail")

    # ----- the parts -------------------------------------------------------------------------

    @property
    def org_tree(self) -> OrgTree:
        return self._part(OrgTree) or self.query_one(OrgTree)

    @property
    def detail(self) -> DetailPane:
        return self._part(DetailPane) or self.query_one(DetailPane)

    @property
    def ready(self) -> bool:
        """Both halves are mounted (the first request can go)."""
        return self._part(OrgTree) is not None and self._part(DetailPane) is not None

    def _part(self, kind: type[W]) -> W | None:
        """The browser's one `kind` widget, or None before it is mounted. Kept once found:
        the footer asks for the selection (so for the tree and the detail pane) for every
        key it shows, and a DOM query each time made every footer update cost ~1 ms a key."""
        parts: dict[type[Widget], Widget] = self.__dict__.setdefault("_parts", {})
        found = parts.get(kind)
        if found is None or not found.is_attached or found.screen is not self.screen:
            found = next(iter(self.query(kind)), None)
            if found is None:
                return None
            parts[kind] = found
        assert isinstance(found, kind)
        return found

    @property
    def client(self) -> Client:
        return client_of(self)

    @cached_property
    def places(self) -> FocusPlaces:
        return FocusPlaces(self)

    @cached_property
    def spaces(self) -> SpaceEdits:
        return SpaceEdits(self)

    @cached_property
    def content(self) -> ContentEdits:
        return ContentEdits(self, self.spaces)

    @cached_property
    def people(self) -> PeopleEdits:
        return PeopleEdits(self)

    @cached_property
    def copy_open(self) -> CopyOpen:
        return CopyOpen(self)

    # ----- writes in flight (`docdeck.tui.kit.in_flight`) -------------------------------------

    @cached_property
    def writes(self) -> Writes:
        return Writes(self, self._busy_changed)

    def _busy_changed(self, subject: Subject) -> None:
        if isinstance(subject, Entry):
            self.org_tree.show_marks(subject)

    def open_write(
        self,
        dialog: RequestDialog[T],
        subject: Entry,
        action: str,
        *,
        applied: Callable[[T], None] | None = None,
        reread: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """Open a dialog whose request is a write on `subject`; while the same action on it
        still runs (its dialog closed early), the key is ignored (the tree shows it busy)."""
        if self.writes.running(subject, action):
            self.app.bell()
            return
        self.app.push_screen(
            dialog.follow(self.writes, subject, action, applied=applied, reread=reread)
        )

    def send_write(
        self,
        subject: Entry,
        action: str,
        doing: str,
        request: Callable[[], Awaitable[Any]],
        *,
        applied: Callable[[Any], None] | None = None,
        reread: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """A write without a dialog (a key does it at once); repeats are ignored while it runs."""
        self.writes.start(Write(subject, action, doing, request, applied=applied, reread=reread))

    # ----- focus (`FocusPlaces`) ---------------------------------------------------------------

    @property
    def place(self) -> Place:
        return self.places.place

    @property
    def row_focused(self) -> bool:
        return self.places.row_focused

    def footer_label(self, binding: Binding) -> str | None:
        return self.places.footer_label(binding)

    # ----- selection and availability --------------------------------------------------------

    @property
    def selection(self) -> Selection:
        if not self.is_mounted or self._part(DetailPane) is None:
            return Selection()
        detail = self.detail
        return Selection(
            entry=self.org_tree.current,
            member=detail.highlighted_member,
            membership=detail.highlighted_membership,
            row_focused=self.row_focused,
        )

    def availability_of(self, action: str) -> Availability:
        return availability(action, self.selection)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "filter" and isinstance(self.screen.focused, Input):
            return False  # "/" is typed into the field (the filter or a member search)
        if action in BROWSER_ACTIONS:
            return self.check_explained(action)
        if action == "back":
            return self.places.back_applies()
        return True

    def why_unavailable(self, action: str) -> str | None:
        return self.availability_of(action).reason if action in BROWSER_ACTIONS else None

    def _selection_changed(self) -> None:
        """Update the footer and the reasons line, but only when they change: rebuilding the
        footer on every cursor move is what makes a long tree feel slow."""
        selection = self.selection
        states = tuple(availability(action, selection) for action in BROWSER_ACTIONS)
        # The footer's words follow the highlighted row too ("Make owner" / "Make member").
        shown = (*states, self.place, self.footer_label(_TOGGLE))
        if shown == self._shown_states:
            return
        self._shown_states = shown
        self.refresh_bindings()
        blocked = blocked_by_cause(BROWSER_ACTIONS, states, self._description)
        self.detail.set_reasons(
            [f"{', '.join(actions)}: {cause}" for cause, actions in blocked.items()]
        )

    def _description(self, action: str) -> str:
        for _key, binding in self._bindings:
            if binding.action == action:
                return binding.description
        return action

    @on(EntrySelected)
    def _entry_selected(self, message: EntrySelected) -> None:
        self.detail.show(message.entry)
        self._selection_changed()

    @on(RowChanged)
    def _row_changed(self) -> None:
        self._selection_changed()

    @on(EntryOpened)
    def _entry_opened(self) -> None:
        self.places.drill_in()

    @on(SpaceOpened)
    def _space_opened(self, message: SpaceOpened) -> None:
        """Enter on a space: its content on a screen of its own; Escape comes back here."""
        entry = message.entry
        if not isinstance(entry, SpaceEntry) or entry.space is None:
            return
        if entry.deleted:
            self.notify(
                "A deleted space's content cannot be read; restore it first (u).",
                title="Deleted space",
                severity="warning",
            )
            return
        # Under "Found on the server" the collections above the space are not in the tree:
        # its breadcrumb is read (`OpenSpace` without a trail).
        found = isinstance(entry.parent, FoundEntry)
        self.app.post_message(OpenSpace(entry.value, None if found else trail_of(entry)))

    @on(OpenAdmin)
    def _admin_opening(self, message: OpenAdmin) -> None:
        """Enter on an administration view (the tree posts it; it goes on to the app):
        remember its organization, whose title, hostname or default role the settings
        screen may change."""
        org = org_of(self.org_tree.current)
        if org is not None and org.org is not None:
            self._away_in = org

    def behind(self, front: Screen[Any]) -> None:
        """Another screen is in front of this one: what it shows is remembered, whichever way
        it was opened (Enter here, the last session's place restored, `docdeck open`)."""
        self._away_at = place_of([front], None)

    def back_in_front(self) -> None:
        """This screen is in front again. Back from a space's or a site's screen, its entry
        is read again: what was done there (a comment, a change request opened or merged, a
        page edited; a site space added, the site published) changes what its details and
        its line say (counts, state, the time of the last update); back from an
        organization's administration screen, the organization (its line says its title).
        One request, answered from the server's answer cache when nothing changed. (The
        site editor restored from the last session was not read again: only an Enter here
        said what was opened.)"""
        entry: Entry | None
        entry, self._away_in = self._away_in, None
        place, self._away_at = self._away_at, None
        if entry is None and place is not None:
            entry = self._entry_showing(place)
        if entry is not None:
            self._refetch(entry)

    def _entry_showing(self, place: LastPlace) -> Entry | None:
        """The tree's entry (among those loaded; the cursor's first) of the space or the
        site `place` shows, found by its key (`entry_key`, as the saved cursor is)."""
        if place.kind in ("space", "change_request"):
            key = f"space:{place.space}"
        elif place.kind == "site":
            key = f"site:{place.site}"
        else:
            return None
        current = self.org_tree.current
        if current is not None and entry_key(current) == key:
            return current
        waiting: list[Entry] = [self.org_tree.model]
        while waiting:
            entry = waiting.pop()
            if entry_key(entry) == key:
                return entry
            waiting.extend(entry.children or ())
        return None

    # ----- the keys: each runs its part ------------------------------------------------------

    def action_new_space(self) -> None:
        self.content.new_space()

    def action_new_collection(self) -> None:
        self.content.new_collection()

    def action_rename(self) -> None:
        self.content.rename()

    def action_move(self) -> None:
        self.spaces.move()

    def action_delete(self) -> None:
        self.spaces.delete()

    def action_restore(self) -> None:
        self.spaces.restore()

    def action_duplicate(self) -> None:
        self.spaces.duplicate()

    def action_change_role(self) -> None:
        self.people.change_role()

    def action_add_team_member(self) -> None:
        self.people.add_team_member()

    def action_remove_team_member(self) -> None:
        self.people.remove_team_member()

    def action_toggle_team_role(self) -> None:
        self.people.toggle_team_role()

    def action_copy(self) -> None:
        self.copy_open.copy()

    def action_copy_choose(self) -> None:
        self.copy_open.copy_choose()

    def action_open(self) -> None:
        self.copy_open.open()

    def action_new_site(self) -> None:
        from docdeck.tui.orgs._site_actions import new_site

        new_site(self)

    def action_delete_site(self) -> None:
        from docdeck.tui.orgs._site_actions import delete_site

        delete_site(self)

    def action_review_inbox(self) -> None:
        organization = organization_here(self)
        if organization is None:
            self.notify("No organization is loaded yet; wait for the tree.", title="Inbox")
            return
        self.app.post_message(OpenInbox(organization))

    def action_back(self) -> None:
        self.places.back()

    # ----- filter and refresh ----------------------------------------------------------------

    def action_filter(self) -> None:
        field = self.query_one("#tree-filter", Input)
        field.display = True
        focus_now(field)  # the keys typed right after "/" are the filter's
        self.refresh_bindings()

    def on_paste(self, event: events.Paste) -> None:
        """Text pasted over the tree (with or without its "/") is a filter."""
        if not isinstance(self.screen.focused, OrgTree):
            return
        text = event.text.strip().removeprefix("/").strip()
        if not text or "\n" in text:
            return
        event.stop()
        self.action_filter()
        field = self.query_one("#tree-filter", Input)
        field.value = text
        field.cursor_position = len(text)

    @on(Input.Changed, "#tree-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.org_tree.set_filter(event.value)  # the field itself asks the server

    @on(Input.Submitted, "#tree-filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.org_tree.focus()

    def action_refresh(self) -> None:
        entry = self.org_tree.current
        if entry is None or isinstance(entry, LoadMoreEntry):
            entry = entry.parent if entry is not None else None
        if entry is None or entry is self.org_tree.model:
            self.org_tree.load_root()
            return
        if isinstance(entry, OrgEntry):
            entry.collections = None
        if isinstance(entry, CollectionEntry):
            org = org_of(entry)
            if org is not None:
                org.collections = None
        if isinstance(entry, MembersEntry):
            entry.member_pages.clear()
            table = self.detail.member_table
            if table is not None and table.entry is entry:
                table.reload()
            else:
                self.detail.show(entry)
        if isinstance(entry, TeamEntry):
            org = org_of(entry)
            if org is not None:
                self._reload_team(entry, org.organization.id)
            return
        if isinstance(entry, SpaceEntry | OrgEntry | SiteEntry):
            self._refetch(entry)
        if entry.expandable and (entry.expanded or entry.children is not None or entry.failed):
            self.org_tree.load(entry, keep=True)
        elif entry.expandable:
            entry.children = None

    @read("refresh", lambda self, entry, org_id: f"Reloading {entry.title}")
    async def _reload_team(self, entry: TeamEntry, org_id: str) -> None:
        await self.people.reload_team(entry, org_id)

    @read("refresh", lambda self, entry: f"Reloading {entry.title}")
    async def _refetch(self, entry: Entry) -> None:
        try:
            if isinstance(entry, SpaceEntry):
                entry.space = await self.client.spaces.get(entry.value.id)
            elif isinstance(entry, OrgEntry):
                entry.org = await self.client.orgs.get(entry.organization.id)
            elif isinstance(entry, SiteEntry) and (org := org_of(entry)) is not None:
                entry.site = await self.client.sites.get(org.organization.id, entry.value.id)
        except Exception as error:
            self.org_tree.mark_stale(entry, ITS_DETAILS, error)  # shown: the earlier load
            raise
        entry.loaded_at = datetime.now().astimezone()
        if not entry.loading:
            self.org_tree.clear_stale(entry)
        self.org_tree.refresh_entry(entry)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        report_worker_failure(self, event)


def organization_here(browser: OrgBrowser) -> Organization | None:
    """The organization of the tree's cursor, else the tree's first organization."""
    tree = browser.org_tree
    entry = tree.current
    while entry is not None and not isinstance(entry, OrgEntry):
        entry = entry.parent
    if isinstance(entry, OrgEntry) and entry.org is not None:
        return entry.org
    for node in tree.root.children:
        if isinstance(node.data, OrgEntry) and node.data.org is not None:
            return node.data.org
    return None
