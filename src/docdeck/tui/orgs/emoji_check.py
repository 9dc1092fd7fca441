"""Whether a field's value is one emoji, checked before a request is sent.

The API takes any string of up to 50 characters as a space's `emoji`, and the
platform then shows it as the space's icon, so a word typed there by mistake
("book") becomes a broken icon. The rule is the models' (`is_one_emoji`, which
the sandbox and the gateway apply too, from Unicode's emoji data through the
`emoji` package); this only words the answer for a person at a form.
"""

from __future__ import annotations

from docdeck.models import is_one_emoji

__all__ = ["emoji_problem"]


def emoji_problem(value: str, label: str = "Emoji") -> str:
    """ "" for an empty value or exactly one emoji; otherwise what is wrong and what to do."""
    if not value or is_one_emoji(value):
        return ""
    import emoji

    found = emoji.emoji_list(value)
    covered = {index for item in found for index in range(item["match_start"], item["match_end"])}
    stray = next((char for index, char in enumerate(value) if index not in covered), None)
    if stray is None and len(found) > 1:
        return f"{label}: one emoji only; this has {len(found)}. Keep the one you want."
    char = stray or value[0]
    shown = "a space" if char.isspace() else f"“{char}”" if char.isprintable() else repr(char)
    return (
        f"{label}: {shown} is not an emoji. Type or paste one emoji, e.g. 📘, "
        "or leave the field empty."
    )
