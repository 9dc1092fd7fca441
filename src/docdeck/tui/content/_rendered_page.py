"""A page rendered as markdown (lines drawn by one line-API view), and the same page raw.

Textual's `Markdown` widget mounts one widget per block; a 1 MB page is thousands of
blocks, and mounting them (even a part at a time) stopped the event loop for up to a
second. `RenderedPage` draws lines instead: the page is rendered to strips in a worker
thread (`_page_lines`), a top-level block at a time, and handed over in batches (the
first screenful at once); a frame then costs only the lines on screen. A width change
renders again in the thread, and the block at the top stays at the top.

Before rendering, images (which a terminal cannot show) are rewritten, line for line (so
line numbers still match the page), as their file's name, type, size and dimensions.
GitHub alerts (`> [!NOTE]`) and task items are the parser's own, drawn by `_page_lines`.
"""

from __future__ import annotations

import time
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import on
from textual.binding import Binding, BindingType
from textual.events import Click, Resize
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget
from textual.worker import get_current_worker

from docdeck.models import RevisionFile
from docdeck.tui.content._page_lines import (
    Line,
    Look,
    PageBlocks,
    console_for,
    look_of,
    parse_blocks,
    render_block,
)
from docdeck.tui.content.page_prepare import prepare
from docdeck.tui.kit.workers import work

__all__ = ["RenderedPage"]

_SCROLL_KEYS: list[BindingType] = [
    Binding("j", "scroll_down", "Down", show=False, id="page.down"),
    Binding("k", "scroll_up", "Up", show=False, id="page.up"),
    Binding("g", "scroll_home", "Top", show=False, id="page.top"),
    Binding("G", "scroll_end", "End", show=False, id="page.end"),
    Binding("ctrl+d,space", "page_down", "Page down", show=False, id="page.page_down"),
    Binding("ctrl+u", "page_up", "Page up", show=False, id="page.page_up"),
]

FIRST_BATCH_SCREENS = 2
"""The first batch is handed over once it fills this many screens (so the top shows fast)."""
STRIPS_KEPT = 400
"""Strips kept for lines drawn lately (about ten screens): scrolling back and forth reuses them."""
BATCH_SECONDS = 0.1
"""Later batches are handed over this often: each costs the loop a list extend and a refresh."""


@dataclass
class _Rendering:
    """The lines of one rendering of the page at one width (a width change starts another)."""

    width: int
    lines: list[Line] = field(default_factory=list)
    owners: list[int] = field(default_factory=list)
    """For each line, the number of the block it belongs to (a gap goes with the block below)."""
    block_y: list[int] = field(default_factory=list)
    """For each block rendered, the line its content starts on."""
    complete: bool = False


@dataclass
class _Window:
    """The page from one block to its end (the last blocks after G, or from a heading
    jumped to), rendered by a thread of its own while the rendering from the top catches
    up; drawn at an estimated line until that rendering reaches it, then joined to it."""

    first: int
    """The first block in it."""
    rendering: _Rendering
    """Its lines; `block_y` counts from its own first line."""
    top: int = 0
    """The view's line its first line is drawn at (estimated from the lines per block so far)."""


class _Batch(Message):
    """Lines a rendering thread hands to the loop."""

    def __init__(
        self,
        generation: int,
        page: PageBlocks,
        lines: list[Line],
        owners: list[int],
        block_y: list[int],
        done: bool,
        *,
        window: int | None = None,
    ) -> None:
        super().__init__()
        self.generation = generation
        self.page = page
        self.lines = lines
        self.owners = owners
        self.block_y = block_y
        self.done = done
        self.window = window
        """For the window's thread: the window's first block (else None: from the top)."""


