"""A page's markdown rendered to lines (strips), a top-level block at a time, off the loop.

Everything here is plain computation on values it is given (no widget, no app), so
`RenderedPage` runs it in a worker thread: a 1 MB page is thousands of blocks, and
rendering them on the event loop froze every frame. The page is parsed once with
the TUI's markdown-it parser (`content/markdown.py`, the sandbox's configuration); its
top-level blocks (a heading, a paragraph, a whole list, a table, a code
fence) are cut from the token stream with the source lines markdown-it gives them, and
each is rendered alone by Rich's markdown renderer. Each block's lines carry the block's
first markdown line, which is what jumps (`goto_line`) and comments on a block use. A task
item shows its box (`☑`, `☐`) for a bullet, an alert (`> [!WARNING]`) is a quote under its
title (`⚠ Warning`): as the PDF and the published HTML show them (`docdeck.models.markdown`).

The look comes from the app's theme (`look_of`, read on the loop): heading colours and
styles are the theme's `markdown-h*` variables, links its accent, underlined. Rich
styles hold colours as given; Textual lowers them to the terminal's colours (16 under
TERM=xterm) when it writes the screen.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from markdown_it.token import Token
from rich import box
from rich.color import Color as RichColor
from rich.console import Console, ConsoleOptions, RenderResult
from rich.markdown import (
    BlockQuote,
    Heading,
    ListItem,
    Markdown,
    MarkdownContext,
    MarkdownElement,
    Paragraph,
    TableElement,
    TextElement,
)
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text
from rich.theme import Theme
from textual.color import Color, ColorParseError

from docdeck.models.markdown import alert_title, task_box
from docdeck.tui.content.markdown import parser

if TYPE_CHECKING:
    from textual.app import App

__all__ = ["Line", "Look", "PageBlocks", "look_of", "parse_blocks", "render_block"]


@dataclass(frozen=True)
class Look:
    """How rendered markdown looks: Rich styles by name and the code blocks' Pygments theme."""

    styles: dict[str, Style] = field(default_factory=dict)
    code_theme: str = "monokai"


def _color(variables: dict[str, str], name: str) -> RichColor | None:
    """A theme colour as Rich reads it: opaque (a translucent one is laid on the
    background), an ANSI one kept ANSI (the ANSI themes use the terminal's own palette)."""
    try:
        color = Color.parse(variables[name])
        if color.a < 1 and color.ansi is None:
            color = Color.parse(variables.get("background", "#000000")) + color
        return color.rich_color
    except (KeyError, ColorParseError):
        return None


def _tint(variables: dict[str, str], name: str) -> RichColor | None:
    """A theme colour at 12% over the background (inline code's), none for ANSI themes."""
    try:
        color = Color.parse(variables[name])
        background = Color.parse(variables.get("background", "#000000"))
    except (KeyError, ColorParseError):
        return None
    if color.ansi is not None or background.ansi is not None:
        return None
    return (background + color.with_alpha(0.12)).rich_color


def look_of(app: App[object]) -> Look:
    """The app's current theme as Rich styles for markdown (read on the loop)."""
    variables = app.theme_variables or app.get_css_variables()
    dark = app.current_theme.dark
    primary = _color(variables, "primary")
    accent = _color(variables, "text-accent") or _color(variables, "accent")
    muted = _color(variables, "text-secondary") or _color(variables, "secondary")
    styles: dict[str, Style] = {}
    for level in range(1, 7):
        tag = f"h{level}"
        color = _color(variables, f"markdown-{tag}-color") or primary
        text_style = variables.get(f"markdown-{tag}-text-style", "bold")
        try:
            style = Style.parse(text_style if text_style and "$" not in text_style else "bold")
        except Exception:  # a theme value Rich cannot read: plain bold
            style = Style(bold=True)
        styles[f"markdown.{tag}"] = style + Style(color=color, bold=level <= 3 or None)
    styles["markdown.h1.border"] = Style(color=primary)
    styles["markdown.link"] = Style(color=accent, underline=True)
    styles["markdown.link_url"] = Style(color=accent, underline=True)
    styles["markdown.code"] = Style(color=accent, bgcolor=_tint(variables, "accent"))
    styles["markdown.block_quote"] = Style(color=muted)
    styles["markdown.item.bullet"] = Style(color=primary, bold=True)
    styles["markdown.item.number"] = Style(color=primary)
    styles["markdown.table.border"] = Style(color=muted)
    styles["markdown.table.header"] = Style(bold=True)
    styles["markdown.hr"] = Style(color=muted)
    if app.current_theme.ansi:
        code_theme = "ansi_dark" if dark else "ansi_light"
    else:
        code_theme = "monokai" if dark else "friendly"
    return Look(styles, code_theme)


