"""The browser: organization tree on the left, the selected item's details on the right."""

from __future__ import annotations

from datetime import datetime
from functools import cached_property
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Header, Input
from textual.worker import Worker

from docdeck.models import Organization
from docdeck.tui.kit.availability import Availability, Selection, availability
from docdeck.tui.kit.bindings import binder
from docdeck.tui.kit.entries import (
    ITS_DETAILS,
    CollectionEntry,
    Entry,
    LoadMoreEntry,
    MembersEntry,
    OrgEntry,
    SpaceEntry,
    TeamEntry,
    org_of,
    trail_of,
)
from docdeck.tui.kit.explained import ExplainsKeys
from docdeck.tui.kit.focus import focus_now
from docdeck.tui.kit.footer import BrowserFooter
from docdeck.tui.kit.help import HelpRow
from docdeck.tui.kit.navigation import OpenInbox, OpenSpace
from docdeck.tui.kit.session import session_of
from docdeck.tui.kit.workers import report_worker_failure
from docdeck.tui.orgs._content_actions import ContentEdits
from docdeck.tui.orgs._copy_open_actions import CopyOpen
from docdeck.tui.orgs._detail_pane import DetailPane
from docdeck.tui.orgs._focus_keys import FocusKeys
from docdeck.tui.orgs._org_tree import OrgTree
from docdeck.tui.orgs._people_actions import PeopleEdits
from docdeck.tui.orgs._server_search import TreeFilter
from docdeck.tui.orgs._space_actions import SpaceEdits
from docdeck.tui.orgs.messages import EntryOpened, EntrySelected, RowChanged, SpaceOpened

__all__ = ["BROWSER_ACTIONS", "MainScreen"]

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


TREE_INTRO = (
    "The tree lists organizations; expand one (→, space or enter) to load its collections, "
    "spaces, Members, Teams and Recently deleted; ← collapses or goes to the parent. Lists load "
    "a page at a time: reaching “… load more” loads the next page. The pane on the right shows "
    "the selected item; enter on Members or a team goes into its table, escape comes back, and "
    "tab moves between the tree and the pane's table and filters. j/k, g/G, ctrl+d/ctrl+u, "
    "home/end move in every list. y copies, o opens in the browser. Keys shown "
    "dimmed in the footer are not allowed for you here; the pane's last line says why. "
    "ctrl+p opens the command palette with every action.\n"
)
"""The tree's paragraph in help (`?`)."""


