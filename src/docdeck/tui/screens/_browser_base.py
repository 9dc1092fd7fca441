"""What every group of browser actions relies on: the tree, the detail pane and the client."""

from __future__ import annotations

from textual.screen import Screen

from docdeck.gateway import Client
from docdeck.tui.widgets import DetailPane, OrgTree
from docdeck.tui.workers import client_of

__all__ = ["BrowserBase"]


class BrowserBase(Screen[None]):
    @property
    def org_tree(self) -> OrgTree:
        return self.query_one(OrgTree)

    @property
    def detail(self) -> DetailPane:
        return self.query_one(DetailPane)

    @property
    def client(self) -> Client:
        return client_of(self)
