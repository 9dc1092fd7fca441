"""Whether a field's value is one emoji, checked before a request is sent.

The API takes any string of up to 50 characters as a space's `emoji`, and the
platform then shows it as the space's icon, so a word typed there by mistake
("book") becomes a broken icon. Unicode has no single "is an emoji" property
in the standard library, so this accepts what emoji are made of: pictographs
from the emoji blocks, joined by ZWJ, with variation selectors, skin tones,
keycaps, flags (pairs of regional indicators) and tag sequences.
"""

from __future__ import annotations

__all__ = ["emoji_problem"]

_ZWJ = 0x200D
_MODIFIERS = {0xFE0E, 0xFE0F, 0x20E3}
_SINGLES = {0x00A9, 0x00AE, 0x203C, 0x2049, 0x2122, 0x2139, 0x24C2, 0x3030, 0x303D, 0x3297, 0x3299}
_RANGES = (
    (0x1F000, 0x1FAFF),
    (0x2190, 0x21FF),
    (0x2300, 0x23FF),
    (0x25A0, 0x25FF),
    (0x2600, 0x27BF),
    (0x2900, 0x297F),
    (0x2B00, 0x2BFF),
)


def _pictograph(code: int) -> bool:
    return code in _SINGLES or any(low <= code <= high for low, high in _RANGES)


def _regional(code: int) -> bool:
    return 0x1F1E6 <= code <= 0x1F1FF


def _attached(code: int) -> bool:
    """Parts that only change the emoji before them: selectors, keycap, skin tones, tags."""
    return code in _MODIFIERS or 0x1F3FB <= code <= 0x1F3FF or 0xE0020 <= code <= 0xE007F


def emoji_problem(value: str, label: str = "Emoji") -> str:
    """ "" for an empty value or exactly one emoji; otherwise what is wrong and what to do."""
    emoji = 0
    joined = False
    open_flag = False
    for index, char in enumerate(value):
        code = ord(char)
        if code == _ZWJ:
            joined = True
            continue
        if _attached(code):
            continue
        keycap = char in "0123456789#*" and "\u20e3" in value[index + 1 : index + 3]
        if _regional(code) and open_flag:
            open_flag = False  # the second letter of a flag
            continue
        if not (keycap or _pictograph(code)):
            shown = (
                "a space" if char.isspace() else f"“{char}”" if char.isprintable() else repr(char)
            )
            return (
                f"{label}: {shown} is not an emoji. Type or paste one emoji, e.g. 📘, "
                "or leave the field empty."
            )
        open_flag = _regional(code)
        if not joined:
            emoji += 1
        joined = False
    if emoji > 1:
        return f"{label}: one emoji only; this has {emoji}. Keep the one you want."
    return ""
