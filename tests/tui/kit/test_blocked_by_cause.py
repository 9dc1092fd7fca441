"""The pane's summary of what the caller may not do: one line per cause."""

from __future__ import annotations

from docdeck.tui.kit.availability import ALLOWED, NOT_HERE, Availability, blocked_by_cause


def _refused(cause: str) -> Availability:
    return Availability(applies=True, reason=f"No: {cause}.", cause=cause)


def test_refused_actions_are_grouped_by_cause_in_their_order() -> None:
    actions = ["rename", "delete", "move", "open", "duplicate"]
    states = [_refused("admin"), _refused("admin"), ALLOWED, NOT_HERE, _refused("create")]
    blocked = blocked_by_cause(actions, states, str.upper)
    assert blocked == {"admin": ["RENAME", "DELETE"], "create": ["DUPLICATE"]}


def test_nothing_refused_is_no_summary() -> None:
    assert blocked_by_cause(["open"], [ALLOWED], str) == {}
