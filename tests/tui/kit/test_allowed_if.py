"""The one permission rule every job's availability is written with."""

from __future__ import annotations

from docdeck.tui.kit.availability import ALLOWED, allowed_if


def test_a_permitted_action_is_allowed_and_a_refused_one_says_why() -> None:
    assert allowed_if(True, "You may not.", "needs admin") == ALLOWED
    refused = allowed_if(False, "You may not rename it: it needs admin.", "needs admin")
    assert refused.applies
    assert not refused.allowed
    assert refused.reason == "You may not rename it: it needs admin."
    assert refused.cause == "needs admin"
