"""Which keys belong to the focused widget, what the footer calls them, Enter and Escape.

The browser has three places keys go: the tree, a detail table (Members, a
team's members) and a text field (the tree filter, the member search). A key
is advertised only where it does something: the tree's actions while the tree
has focus, a table's row actions while that table has it, and in a text field
only the keys that are not typed into it. The keys themselves keep working
wherever Textual delivers them; this decides what the footer says.

A part the browser holds (`FocusPlaces`), not a base class of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from textual.binding import Binding
from textual.widgets import DataTable, Input

from docdeck.tui.kit.focus import focus_now
from docdeck.tui.orgs._org_tree import OrgTree
from docdeck.tui.orgs._server_search import TreeFilter

if TYPE_CHECKING:
    from textual.widget import Widget

    from docdeck.tui.orgs._browser import OrgBrowser

__all__ = ["FOOTER_PRIORITY", "FocusPlaces", "Place"]

Place = Literal["tree", "members", "team", "field"]

_EVERYWHERE = {"app.help", "app.quit", "copy", "copy_choose", "refresh", "back"}
_SCOPES: dict[Place, set[str]] = {
    "tree": _EVERYWHERE
    | {
        "new_space",
        "new_collection",
        "rename",
        "move",
        "delete",
        "restore",
        "duplicate",
        "open",
        "filter",
        "add_team_member",
        "new_site",
        "delete_site",
    },
    "members": _EVERYWHERE | {"change_role"},
    "team": _EVERYWHERE | {"add_team_member", "remove_team_member", "toggle_team_role"},
    "field": {"back"},
}

FOOTER_PRIORITY = (
    "app.help",
    "back",
    "app.quit",
    "new_space",
    "new_site",
    "new_collection",
    "rename",
    "move",
    "delete",
    "delete_site",
    "restore",
    "change_role",
    "add_team_member",
    "remove_team_member",
    "toggle_team_role",
    "open",
    "copy",
    "duplicate",
    "filter",
    "refresh",
    "copy_choose",
)
"""What the footer keeps first when not every key fits (`?` lists them all)."""


class FocusPlaces:
    """Where focus is in the browser, and what that means for its keys."""

    def __init__(self, browser: OrgBrowser) -> None:
        self.browser = browser

    @property
    def focused(self) -> Widget | None:
        return self.browser.screen.focused

    @property
    def place(self) -> Place:
        focused = self.focused
        if focused is None or isinstance(focused, OrgTree):
            return "tree"
        if isinstance(focused, DataTable):
            return "team" if focused.id == "team-members" else "members"
        return "field"

    @property
    def row_focused(self) -> bool:
        """A detail table's row has focus (copy acts on its member, not the tree's entry)."""
        focused = self.focused
        return focused is not None and focused.id in ("members", "team-members")

    @property
    def filter_shown(self) -> bool:
        return any(field.display for field in self.browser.query("#tree-filter").results(Input))

    def footer_label(self, binding: Binding) -> str | None:
        """The footer's words for a key here, or None when the focused widget has no use for it."""
        action = binding.action
        if action not in _SCOPES[self.place]:
            return None
        if action == "back":
            return self._back_label()
        if action == "toggle_team_role":
            membership = self.browser.detail.highlighted_membership
            if membership is not None:
                return "Make member" if membership.team.role == "owner" else "Make owner"
        return binding.description

    def _back_label(self) -> str:
        if self.place == "tree" or self.focused is self.browser.query_one("#tree-filter"):
            return "Clear filter"
        return "Back to tree"

    def back_applies(self) -> bool:
        """Escape does something: clears a filter, or brings focus back to the tree."""
        return self.place != "tree" or self.filter_shown

    def back(self) -> None:
        """Escape: from a pane back to the tree; in the tree (or its filter) clear the filter."""
        tree = self.browser.org_tree
        if self._back_label() == "Back to tree":
            focus_now(tree)
            return
        field = self.browser.query_one("#tree-filter", TreeFilter)
        field.value = ""
        field.display = False
        field.cancel_search()
        tree.set_filter("")
        focus_now(tree)
        self.browser.refresh_bindings()

    def drill_in(self) -> None:
        """Enter on Members or a team: into its table, where its row keys work."""
        detail = self.browser.detail
        view = detail.member_table or detail.team_detail
        if view is not None:
            tables = list(view.query(DataTable))
            if tables:
                focus_now(tables[0])