class RenderedPage(ScrollView, can_focus=True):
    """The page's markdown rendered, drawn a line at a time (see the module's docstring)."""

    BINDINGS: ClassVar[list[BindingType]] = _SCROLL_KEYS
    DEFAULT_CSS = """
    RenderedPage {
        height: 1fr; padding: 0 1; overflow-x: hidden; overflow-y: auto;
        scrollbar-gutter: stable;
    }
    """

    def __init__(
        self, markdown: str, files: list[RevisionFile], *, line: int | None = None
    ) -> None:
        super().__init__()
        self._markdown = markdown
        self._files = files
        self._page: PageBlocks | None = None
        self._starts: list[int] = []
        self._shown = _Rendering(0)
        self._next: _Rendering | None = None
        self._generation = 0
        self._anchor: int | None = line
        """A markdown line whose block goes to the top as soon as it is rendered."""
        self._follow_end = False
        self._end_wanted = False
        """A scroll to the end waits for the next refresh (`_scroll_to_end`)."""
        self._window: _Window | None = None
        """The page's end, or from a block jumped to, while the rest renders (see `_Window`)."""
        self._joined: int | None = None
        """Once the window is joined: the line it starts on (its later lines go after it)."""
        self._shift: tuple[int, int] | None = None
        """The window's first line moved from one line to another since the last batch."""
        self._window_first_wait = False
        """The rendering from the top waits (a thread reads it) while the window renders
        its first lines: they are what the reader asked to see."""
        self._main_stop: int | None = None
        """The block the rendering from the top stops before (the window's first; read by
        its thread)."""
        self._strips: dict[int, Strip] = {}
        self._frame: tuple[Style, int] = (Style(), 0)
        self._strips_key: tuple[object, ...] = ()

    @dataclass
    class LinkClicked(Message):
        """A link in the page was clicked (its target as written in the markdown)."""

        href: str

    def on_click(self, event: Click) -> None:
        """A click on a link follows it, as in a browser (keys: `L` lists the links)."""
        link = event.style.link if event.style is not None else None
        if link:
            event.stop()
            self.post_message(self.LinkClicked(link))

    # What callers read.

    @property
    def complete(self) -> bool:
        """True when the whole page is rendered at the current width."""
        return self._next is None and self._shown.complete

    @property
    def line_count(self) -> int:
        return len(self._shown.lines)

    @property
    def block_count(self) -> int:
        """The page's top-level blocks (0 until the thread has parsed the page)."""
        return len(self._starts)

    @property
    def blocks_rendered(self) -> int:
        """How many of them have lines on screen (at the current width)."""
        return len(self._shown.block_y)

    @property
    def top_line(self) -> int:
        """The markdown line of the block at the top of the view (what `c` comments on)."""
        shown = self._shown
        y = int(self.scroll_y)
        window = self._window
        if window is not None and y >= window.top:
            owners = window.rendering.owners
            if y - window.top < len(owners):
                return self._starts[owners[y - window.top]]
        if not shown.owners or y >= len(shown.owners):
            return self._anchor if self._anchor is not None else 0
        return self._starts[shown.owners[y]]

    def text_lines(self) -> list[str]:
        """Every line rendered so far, as text (for tests and copying)."""
        window = self._window.rendering.lines if self._window is not None else []
        return ["".join(segment.text for segment in line) for line in (*self._shown.lines, *window)]

    async def goto_line(self, line: int) -> None:
        """Scroll so the block holding `line` (of the page's markdown) is at the top; if it
        is not rendered yet, it is rendered first (`_Window`), the rest meanwhile."""
        self._anchor = line
        self._follow_end = self._end_wanted = False
        if self._starts and not self._has_block(self._anchor_block()):
            self._open_window(self._anchor_block())
        self._land()

    # Rendering (the thread) and receiving its lines (the loop).

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, self._restyle)
        # The page goes into a pane already laid out (the preview, the review pane's
        # rendered view): its width is known now, so the rendering starts at mount, not
        # after the layout that sizes this view (a frame later, drawn with no line yet).
        # A wrong guess costs one rendering more: `on_resize` renders at the real width.
        width, height = self._expected_size()
        if width > 0:
            self._render_again(width, height)

    def _expected_size(self) -> tuple[int, int]:
        """The width `_fit` will find (the parent's content less this view's padding and
        scrollbar gutter), and the height, before the first layout; zeros when unknown."""
        parent = self.parent
        if not isinstance(parent, Widget):
            return 0, 0
        styles = self.styles
        gutter = styles.scrollbar_size_vertical if styles.scrollbar_gutter == "stable" else 0
        size = parent.content_size
        width = size.width - styles.gutter.width - gutter
        return max(width, 0), max(size.height - styles.gutter.height, 0)

    def on_resize(self, event: Resize) -> None:
        self._fit()

    def _fit(self) -> None:
        """Render at the width the page has (the scrollbar's gutter kept), if it changed."""
        width = self.scrollable_content_region.width
        if width > 0 and width != self._wanted_width():
            self._render_again(width)

    def _restyle(self, _theme: object) -> None:
        """Another theme picked: the lines carry colours, so they are rendered again."""
        if self._wanted_width() > 0:
            self._render_again(self._wanted_width())

    def _render_again(self, width: int, height: int | None = None) -> None:
        """Render the page at `width`; what is shown stays until the new lines reach the
        block at the top (which then is at the top again), or the end, after G. `height`:
        the view's, when it is not laid out yet."""
        if self._shown.lines and self._anchor is None and not self._follow_end:
            self._anchor = self.top_line
        self._close_window()
        self._generation += 1
        self._next = _Rendering(width)
        height = self.size.height if height is None else height
        self._render_lines(self._generation, width, height, look_of(self.app))

    def _wanted_width(self) -> int:
        return self._next.width if self._next is not None else self._shown.width

    @work(thread=True, exclusive=True, group="render-page")
    def _render_lines(self, generation: int, width: int, height: int, look: Look) -> None:
        page = self._page
        if page is None:
            page = parse_blocks(prepare(self._markdown, self._files))
        self._render_blocks(generation, page, width, height, look, 0, None)

    @work(thread=True, exclusive=True, group="render-window")
    def _render_window(
        self, generation: int, page: PageBlocks, width: int, height: int, look: Look, first: int
    ) -> None:
        """The window's thread: from block `first` to the end; or, with `first` -1, the
        last blocks back from the end until they fill the first batch's screens."""
        try:
            self._render_window_lines(generation, page, width, height, look, first)
        finally:
            self._window_first_wait = False

    def _render_window_lines(
        self, generation: int, page: PageBlocks, width: int, height: int, look: Look, first: int
    ) -> None:
        if first >= 0:
            self._render_blocks(generation, page, width, height, look, first, first)
            return
        worker = get_current_worker()
        console = console_for(width, look)
        floor = len(self._shown.block_y)
        tail: list[tuple[int, list[Line]]] = []
        filled = 0
        number = len(page.blocks) - 1
        while number >= floor and filled < height * FIRST_BATCH_SCREENS:
            if worker.is_cancelled:
                return
            time.sleep(0)
            strips = render_block(page, number, console, look)
            tail.append((number, strips))
            filled += len(strips) + 1
            number -= 1
        if not tail:
            return
        tail.reverse()
        blank: Line = (Segment(" " * width),)
        lines: list[Line] = []
        owners: list[int] = []
        block_y: list[int] = []
        for number, strips in tail:
            if number:
                lines.append(blank)
                owners.append(number)
            block_y.append(len(lines))
            lines.extend(strips)
            owners.extend([number] * len(strips))
        first = tail[0][0]
        self._hand_over(_Batch(generation, page, lines, owners, block_y, True, window=first))

    def _render_blocks(
        self,
        generation: int,
        page: PageBlocks,
        width: int,
        height: int,
        look: Look,
        first: int,
        window: int | None,
    ) -> None:
        """Render blocks `first`.. in order, handing them over in batches: the first once
        it fills two screens, then every `BATCH_SECONDS`. The rendering from the top
        (`window` None) stops before the window's first block, once there is one."""
        worker = get_current_worker()
        console = console_for(width, look)
        blank: Line = (Segment(" " * width),)
        lines: list[Line] = []
        owners: list[int] = []
        block_y: list[int] = []
        handed = 0
        first_handed = False
        last = time.monotonic()
        for number in range(first, len(page.blocks)):
            if worker.is_cancelled:
                return
            if window is None:
                while self._window_first_wait and not worker.is_cancelled:
                    time.sleep(0.005)  # the window's first lines go first (G, a jump)
                stop = self._main_stop
                if stop is not None and number >= stop:
                    break  # the window has the rest
            # Let go of the GIL after each block (well under a millisecond): a thread that
            # only gives it up when asked holds it 5 ms at a time, and the loop, busy
            # drawing or mounting meanwhile, got half the CPU and twice the frame time.
            time.sleep(0)
            strips = render_block(page, number, console, look)
            if number:
                lines.append(blank)
                owners.append(number)
            block_y.append(handed + len(lines))
            lines.extend(strips)
            owners.extend([number] * len(strips))
            now = time.monotonic()
            if (not first_handed and len(lines) >= height * FIRST_BATCH_SCREENS) or (
                first_handed and now - last >= BATCH_SECONDS
            ):
                batch = _Batch(generation, page, lines, owners, block_y, False, window=window)
                if not self._hand_over(batch):
                    return
                if window is not None:
                    self._window_first_wait = False  # its first screens are there
                handed += len(lines)
                lines, owners, block_y = [], [], []
                first_handed, last = True, now
        self._hand_over(_Batch(generation, page, lines, owners, block_y, True, window=window))

    def _hand_over(self, batch: _Batch) -> bool:
        """Post a batch to the loop (a message: never waits on the loop, which may be
        closing); False when this rendering is no longer wanted."""
        if get_current_worker().is_cancelled:
            return False
        return self.post_message(batch)

    @on(_Batch)
    def _take_batch(self, batch: _Batch) -> None:
        batch.stop()
        if batch.generation != self._generation:
            return  # a rendering at a width no longer wanted
        if self._page is None:
            self._page = batch.page
            self._starts = batch.page.starts()
        if batch.window is not None:
            self._take_window(batch)
        else:
            self._take_main(batch)
        self._size_up()
        self._land()
        self.refresh()

    def _take_main(self, batch: _Batch) -> None:
        if self._joined is not None:
            return  # the window took over from its first block
        rendering = self._next or self._shown
        lines, owners, block_y = batch.lines, batch.owners, batch.block_y
        window = self._window
        reached = False
        if window is not None:
            # Only what comes before the window (its thread may not have seen the stop yet).
            wanted = window.first - len(rendering.block_y)
            reached = len(block_y) >= wanted
            cut = bisect_left(owners, window.first)
            lines, owners, block_y = lines[:cut], owners[:cut], block_y[: max(wanted, 0)]
        rendering.lines.extend(lines)
        rendering.owners.extend(owners)
        rendering.block_y.extend(block_y)
        rendering.complete = batch.done and window is None
        if self._next is not None and (batch.done or self._covers_anchor(self._next)):
            self._shown, self._next = self._next, None
        if reached:
            self._join()

    def _take_window(self, batch: _Batch) -> None:
        shown = self._shown
        if self._joined is not None:  # its later lines, after the rendering from the top
            shown.lines.extend(batch.lines)
            shown.owners.extend(batch.owners)
            shown.block_y.extend(self._joined + y for y in batch.block_y)
            shown.complete = batch.done
            return
        window = self._window
        if window is None:
            assert batch.window is not None
            if self._next is not None or batch.window < len(shown.block_y) or shown.complete:
                return  # the rendering from the top got there first
            window = self._window = _Window(batch.window, _Rendering(shown.width))
            self._main_stop = window.first
        rendering = window.rendering
        rendering.lines.extend(batch.lines)
        rendering.owners.extend(batch.owners)
        rendering.block_y.extend(batch.block_y)
        rendering.complete = batch.done
        if len(shown.block_y) >= window.first:
            self._join()

    def _join(self) -> None:
        """The rendering from the top has reached the window: one rendering again, the
        window's lines after the others; what is on screen stays where it is."""
        window, shown = self._window, self._shown
        assert window is not None
        start = len(shown.lines)
        shown.lines.extend(window.rendering.lines)
        shown.owners.extend(window.rendering.owners)
        shown.block_y.extend(start + y for y in window.rendering.block_y)
        shown.complete = window.rendering.complete
        self._window, self._joined = None, start
        self._shift = (window.top, start)

    def _size_up(self) -> None:
        """The view's height: the lines so far, and while a window is out, an estimate of
        the blocks between (from the lines a block took so far) and the window's lines."""
        shown, window = self._shown, self._window
        more = 0 if self.complete else 1  # the line that says the rest is coming
        height = len(shown.lines) + more
        if window is not None:
            blocks = len(shown.block_y) + len(window.rendering.block_y)
            lines = len(shown.lines) + len(window.rendering.lines)
            between = window.first - len(shown.block_y)
            top = len(shown.lines) + max(1, round(lines / max(blocks, 1) * between))
            if window.top and window.top != top:
                self._shift = (window.top, top)
            window.top = top
            height = top + len(window.rendering.lines) + (0 if window.rendering.complete else 1)
        self.virtual_size = Size(shown.width, height)
        if self._shift is not None:
            # The window's lines moved (the estimate above it corrected, or joined): a view
            # on them moves with them, so what is on screen stays.
            (old, new), self._shift = self._shift, None
            if self.scroll_y >= old and not self._follow_end:
                self.scroll_to(
                    y=self.scroll_y + new - old, animate=False, force=True, immediate=True
                )

    def _has_block(self, block: int) -> bool:
        """The block's lines are there to be shown (from the top or in the window)."""
        if block < len(self._shown.block_y):
            return True
        window = self._window
        return window is not None and 0 <= block - window.first < len(window.rendering.block_y)

    def _block_top(self, block: int) -> int:
        if block < len(self._shown.block_y):
            return self._shown.block_y[block]
        window = self._window
        assert window is not None
        return window.top + window.rendering.block_y[block - window.first]

    def _open_window(self, first: int) -> None:
        """Render from block `first` (-1: the last blocks) in a thread of its own, unless a
        window is out already, the page is rendered whole, or a width change is on."""
        page = self._page
        if (
            page is None
            or self._window is not None
            or self._joined is not None
            or self._next is not None
            or self.complete
            or not self.is_mounted
        ):
            return
        width, height = self._shown.width, max(self.size.height, 1)
        self._window_first_wait = True
        self._render_window(self._generation, page, width, height, look_of(self.app), first)

    def _close_window(self) -> None:
        self._window, self._joined, self._main_stop = None, None, None
        self._window_first_wait = False
        self.workers.cancel_group(self, "render-window")

    def _anchor_block(self) -> int:
        assert self._anchor is not None
        return max(bisect_right(self._starts, self._anchor) - 1, 0)

    def _covers_anchor(self, rendering: _Rendering) -> bool:
        if self._anchor is None:
            return True
        block = self._anchor_block()
        return block < len(rendering.block_y) and (
            len(rendering.lines) - rendering.block_y[block] >= self.size.height
        )

    def _land(self) -> None:
        """Take the view to where it was asked to be, once the lines for it are there."""
        if self._next is not None:
            return  # a rendering at the new width is coming: the anchor is for it
        if self._anchor is not None and self._starts:
            block = self._anchor_block()
            if self._has_block(block):
                self._anchor = None
                self.scroll_to(y=self._block_top(block), animate=False, force=True)
        if self._follow_end:
            self._scroll_to_end()
            self._follow_end = not self.complete

    def _scroll_to_end(self) -> None:
        """To the end, worked out after the next layout, not now: the view may not have its
        size yet (just mounted), and then the end now is not the end drawn. A move made
        meanwhile (g, k, a jump) wins: the scroll is not made then."""
        self._end_wanted = True
        self.call_after_refresh(self._end_now)

    def _end_now(self) -> None:
        if self._end_wanted:
            self._end_wanted = False
            self.scroll_to(y=self.max_scroll_y, animate=False, force=True, immediate=True)

    def render_lines(self, crop: Region) -> list[Strip]:
        # The widget's style and width, worked out once a frame, not once a line (the
        # style walks the ancestors for their backgrounds).
        self._frame = (self.rich_style, self.scrollable_content_region.width)
        if self._wanted_width() == 0 and self._frame[1] > 0:
            # Drawn with a width but never rendered at one: not on a Resize alone, as a
            # view laid out in the frame it replaced another one in can be given its size
            # with no Resize sent (about 1 page in 20 shown from the revision cache, in
            # `docdeck`'s own runs), and the page then stayed blank.
            self.call_later(self._fit)
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        style, width = self._frame
        lines = self._shown.lines
        window = self._window
        at = index
        window_lines: list[Line] = []
        if window is not None and index >= window.top:
            # The window: its own lines, then a note while it still renders.
            window_lines, at = window.rendering.lines, index - window.top
            if at >= len(window_lines):
                if at == len(window_lines) and not window.rendering.complete:
                    return self._note("… rendering the end of this page", scroll_x, width, style)
                return Strip.blank(width, style)
            lines = window_lines
        elif index >= len(lines):
            if index == len(lines) and not self.complete and self.is_attached:
                note = (
                    f"… rendering the rest of this page "
                    f"({self.blocks_rendered} of {self.block_count} blocks)"
                )
                return self._note(note, scroll_x, width, style)
            return Strip.blank(width, style)
        # A scroll redraws every line on screen, most of them drawn the frame before:
        # strips are kept for the lines met last (a few screens), made again only when
        # the width, the style or the lines themselves (or where the window is) change.
        key = (
            width,
            scroll_x,
            style,
            id(self._shown.lines),
            id(window_lines),
            window and window.top,
        )
        if key != self._strips_key:
            self._strips.clear()
            self._strips_key = key
        kept = self._strips.get(index)
        if kept is None:
            if len(self._strips) > STRIPS_KEPT:
                self._strips.clear()
            made = Strip(lines[at], self._shown.width)
            kept = made.crop_extend(scroll_x, scroll_x + width, style).apply_style(style)
            self._strips[index] = kept
        return kept

    @staticmethod
    def _note(text: str, scroll_x: int, width: int, style: Style) -> Strip:
        strip = Strip([Segment(text, Style(dim=True, italic=True))])
        return strip.crop_extend(scroll_x, scroll_x + width, style).apply_style(style)

    # Keys: G keeps following the end while the rest renders; any other move stops it.

    def action_scroll_end(self) -> None:
        # Followed until the next lines land (`_land`), even on a page rendered whole: the
        # scroll waits for a refresh, and a width change before it renders the page again.
        # Not Textual's own action: it skips the key while the view has no scrollbar yet
        # (just shown, not laid out), and animates; the end is worked out after the layout.
        self._anchor = None
        self._follow_end = True
        self._open_window(-1)  # the last blocks first, while the rest renders
        self._scroll_to_end()

    def on_mouse_scroll_up(self) -> None:
        self._stop_following()

    def _stop_following(self) -> None:
        self._follow_end = self._end_wanted = False
        self._anchor = None

    def action_scroll_home(self) -> None:
        self._stop_following()
        super().action_scroll_home()

    def action_scroll_up(self) -> None:
        self._stop_following()
        super().action_scroll_up()

    def action_page_up(self) -> None:
        self._stop_following()
        super().action_page_up()
