"""The TUI's widgets, one per module.

`MemberTable` and `TeamDetail` are imported when first asked for (the detail pane makes
them when Members or a team is selected): the first view needs neither.
"""

from typing import TYPE_CHECKING

from docdeck.tui.widgets._browser_footer import BrowserFooter
from docdeck.tui.widgets._detail_pane import DetailPane
from docdeck.tui.widgets._field_list import FieldList
from docdeck.tui.widgets._org_tree import OrgTree

if TYPE_CHECKING:
    from docdeck.tui.widgets._member_table import MemberTable
    from docdeck.tui.widgets._team_detail import TeamDetail

__all__ = ["BrowserFooter", "DetailPane", "FieldList", "MemberTable", "OrgTree", "TeamDetail"]


def __getattr__(name: str) -> object:
    if name == "MemberTable":
        from docdeck.tui.widgets._member_table import MemberTable

        return MemberTable
    if name == "TeamDetail":
        from docdeck.tui.widgets._team_detail import TeamDetail

        return TeamDetail
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
