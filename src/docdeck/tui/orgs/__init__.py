"""The home screen: the organization tree, its detail pane (members, teams, fields) and the
browser's actions.

Imported on first use, as Textual's `widgets/__init__.py` does: the first frame and the
first view need neither the members table nor the team view."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docdeck.tui.kit.lazy import lazy_exports

if TYPE_CHECKING:
    from docdeck.tui.orgs._browser import OrgBrowser
    from docdeck.tui.orgs._detail_pane import DetailPane
    from docdeck.tui.orgs._field_list import FieldList
    from docdeck.tui.orgs._main import BROWSER_ACTIONS, MainScreen
    from docdeck.tui.orgs._member_table import MemberTable
    from docdeck.tui.orgs._org_tree import OrgTree
    from docdeck.tui.orgs._team_detail import TeamDetail

__all__ = [
    "BROWSER_ACTIONS",
    "DetailPane",
    "FieldList",
    "MainScreen",
    "MemberTable",
    "OrgBrowser",
    "OrgTree",
    "TeamDetail",
]

_LAZY: dict[str, str] = {
    "BROWSER_ACTIONS": "docdeck.tui.orgs._main",
    "DetailPane": "docdeck.tui.orgs._detail_pane",
    "FieldList": "docdeck.tui.orgs._field_list",
    "MainScreen": "docdeck.tui.orgs._main",
    "MemberTable": "docdeck.tui.orgs._member_table",
    "OrgBrowser": "docdeck.tui.orgs._browser",
    "OrgTree": "docdeck.tui.orgs._org_tree",
    "TeamDetail": "docdeck.tui.orgs._team_detail",
}
"""Each public name and the module that defines it, imported on first use."""

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
