"""The TUI's widgets, one per module."""

from docdeck.tui.widgets._browser_footer import BrowserFooter
from docdeck.tui.widgets._detail_pane import DetailPane
from docdeck.tui.widgets._field_list import FieldList
from docdeck.tui.widgets._member_table import MemberTable
from docdeck.tui.widgets._org_tree import OrgTree
from docdeck.tui.widgets._team_detail import TeamDetail

__all__ = ["BrowserFooter", "DetailPane", "FieldList", "MemberTable", "OrgTree", "TeamDetail"]