class _Heading(Heading):
    """Headings at the left (Rich centres `#`), `#` underlined across the page."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        text = self.text.copy()
        text.justify = "left"
        yield text
        if self.tag == "h1":
            yield Text("━" * options.max_width, style="markdown.h1.border", end="")


class _ListItem(ListItem):
    """Numbered items read `1.` (Rich writes `1`); a task item shows its box (`☑`, `☐`),
    in place of the bullet or after the number."""

    checked: bool | None = None

    @classmethod
    def create(cls, markdown: Markdown, token: Token) -> _ListItem:
        item = cls()
        if "checked" in token.meta:
            item.checked = bool(token.meta["checked"])
        return item

    def _box(self) -> str:
        return "" if self.checked is None else f"{task_box(self.checked)} "

    def render_bullet(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if self.checked is None:
            yield from super().render_bullet(console, options)
            return
        lines = console.render_lines(
            self.elements, options.update(width=options.max_width - 3), style=self.style
        )
        style = console.get_style("markdown.item.bullet", default="none")
        box = Segment(f" {self._box()}", style)
        padding = Segment(" " * 3)
        for first, line in enumerate(lines):
            yield padding if first else box
            yield from line
            yield Segment.line()

    def render_number(
        self, console: Console, options: ConsoleOptions, number: int, last_number: int
    ) -> RenderResult:
        box = self._box()
        width = len(str(last_number)) + 3 + len(box)
        lines = console.render_lines(
            self.elements, options.update(width=options.max_width - width), style=self.style
        )
        style = console.get_style("markdown.item.number", default="none")
        numeral = Segment(f"{number}.".rjust(width - 1 - len(box)) + " " + box, style)
        padding = Segment(" " * width)
        for first, line in enumerate(lines):
            yield numeral if first == 0 else padding
            yield from line
            yield Segment.line()


class _Table(TableElement):
    """Tables framed (Rich's default has no edges, its columns ran together)."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        table = Table(box=box.ROUNDED, style="markdown.table.border", expand=False)
        if self.header is not None and self.header.row is not None:
            for column in self.header.row.cells:
                heading = column.content.copy()
                heading.stylize("markdown.table.header")
                table.add_column(heading, justify=column.justify)
        if self.body is not None:
            for row in self.body.rows:
                table.add_row(*[cell.content for cell in row.cells])
        yield table


class _HtmlBlock(TextElement):
    """Raw HTML shown as written, dimmed (Rich drops it; pages imported from elsewhere
    carry `<details>` and `<figure>` whose text is part of the page)."""

    style_name = "markdown.html"

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Text(self.text.plain.rstrip("\n"), style=Style(dim=True), end="")


class _AlertTitle(Paragraph):
    """An alert's title line; its alert writes the words (the parser's are the bare kind)."""

    @classmethod
    def create(cls, markdown: Markdown, token: Token) -> _AlertTitle:
        return cls(justify="left")


class _Alert(BlockQuote):
    """An alert (`> [!WARNING]`): a quote under its title (`⚠ Warning`)."""

    kind = ""

    @classmethod
    def create(cls, markdown: Markdown, token: Token) -> _Alert:
        alert = cls()
        alert.kind = str(token.meta.get("kind", ""))
        return alert

    def on_child_close(self, context: MarkdownContext, child: MarkdownElement) -> bool:
        if isinstance(child, _AlertTitle):
            child.text = Text(alert_title(self.kind), style=Style(bold=True), justify="left")
        return super().on_child_close(context, child)


class _BlockMarkdown(Markdown):
    """Rich's markdown renderer over tokens already parsed (one block of the page)."""

    elements: ClassVar[dict[str, type[MarkdownElement]]] = {
        **Markdown.elements,
        "heading_open": _Heading,
        "list_item_open": _ListItem,
        "table_open": _Table,
        "html_block": _HtmlBlock,
        "alert_open": _Alert,
        "alert_title_open": _AlertTitle,
    }

    def __init__(self, tokens: list[Token], code_theme: str) -> None:
        # Markdown.__init__ would parse the text again; set what rendering reads.
        self.markup = ""
        self.parsed = tokens
        self.code_theme = code_theme
        self.justify = None
        self.style = "none"
        self.hyperlinks = True
        self.inline_code_lexer = None
        self.inline_code_theme = code_theme


@dataclass
class PageBlocks:
    """The page's tokens and its top-level blocks: (first markdown line, token range)."""

    tokens: list[Token]
    blocks: list[tuple[int, int, int]]

    def starts(self) -> list[int]:
        return [start for start, _, _ in self.blocks]


def parse_blocks(markdown: str) -> PageBlocks:
    """Parse the page and cut its token stream at top-level blocks."""
    tokens = parser().parse(markdown)
    blocks: list[tuple[int, int, int]] = []
    index = 0
    last_line = 0
    while index < len(tokens):
        token = tokens[index]
        end = index + 1
        if token.nesting == 1:
            depth = 1
            while end < len(tokens) and depth:
                depth += tokens[end].nesting
                end += 1
        line = token.map[0] if token.map else last_line
        last_line = line
        blocks.append((line, index, end))
        index = end
    return PageBlocks(tokens, blocks)


def console_for(width: int, look: Look) -> Console:
    """A console of its own for the rendering thread (it writes nowhere)."""
    return Console(
        width=max(width, 10),
        file=io.StringIO(),
        color_system="truecolor",
        force_terminal=True,
        legacy_windows=False,
        theme=Theme(look.styles, inherit=True),
        highlight=False,
        emoji=False,
    )


Line = tuple[Segment, ...]
"""A rendered line, exactly the console's width. Kept as a tuple of segments, not a
`Strip`: a strip is about ten objects the garbage collector walks (its caches), a 1 MB
page is 20,000 lines or more, and a tuple of segments is untracked once a young
collection has seen it. The view makes strips for the lines on screen only."""


def render_block(page: PageBlocks, number: int, console: Console, look: Look) -> list[Line]:
    """One top-level block as lines of the console's width."""
    _, begin, end = page.blocks[number]
    renderable = _BlockMarkdown(page.tokens[begin:end], look.code_theme)
    width = console.width
    lines = console.render_lines(renderable, console.options, pad=False)
    # Rich puts empty lines before some blocks (lists, code) and after rules; the gaps
    # between blocks are the view's own.
    while lines and not Segment.get_line_length(lines[-1]):
        lines.pop()
    while lines and not Segment.get_line_length(lines[0]):
        lines.pop(0)
    return [tuple(Segment.adjust_line_length(line, width)) for line in lines]
