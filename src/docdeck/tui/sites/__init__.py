"""The site editor: a site's structure (groups, sections, site spaces), reordered and
edited from the keyboard; pushed from the org tree's Sites node or `docdeck open`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docdeck.tui.kit.lazy import lazy_exports

if TYPE_CHECKING:
    from docdeck.tui.sites._screen import SiteScreen
    from docdeck.tui.sites._structure_view import StructureView, row_text
    from docdeck.tui.sites.actions import SITE_ACTIONS, site_availability
    from docdeck.tui.sites.moves import MovePlan, plan_paste
    from docdeck.tui.sites.structure_model import Row, SortBurst, StructureModel, published_path

__all__ = [
    "SITE_ACTIONS",
    "MovePlan",
    "Row",
    "SiteScreen",
    "SortBurst",
    "StructureModel",
    "StructureView",
    "plan_paste",
    "published_path",
    "row_text",
    "site_availability",
]

_LAZY: dict[str, str] = {
    "MovePlan": "docdeck.tui.sites.moves",
    "Row": "docdeck.tui.sites.structure_model",
    "SITE_ACTIONS": "docdeck.tui.sites.actions",
    "SiteScreen": "docdeck.tui.sites._screen",
    "SortBurst": "docdeck.tui.sites.structure_model",
    "StructureModel": "docdeck.tui.sites.structure_model",
    "StructureView": "docdeck.tui.sites._structure_view",
    "plan_paste": "docdeck.tui.sites.moves",
    "published_path": "docdeck.tui.sites.structure_model",
    "row_text": "docdeck.tui.sites._structure_view",
    "site_availability": "docdeck.tui.sites.actions",
}
"""Each public name and the module that defines it, imported on first use."""

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
