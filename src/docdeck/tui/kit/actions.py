"""The actions of the screen in front, as the footer, `?` help and the palette list them.

Each job declares its actions once, on the widget or screen that runs them: a `Binding`
with an id (remappable), keys, a description and a tooltip (`kit/bindings.py`), and
`check_action` for whether it applies here. Why an action that applies is not allowed is
said by the node that binds it (`ExplainsActions`). This module reads those declarations
along the focused widget's chain, so a widget's keys are offered on every screen it is on,
dialogs included, without the screen repeating them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from textual.binding import Binding
    from textual.dom import DOMNode
    from textual.screen import Screen

__all__ = ["ExplainsActions", "ScreenAction", "screen_actions"]


@runtime_checkable
class ExplainsActions(Protocol):
    """A node whose actions can be refused for a reason it can put in words."""

    def why_unavailable(self, action: str) -> str | None:
        """Why `action` may not run now, as a sentence (None: no reason to give)."""
        ...

    def explain(self, action: str) -> None:
        """Tell the user why `action` may not run (a key pressed, a palette entry chosen)."""
        ...


@dataclass(frozen=True)
class ScreenAction:
    node: DOMNode
    """Where the action runs (the widget, screen or app that binds it)."""
    binding: Binding
    keys: str
    """Every key that runs it, as shown ("d, delete")."""
    enabled: bool
    reason: str | None
    """Why it is not allowed now, when it is not."""

    @property
    def id(self) -> str:
        return self.binding.id or ""

    async def run_or_explain(self) -> None:
        """Run it if allowed; otherwise say why."""
        if self.enabled:
            await self.node.app.run_action(self.binding.action, self.node)
        elif isinstance(self.node, ExplainsActions):
            self.node.explain(self.binding.action)
        else:
            self.node.app.notify(
                self.reason or f"“{self.binding.description}” does not apply here.",
                title="Not available",
                severity="warning",
            )


def _reason(node: DOMNode, action: str) -> str | None:
    if isinstance(node, ExplainsActions):
        return node.why_unavailable(action)
    return None


def screen_actions(screen: Screen[object], *, moves: bool = False) -> list[ScreenAction]:
    """The declared actions that apply on `screen` now, one per action: the screen's own
    first, then its focused widget's (innermost first), then the app's. An action is
    declared when its binding has an id and is either shown or described by a tooltip (the
    hidden list moves and Textual's focus keys are not actions to run by name; `moves`
    lists them too, for help, which shows every key)."""
    app = screen.app
    found: dict[str, ScreenAction] = {}
    keys: dict[str, list[str]] = {}
    for active in screen.active_bindings.values():
        binding = active.binding
        if not binding.id or not binding.description:
            continue
        if not (moves or binding.show or binding.tooltip):
            continue
        key = app.get_key_display(binding)
        keys.setdefault(binding.id, [])
        if key not in keys[binding.id]:
            keys[binding.id].append(key)
        if binding.id not in found:
            node = active.node
            reason = None if active.enabled else _reason(node, binding.action)
            found[binding.id] = ScreenAction(node, binding, "", active.enabled, reason)

    def place(action: ScreenAction) -> int:
        return 0 if action.node is screen else 2 if action.node is app else 1

    ordered = sorted(found.values(), key=place)
    return [
        ScreenAction(a.node, a.binding, ", ".join(keys[a.id]), a.enabled, a.reason) for a in ordered
    ]
