"""The home screen: the organization browser (tree, filter and detail pane, with their
keys) between the header and the footer."""

from __future__ import annotations

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding

from docdeck.tui.kit.footer import BrowserFooter
from docdeck.tui.kit.header import Header
from docdeck.tui.kit.help import HelpRow
from docdeck.tui.kit.session import session_of
from docdeck.tui.kit.styled import StyledOnMount
from docdeck.tui.orgs._browser import BROWSER_ACTIONS, OrgBrowser
from docdeck.tui.orgs._detail_pane import DetailPane
from docdeck.tui.orgs._focus_keys import FOOTER_PRIORITY
from docdeck.tui.orgs._org_tree import OrgTree

__all__ = ["BROWSER_ACTIONS", "MainScreen"]


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


class MainScreen(StyledOnMount):
    BROWSER_ACTIONS = BROWSER_ACTIONS
    FOOTER_PRIORITY = FOOTER_PRIORITY
    help_intro = TREE_INTRO
    AUTO_FOCUS = "OrgTree"

    def __init__(self, account_label: str) -> None:
        super().__init__()
        self.account_label = account_label
        self.org_browser = OrgBrowser(id="browser")
        """The tree and the detail pane, and every key that acts on them."""
        self._started = False

    def compose(self) -> ComposeResult:
        yield Header()
        yield self.org_browser
        yield BrowserFooter()

    def on_mount(self) -> None:
        if session_of(self).client is not None:
            self.start()

    @on(events.ScreenSuspend)
    def _behind(self) -> None:
        self.org_browser.behind(self.app.screen)

    @on(events.ScreenResume)
    def _back_in_front(self) -> None:
        self.org_browser.back_in_front()

    @property
    def org_tree(self) -> OrgTree:
        return self.org_browser.org_tree

    @property
    def detail(self) -> DetailPane:
        return self.org_browser.detail

    @property
    def started(self) -> bool:
        return self._started

    def start(self) -> None:
        """Once both connected and composed: the first request, for the organizations."""
        browser = self.org_browser
        if self._started or not browser.is_mounted or not browser.ready:
            return
        self._started = True
        self.detail.show(None)
        self.org_tree.load_root()

    def footer_label(self, binding: Binding) -> str | None:
        """The footer's words for a key (None: the focused widget has no use for it)."""
        return self.org_browser.footer_label(binding)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The browser's answer for its own actions (its keys are bound on it, not here)."""
        if action in BROWSER_ACTIONS or action in ("back", "filter"):
            return self.org_browser.check_action(action, parameters)
        return True

    def help_rows(self) -> list[HelpRow]:
        """One row per action of the browser and the app, with the keys the keymap gives it."""
        browser = self.org_browser
        keys: dict[str, list[str]] = {}
        found: dict[str, Binding] = {}
        keymap = self.app._keymap
        for node in (browser, self.app):
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
                available = browser.availability_of(binding.action)
                if not available.applies:
                    state = "Not for the current selection."
                elif available.reason is not None:
                    state = available.reason
            key = ", ".join(dict.fromkeys(keys[binding_id]))
            rows.append(HelpRow(key, binding.description, binding.tooltip, state, binding_id))
        rows.append(HelpRow("ctrl+p", "Palette", "Search and run any action by name"))
        return rows
