"""A key whose action is not allowed here says why, instead of doing nothing.

One mechanism for every screen (and panel) whose actions have an `Availability` (an
action may not apply to what is highlighted, or the caller's role may not allow it):

- `check_explained` is what `check_action` answers for those actions: hidden from the
  footer where the action does not apply, dimmed where it is not allowed;
- a dimmed key pressed is caught on its way (`on_key`) and the reason is said as a
  notification, and the key goes no further;
- `explain` is also the guard an action runs first (True: it cannot run here, and the user
  was told why when there is a reason to tell).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, ClassVar

from textual import events

from docdeck.tui.kit.availability import Availability

if TYPE_CHECKING:
    from textual.widget import Widget

    _Base = Widget
else:
    _Base = object

__all__ = ["ExplainsKeys"]


class ExplainsKeys(_Base):
    EXPLAINED_ACTIONS: ClassVar[Collection[str]] = ()
    """The actions whose key follows their availability."""

    def availability_of(self, action: str) -> Availability:
        raise NotImplementedError

    def explained_action(self, action: str) -> str | None:
        """The action whose availability decides `action`'s key (itself, or None)."""
        return action if action in self.EXPLAINED_ACTIONS else None

    def check_explained(self, action: str) -> bool | None:
        """`check_action`'s answer: False hides the key, None dims it, True enables it."""
        name = self.explained_action(action)
        if name is None:
            return True
        state = self.availability_of(name)
        if not state.applies:
            return False
        return True if state.allowed else None

    def explain(self, action: str) -> bool:
        """True when `action` cannot run here; says why when there is a reason."""
        state = self.availability_of(action)
        if state.reason is not None:
            self.notify(state.reason, title="Not allowed", severity="warning")
            return True
        return not state.applies

    def on_key(self, event: events.Key) -> None:
        active = self.screen.active_bindings.get(event.key)
        if active is None or active.enabled:
            return
        name = self.explained_action(active.binding.action)
        if name is not None and self.explain(name):
            event.stop()
