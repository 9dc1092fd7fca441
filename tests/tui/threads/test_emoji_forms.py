"""The platform writes an emoji as "Unicode codepoint or character" (`Emoji` in its OpenAPI
documents): `1f389` and 🎉 are one emoji, shown as the character and compared as one."""

from __future__ import annotations

from typing import Any

import pytest

from docdeck.models import emoji_characters
from docdeck.models.comments import EmojiReaction
from docdeck.tui.kit.formatting import emoji_text
from docdeck.tui.threads._reactions import _count, _find


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        ("1f389", "🎉"),
        ("1F4D8", "📘"),
        ("U+1F468-200D-1F469", "👨\u200d👩"),
        ("2764", "❤"),
        ("0023-fe0f-20e3", "#\u20e3"),  # a keycap (U+FE0F is not drawn: emoji_text)
        ("🎉", "🎉"),
        ("🗓\ufe0f", "🗓"),
        # not an emoji's codepoints: left as written (never a control character on screen)
        ("1f", "1f"),
        ("23", "23"),
        ("abc", "abc"),
        ("d800", "d800"),
        ("110000", "110000"),
        ("", ""),
    ],
)
def test_an_emoji_is_shown_as_its_characters(written: str, shown: str) -> None:
    assert emoji_text(written) == shown


def _reaction(emoji: str, count: int) -> EmojiReaction:
    user: dict[str, Any] = {
        "user": {"object": "user", "id": "u1", "displayName": "Ada", "urls": {"location": "x"}},
        "reactedAt": "2024-01-01T00:00:00Z",
    }
    return EmojiReaction.model_validate({"emoji": emoji, "count": count, "users": [user]})


def test_a_reaction_written_as_codepoints_is_the_emoji_chosen() -> None:
    """A 👍 chosen in the picker finds the platform's `1f44d` reaction (before: not found, so
    the user's own reaction was added again instead of removed)."""
    reactions = [_reaction("1f389", 2), _reaction("1f44d", 3)]
    found = _find(reactions, "👍")
    assert found is not None and found.emoji == "1f44d"
    assert _count(reactions, "👍") == 3 and _count(reactions, "🚀") == 0
    assert emoji_characters("1f44d") == "👍"