class MainScreen(ExplainsKeys, FocusKeys):
    BINDINGS: ClassVar[list[BindingType]] = [
        # The app's own keys, repeated here so the footer shows them first at any width.
        Binding(
            "question_mark", "app.help", "Help", id="app.help", tooltip="Every key and what it does"
        ),
        Binding("q", "app.quit", "Quit", id="app.quit", tooltip="Leave docdeck"),
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
    BROWSER_ACTIONS = BROWSER_ACTIONS
    EXPLAINED_ACTIONS = BROWSER_ACTIONS
    help_intro = TREE_INTRO
    AUTO_FOCUS = "OrgTree"

    def __init__(self, account_label: str) -> None:
        super().__init__()
        self.account_label = account_label
        self._started = False
        self._shown_states: tuple[object, ...] = ()
        self._never_covered = True

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="browser"):
            with Vertical(id="tree-panel"):
                tree = OrgTree(id="org-tree")
                yield TreeFilter(tree, placeholder="filter the tree by title", id="tree-filter")
                yield tree
            yield DetailPane(id="detail")
        yield BrowserFooter()

    def on_mount(self) -> None:
        self.query_one("#tree-filter", Input).display = False
        if session_of(self).client is not None:
            self.start()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # Until another screen first covers it, the browser has missed no style change (the
        # app restyles the active screen), and it was styled as it mounted: restyling every
        # node on the resumes of its install (two) cost ~25 ms before the first live view.
        if self._never_covered:
            event.refresh_styles = False

    def on_screen_suspend(self) -> None:
        self._never_covered = False

    @property
    def started(self) -> bool:
        return self._started

    def start(self) -> None:
        """Once both connected and composed: the first request, for the organizations."""
        if self._started or self._part(OrgTree) is None or self._part(DetailPane) is None:
            return
        self._started = True
        self.detail.show(None)
        self.org_tree.load_root()

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

    def _check_browser_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in BROWSER_ACTIONS:
            return self.check_explained(action)
        if action == "back":
            return self.back_applies()
        return True

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

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "filter" and isinstance(self.focused, Input):
            return False  # "/" is typed into the field (the filter or a member search)
        return self._check_browser_action(action, parameters)

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
        blocked: dict[str, list[str]] = {}
        for action, state in zip(BROWSER_ACTIONS, states, strict=True):
            if state.reason is not None:
                blocked.setdefault(state.cause, []).append(self._description(action))
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
        self.drill_in()

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
        self.app.post_message(OpenSpace(entry.value, trail_of(entry)))

    def why_unavailable(self, action: str) -> str | None:
        return self.availability_of(action).reason if action in BROWSER_ACTIONS else None

    def help_rows(self) -> list[HelpRow]:
        """One row per action of this screen and the app, with the keys the keymap gives it."""
        keys: dict[str, list[str]] = {}
        found: dict[str, Binding] = {}
        keymap = self.app._keymap
        for node in (self, self.app):
            bindings = node._bindings.copy()
            if keymap:
                bindings.apply_keymap(keymap)
            for _key, binding in bindings:
                if binding.id is None or binding.action == "back":
                    continue
                found.setdefault(binding.id, binding)
                keys.setdefault(binding.id, []).append(self.app.get_key_display(binding))
        rows: list[HelpRow] = []
        for binding_id, binding in found.items():
            state = ""
            if binding.action in BROWSER_ACTIONS:
                available = self.availability_of(binding.action)
                if not available.applies:
                    state = "Not for the current selection."
                elif available.reason is not None:
                    state = available.reason
            key = ", ".join(dict.fromkeys(keys[binding_id]))
            rows.append(HelpRow(key, binding.description, binding.tooltip, state, binding_id))
        rows.append(HelpRow("ctrl+p", "Palette", "Search and run any action by name"))
        return rows

    # ----- spaces, collections, teams (`SpaceEdits`, `ContentEdits`) -------------------------

    @cached_property
    def spaces(self) -> SpaceEdits:
        return SpaceEdits(self)

    @cached_property
    def content(self) -> ContentEdits:
        return ContentEdits(self, self.spaces)

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

    # ----- people (`PeopleEdits`) ------------------------------------------------------------

    @cached_property
    def people(self) -> PeopleEdits:
        return PeopleEdits(self)

    def action_change_role(self) -> None:
        self.people.change_role()

    def action_add_team_member(self) -> None:
        self.people.add_team_member()

    def action_remove_team_member(self) -> None:
        self.people.remove_team_member()

    def action_toggle_team_role(self) -> None:
        self.people.toggle_team_role()

    # ----- copy and open (`CopyOpen`) -------------------------------------------------------

    @cached_property
    def copy_open(self) -> CopyOpen:
        return CopyOpen(self)

    def action_copy(self) -> None:
        self.copy_open.copy()

    def action_copy_choose(self) -> None:
        self.copy_open.copy_choose()

    def action_open(self) -> None:
        self.copy_open.open()

    # ----- filter and refresh ----------------------------------------------------------------

    def action_filter(self) -> None:
        field = self.query_one("#tree-filter", Input)
        field.display = True
        focus_now(field)  # the keys typed right after "/" are the filter's
        self.refresh_bindings()

    def on_paste(self, event: events.Paste) -> None:
        """Text pasted over the tree (with or without its "/") is a filter."""
        if not isinstance(self.focused, OrgTree):
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
                self.run_worker(
                    self.people.reload_team(entry, org.organization.id),
                    name=f"Reloading {entry.title}",
                    group="refresh",
                    exclusive=True,
                    exit_on_error=False,
                )
            return
        if isinstance(entry, SpaceEntry | OrgEntry):
            self.run_worker(
                self._refetch(entry),
                name=f"Reloading {entry.title}",
                group="refresh",
                exclusive=True,
                exit_on_error=False,
            )
        if entry.expandable and (entry.expanded or entry.children is not None or entry.failed):
            self.org_tree.load(entry, keep=True)
        elif entry.expandable:
            entry.children = None

    async def _refetch(self, entry: Entry) -> None:
        try:
            if isinstance(entry, SpaceEntry):
                entry.space = await self.client.spaces.get(entry.value.id)
            elif isinstance(entry, OrgEntry):
                entry.org = await self.client.orgs.get(entry.organization.id)
        except Exception as error:
            self.org_tree.mark_stale(entry, ITS_DETAILS, error)  # shown: the earlier load
            raise
        entry.loaded_at = datetime.now().astimezone()
        if not entry.loading:
            self.org_tree.clear_stale(entry)
        self.org_tree.refresh_entry(entry)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        report_worker_failure(self, event)


def organization_here(screen: MainScreen) -> Organization | None:
    """The organization of the tree's cursor, else the tree's first organization."""
    tree = screen.org_tree
    entry = tree.current
    while entry is not None and not isinstance(entry, OrgEntry):
        entry = entry.parent
    if isinstance(entry, OrgEntry) and entry.org is not None:
        return entry.org
    for node in tree.root.children:
        if isinstance(node.data, OrgEntry) and node.data.org is not None:
            return node.data.org
    return None
