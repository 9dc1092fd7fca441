"""Rules for text fields that their JSON type cannot say: a title someone can see and an emoji.

Pure functions used as pydantic validators, so the gateway refuses such values before sending
them and the sandbox answers them with a 400 naming the field.
"""

import re
import unicodedata

from pydantic import AfterValidator
from pydantic_core import PydanticCustomError

_INVISIBLE_CATEGORIES = {"Cc", "Cf", "Cn", "Co", "Cs", "Mn", "Me", "Zs", "Zl", "Zp"}
_BLANK_LETTERS = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"}
"""Hangul fillers and the blank braille pattern: letters or symbols that draw nothing."""


def is_invisible(char: str) -> bool:
    return unicodedata.category(char) in _INVISIBLE_CATEGORIES or char in _BLANK_LETTERS


def visible_title(value: str) -> str:
    """A title has no control characters (NUL, line breaks, tabs) and something to see."""
    if value and all(map(is_invisible, value)):
        raise PydanticCustomError(
            "invisible_title",
            "must not be empty (it holds only spaces or invisible characters such as U+{code})",
            {"code": f"{ord(value[0]):04X}"},
        )
    for char in value:
        if unicodedata.category(char) == "Cc":
            raise PydanticCustomError(
                "control_character",
                "must not contain control characters (found U+{code})",
                {"code": f"{ord(char):04X}"},
            )
    return value


VisibleTitle = AfterValidator(visible_title)
"""Put in a title's `Annotated[...]` after its length limits."""


_CODEPOINTS = re.compile(r"(?:[uU]\+)?[0-9a-fA-F]{2,6}(?:[-_ ](?:[uU]\+)?[0-9a-fA-F]{2,6})*")
_CODEPOINT = re.compile(r"[0-9a-fA-F]{2,6}")


def _from_codepoints(value: str) -> str | None:
    """`1f389` or `U+1F468-200D-1F469` as the characters it names; None if it names none."""
    if not _CODEPOINTS.fullmatch(value):
        return None
    numbers = [int(part, 16) for part in _CODEPOINT.findall(value)]
    if any(n > 0x10FFFF or 0xD800 <= n <= 0xDFFF for n in numbers):
        return None
    return "".join(map(chr, numbers))


def emoji_characters(value: str) -> str:
    """An `Emoji` as its characters: the codepoint form the platform may answer with (`1f389`,
    `1f468-200d-1f469`) made the emoji it names (🎉), anything else as it is. Without the
    `emoji` package (its tables cost start-up time, and every emoji shown goes through here):
    codepoints are taken for an emoji when they name no control, surrogate or unassigned
    character and one of them is a symbol (So) or the keycap mark, as every emoji has."""
    chars = _from_codepoints(value)
    if chars is None:
        return value
    categories = [unicodedata.category(char) for char in chars]
    if any(category in ("Cc", "Cs", "Cn") for category in categories):
        return value
    if "So" in categories or "\u20e3" in chars:
        return chars
    return value


def is_one_emoji(value: str) -> bool:
    """The platform's `Emoji`: "Unicode codepoint or character of the emoji". One emoji (a
    sequence such as a flag or a family counts as one), as the character(s) or as hexadecimal
    codepoints. Decided with the `emoji` package, which follows Unicode's emoji data files;
    the sandbox, the gateway and the TUI's forms all ask this."""
    import emoji  # imported on first use: its tables cost start-up time the TUI does not need

    if emoji.is_emoji(value):
        return True
    chars = _from_codepoints(value)
    return chars is not None and (emoji.is_emoji(chars) or emoji.is_emoji(chars + "\ufe0f"))


def one_emoji(value: str) -> str:
    """`is_one_emoji` as a pydantic validator."""
    if is_one_emoji(value):
        return value
    raise PydanticCustomError(
        "emoji", "must be one emoji, as the character (🎉) or its codepoint (1f389)"
    )


SLUG_MAX = 100
"""The platform's slugs (a page's, an OpenAPI spec's) are 1..100 characters."""
_NOT_SLUG = re.compile(r"[^a-z0-9]+")
_NOT_ANCHOR = re.compile(r"[^\w\- ]+", re.UNICODE)


def _ascii(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def slugify(text: str, fallback: str = "page") -> str:
    """`Getting Started: Ünïcode!` -> `getting-started-unicode`: the platform's slug pattern
    (`^[a-z0-9]+(?:-[a-z0-9]+)*$`, 1..100), `fallback` where nothing of `text` is left.
    A page's slug and a site section's or site space's path segment both come from here."""
    return _NOT_SLUG.sub("-", _ascii(text).lower()).strip("-")[:SLUG_MAX].strip("-") or fallback


def anchor_slug(text: str) -> str:
    """A heading's anchor, GitHub-style: lower case, punctuation dropped, spaces to hyphens;
    ASCII only, because the platform's heading ids match `^[-a-z0-9.+_]+$`. The sandbox
    (document format, search sections) and the TUI (table of contents, `#anchor` jumps)
    both make anchors here, so they agree."""
    return _NOT_ANCHOR.sub("", _ascii(text).lower()).strip().replace(" ", "-")
