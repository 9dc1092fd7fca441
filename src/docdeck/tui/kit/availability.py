"""Whether an action applies here, and whether the caller's `permissions` allow it.

The answer drives three places at once: `check_action` (footer shows the key
dimmed), the command palette (the command says why it is unavailable) and a
notification when a disabled key is pressed. The org tree's rules for its selection are
the browser's (`docdeck.tui.orgs._availability`): the other screens, a review pane opened
first among them, do not import the tree's entries with this.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

__all__ = ["ALLOWED", "NOT_HERE", "Availability", "allowed_if", "blocked_by_cause"]

A = TypeVar("A")


@dataclass(frozen=True)
class Availability:
    applies: bool
    """False: the action means nothing for this selection (hidden from the footer)."""
    reason: str | None = None
    """Why the caller may not do it, as a sentence; None when allowed."""
    cause: str = ""
    """The reason in a few words, shared by the actions it blocks (for the pane's summary)."""

    @property
    def allowed(self) -> bool:
        return self.applies and self.reason is None


NOT_HERE = Availability(applies=False)
ALLOWED = Availability(applies=True)


def allowed_if(permitted: bool, reason: str, cause: str) -> Availability:
    """A rule of the caller's permissions: allowed when `permitted`, else not, for `reason`
    (a sentence) and `cause` (the few words the pane's summary groups actions by)."""
    if permitted:
        return ALLOWED
    return Availability(applies=True, reason=reason, cause=cause)


def blocked_by_cause(
    actions: Iterable[A], states: Iterable[Availability], describe: Callable[[A], str]
) -> dict[str, list[str]]:
    """The actions the caller may not do here, by what stops them (`cause`): one line per
    cause in the pane's summary, naming the actions as the footer does, in their order."""
    blocked: dict[str, list[str]] = {}
    for action, state in zip(actions, states, strict=True):
        if state.reason is not None:
            blocked.setdefault(state.cause, []).append(describe(action))
    return blocked
