"""One side's markdown as styled lines: code blocks coloured by their language (Rich's
`Syntax`, Pygments underneath, both MIT/BSD), headings bold, fences dim.

Each side is styled once, whole, so a code block keeps its colours even when the diff
shows only a few of its lines; the diff's own backgrounds are laid on top per row.

The first block of a language costs its lexer (Pygments compiles the lexer's rules: tens
of milliseconds, and Rich's `Syntax` with Pygments is ~20 ms of imports): a diff can be
drawn with such blocks plain first (`build_lexers=False`, `lexers_pending`), and coloured
once it is on screen.
"""

from __future__ import annotations

import re

from rich.text import Text

__all__ = ["lexers_pending", "styled_lines"]

_FENCE = re.compile(r"^\s*(```+|~~~+)\s*([\w+#.-]*)")
_HEADING = re.compile(r"^#{1,6}\s")
SYNTAX_THEME = "monokai"

_BUILT: set[str] = set()
"""The languages whose lexer this process has built (or found it has none)."""


def lexers_pending(lines: list[str]) -> bool:
    """True when a code block of `lines` is in a language whose lexer is not built yet."""
    return any(language and language not in _BUILT for language in _languages(lines))


def _languages(lines: list[str]) -> list[str]:
    found: list[str] = []
    index = 0
    while index < len(lines):
        fence = _FENCE.match(lines[index])
        if fence is None:
            index += 1
            continue
        marker = fence.group(1)
        found.append(fence.group(2))
        end = index + 1
        while end < len(lines) and not lines[end].lstrip().startswith(marker):
            end += 1
        index = end + 1
    return found


def styled_lines(lines: list[str], *, build_lexers: bool = True) -> list[Text]:
    """A `Text` per line, the same count as `lines`. `build_lexers=False`: a code block
    whose lexer is not built yet is left plain (`lexers_pending` said so)."""
    styled: list[Text] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        fence = _FENCE.match(line)
        if fence is None:
            styled.append(_prose(line))
            index += 1
            continue
        marker, language = fence.group(1), fence.group(2)
        end = index + 1
        while end < len(lines) and not lines[end].lstrip().startswith(marker):
            end += 1
        styled.append(Text(line.expandtabs(4), style="dim"))
        styled.extend(_code(lines[index + 1 : end], language, build_lexers=build_lexers))
        if end < len(lines):
            styled.append(Text(lines[end].expandtabs(4), style="dim"))
        index = end + 1
    return styled


def _prose(line: str) -> Text:
    text = Text(line.expandtabs(4))
    if _HEADING.match(line):
        text.stylize("bold")
    elif line.lstrip().startswith(">"):
        text.stylize("italic")
    return text


def _code(lines: list[str], language: str, *, build_lexers: bool = True) -> list[Text]:
    if not lines:
        return []
    code = "\n".join(line.expandtabs(4) for line in lines)
    if not language or (not build_lexers and language not in _BUILT):
        return [Text(line) for line in code.split("\n")]
    _BUILT.add(language)
    from rich.syntax import Syntax

    try:
        syntax = Syntax(code, language, theme=SYNTAX_THEME, background_color="default")
        highlighted = syntax.highlight(code)
    except Exception:  # an unknown language, or a lexer failing on odd input
        return [Text(line) for line in code.split("\n")]
    highlighted.rstrip()
    parts = list(highlighted.split("\n", allow_blank=True))[: len(lines)]
    while len(parts) < len(lines):
        parts.append(Text(""))
    return parts
