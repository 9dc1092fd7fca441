"""The rendered page: markdown drawn by one line-API view from lines a thread renders.

The view is the same widget the space screen and the review pane show (through the
preview pane); here it is hosted alone so each case can give it the page it needs (a
1 MB page, a width change) and read what is on screen.
"""

from __future__ import annotations

import random
import threading
from types import SimpleNamespace
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot

from docdeck.models.markdown import alert_title, task_box
from docdeck.tui.content import PagePreview, RenderedPage, look_of
from docdeck.tui.content import _rendered_page as rendered_page_module
from docdeck.tui.space import line_in_view
from tui.helpers import screen_lines, wait_until

SMALL = """# Webhooks

Northwind sends an HTTP POST with a **signed** payload; see [Rate limits](rate-limits.md).

## Registering

1. Open the settings.
2. Add the URL.
   - a nested point

| Event | When | Retries |
|---|---|--:|
| order.created | an order is placed | 5 |

```python
def verify(payload: bytes) -> bool:
    return True
```

> [!WARNING]
> Never log the secret.
"""

WORDS = [
    "order",
    "refund",
    "webhook",
    "payload",
    "signature",
    "retry",
    "cursor",
    "token",
    "page",
    "space",
]


def big_page(parts: int = 1200) -> str:
    """About 1 MB: `## Part i` and a paragraph of 150 words, as the bench's page."""
    rng = random.Random(7)
    return "\n\n".join(
        f"## Part {i}\n\n" + " ".join(rng.choices(WORDS, k=150)) for i in range(parts)
    )


def heading_line(markdown: str, text: str) -> int:
    return markdown.split("\n").index(text)


class Host(App[None]):
    def compose(self) -> ComposeResult:
        yield PagePreview(id="preview")


def show(pilot: Pilot[None], markdown: str) -> RenderedPage:
    """The page shown as the screens show one (the preview pane's `show_page`)."""
    preview = pilot.app.query_one(PagePreview)
    page = SimpleNamespace(title="A page", path="")  # what the title line reads of a page
    preview.show_page(page, markdown, [])  # type: ignore[arg-type]
    view = preview.slot.view
    assert isinstance(view, RenderedPage)
    return view


def text(pilot: Pilot[None]) -> str:
    return "\n".join(screen_lines(pilot))


async def rendered(pilot: Pilot[None], view: RenderedPage, *, complete: bool = True) -> None:
    """Until the view has lines (and, if asked, the whole page) at its width; a big page
    under a loaded machine takes seconds, so the bound is generous."""
    for _ in range(3):
        try:
            await wait_until(
                pilot,
                lambda: view.line_count > 0 and (view.complete or not complete),
                "the page is rendered",
            )
            break
        except AssertionError:
            continue
    assert view.line_count > 0 and (view.complete or not complete)
    await pilot.pause()


async def test_a_small_page_shows_headings_lists_tables_code_and_callouts() -> None:
    app = Host()
    async with app.run_test(size=(100, 40)) as pilot:
        view = show(pilot, SMALL)
        await rendered(pilot, view)
        lines = screen_lines(pilot)
        shown = "\n".join(lines)
        assert "Webhooks" in shown and "━━━━━━━━" in shown  # the title, ruled across
        assert "# Webhooks" not in shown and "```" not in shown and "|---|" not in shown
        assert "with a signed payload; see Rate limits." in shown  # link text, no URL
        assert "1. Open the settings." in shown
        assert "2. Add the URL." in shown
        assert "• a nested point" in shown
        assert any("│ order.created │ an order is placed │" in line for line in lines)
        assert any(line.strip().startswith("╭") for line in lines)  # the table is framed
        assert "def verify(payload: bytes) -> bool:" in shown
        warning = next(i for i, line in enumerate(lines) if "⚠ Warning" in line)
        assert "▌" in lines[warning] and "Never log the secret." in lines[warning + 1]


async def test_a_page_given_its_size_with_no_resize_still_renders(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A view laid out in the frame it replaced another one in can be given its size with
    no Resize sent (it happened to about 1 page in 20 shown from the revision cache): the
    page stayed blank. Drawn with a width, it renders at that width all the same."""
    monkeypatch.setattr(RenderedPage, "on_resize", lambda self, event: None)  # none arrives
    app = Host()
    async with app.run_test(size=(100, 40)) as pilot:
        view = show(pilot, SMALL)
        await rendered(pilot, view)
        assert "with a signed payload; see Rate limits." in text(pilot)


async def test_a_page_in_a_laid_out_pane_renders_from_its_mount_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The pane was laid out before the page came (it showed "loading…"): the rendering
    starts as the view mounts, before the layout that sizes the view (it waited for that
    layout's Resize, a frame drawn with no line later), at the width that layout then
    gives it, so it is not made twice."""
    started: list[tuple[int, int]] = []  # (the view's width then, the width rendered at)
    render_lines = RenderedPage._render_lines

    def recording(self: RenderedPage, generation: int, width: int, *rest: Any) -> Any:
        started.append((self.size.width, width))
        return render_lines(self, generation, width, *rest)

    monkeypatch.setattr(RenderedPage, "_render_lines", recording)
    app = Host()
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: app.query_one(PagePreview).slot.size.width > 0, "laid out")
        view = show(pilot, SMALL)
        await rendered(pilot, view)
        assert "with a signed payload; see Rate limits." in text(pilot)
        assert started == [(0, view.scrollable_content_region.width)]


async def test_a_page_given_before_the_preview_is_composed_is_shown_once_it_is() -> None:
    """The preview asked for its title line and view slot by query: given a page before
    it had composed them (or after they left), it raised NoMatches on '#preview-body'
    and docdeck showed its internal-error notice."""
    app = App[None]()
    async with app.run_test(size=(100, 40)) as pilot:
        preview = PagePreview(id="preview")
        page = SimpleNamespace(title="Early page", path="guides/early")
        preview.show_loading(page)  # type: ignore[arg-type]
        preview.show_page(page, SMALL, [])  # type: ignore[arg-type]
        await app.mount(preview)  # composed only now
        view = preview.slot.view
        assert isinstance(view, RenderedPage)
        await rendered(pilot, view)
        shown = text(pilot)
        assert "Early page" in shown and "/guides/early" in shown
        assert "with a signed payload; see Rate limits." in shown


TASKS_AND_ALERTS = """# Launch

- [x] Payment capture
- [ ] Partial shipments

> [!WARNING]
> Never log the **secret**.

> [!note] Not an alert: the marker has text after it.
"""
"""The page tests/server/test_task_lists_and_alerts.py renders as a document, HTML and PDF."""


async def test_task_items_show_their_box_and_an_alert_its_title_as_every_output_does() -> None:
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        view = show(pilot, TASKS_AND_ALERTS)
        await rendered(pilot, view)
        lines = [line.strip() for line in screen_lines(pilot)]
        assert f"{task_box(True)} Payment capture" in lines  # the box in place of the bullet
        assert f"{task_box(False)} Partial shipments" in lines
        assert not any("[x]" in line or "[ ]" in line for line in lines)
        title = lines.index(f"▌ {alert_title('WARNING')}")
        assert lines[title + 1] == "▌ Never log the secret."
        assert "▌ [!note] Not an alert: the marker has text after it." in lines
        assert not any("[!WARNING]" in line for line in lines)


async def test_the_block_at_the_top_is_the_one_a_comment_is_on() -> None:
    markdown = big_page(60)
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        view = show(pilot, markdown)
        await rendered(pilot, view)
        assert line_in_view(view) == 0  # the first heading
        part = heading_line(markdown, "## Part 20")
        await view.goto_line(part)
        await pilot.pause()
        assert screen_lines(pilot)[1].strip().startswith("Part 20")  # under the title line
        assert line_in_view(view) == part
        view.focus()
        await pilot.press("j")  # the heading scrolls off: the paragraph below is at the top
        assert line_in_view(view) == part + 2
        # A line inside a block goes to that block.
        await view.goto_line(part + 2)
        await pilot.pause()
        assert line_in_view(view) == part + 2


async def test_goto_line_lands_on_its_block_after_a_width_change() -> None:
    markdown = big_page(200)
    app = Host()
    async with app.run_test(size=(120, 30)) as pilot:
        view = show(pilot, markdown)
        await rendered(pilot, view)
        wide_lines = view.line_count
        part = heading_line(markdown, "## Part 150")
        await view.goto_line(part)
        await pilot.pause()
        assert line_in_view(view) == part

        await pilot.resize_terminal(60, 30)
        await wait_until(pilot, lambda: view.line_count > wide_lines, "the page is re-wrapped")
        await rendered(pilot, view)
        assert view.line_count > wide_lines  # narrower: the paragraphs take more lines
        assert all(
            len(line.rstrip()) <= view.scrollable_content_region.width for line in view.text_lines()
        )
        assert line_in_view(view) == part  # the block at the top stayed at the top
        assert screen_lines(pilot)[1].strip().startswith("Part 150")

        later = heading_line(markdown, "## Part 180")
        await view.goto_line(later)
        await pilot.pause()
        assert line_in_view(view) == later
        assert screen_lines(pilot)[1].strip().startswith("Part 180")


async def test_a_one_megabyte_page_opens_and_its_end_is_reachable() -> None:
    markdown = big_page()
    assert len(markdown) > 1_000_000
    app = Host()
    async with app.run_test(size=(120, 40)) as pilot:
        view = show(pilot, markdown)
        await rendered(pilot, view, complete=False)  # the top, while the rest renders
        assert "Part 0" in text(pilot)
        view.focus()
        await pilot.press("G")  # the end of what is rendered, and it follows the rest
        await rendered(pilot, view)
        await wait_until(pilot, lambda: view.scroll_y >= view.max_scroll_y, "at the end")
        await pilot.pause()
        assert "Part 1199" in text(pilot)
        assert "rendering the rest" not in text(pilot)
        assert view.blocks_rendered == view.block_count == 2400
        await pilot.press("g")
        await pilot.pause()
        assert "Part 0" in text(pilot) and "Part 1199" not in text(pilot)
        await pilot.press("space")
        await pilot.pause()
        assert view.scroll_y > 0 and "Part 0" not in text(pilot)  # a screen further
        # A jump to a heading near the end of the page (the contents, a search hit).
        part = heading_line(markdown, "## Part 1100")
        await view.goto_line(part)
        await pilot.pause()
        assert line_in_view(view) == part and "Part 1100" in text(pilot)


async def test_another_theme_renders_the_lines_again_in_its_colours() -> None:
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        view = show(pilot, SMALL)
        await rendered(pilot, view)

        def title_color() -> object:
            return view._shown.lines[0][0].style.color  # type: ignore[union-attr]

        dark = title_color()
        app.theme = "textual-light"
        await wait_until(pilot, lambda: view.complete and title_color() != dark, "restyled")
        assert title_color() == look_of(app).styles["markdown.h1"].color  # the light theme's
        assert "Webhooks" in text(pilot)  # the same page, at the top


async def test_the_end_g_asked_for_stays_through_a_width_change() -> None:
    """G, then the width changes before the scroll is drawn (a scrollbar appears as the
    page grows): the view is at the page's end, not back at its top block."""
    markdown = big_page(40)
    app = Host()
    async with app.run_test(size=(120, 30)) as pilot:
        view = show(pilot, markdown)
        await rendered(pilot, view)
        view.focus()
        await pilot.pause()
        wide_lines = view.line_count
        view.action_scroll_end()  # the scroll waits for the next refresh
        await pilot.resize_terminal(90, 30)  # the width changes first
        await wait_until(pilot, lambda: view.line_count > wide_lines, "the page is re-wrapped")
        await rendered(pilot, view)
        await wait_until(
            pilot,
            lambda: view.scroll_y == view.max_scroll_y > 0,
            f"at the end (at {view.scroll_y} of {view.max_scroll_y})",
        )


async def test_g_before_the_view_is_laid_out_again_still_reaches_the_end() -> None:
    """G while the view has no scrollbar yet (the page fitted, its size changed and the
    layout has not caught up): the key is not skipped, and the view lands on the end."""
    markdown = big_page(20)
    app = Host()
    async with app.run_test(size=(120, 400)) as pilot:
        view = show(pilot, markdown)
        await rendered(pilot, view)
        view.styles.height = view.line_count + 5  # it all fits: nothing to scroll
        await wait_until(pilot, lambda: view.max_scroll_y == 0, "the page fits")
        view.styles.height = 10  # smaller, laid out at the next refresh
        view.action_scroll_end()  # before that refresh
        await wait_until(
            pilot,
            lambda: view.scroll_y == view.max_scroll_y > 0,
            f"at the end (at {view.scroll_y} of {view.max_scroll_y})",
        )


class Gate:
    """Holds the rendering from the top at a block until released, as a slow machine
    would; the window's blocks (the end, or from a heading) are let through."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, held: range) -> None:
        self.held = held
        self.open = threading.Event()
        real = rendered_page_module.render_block

        def render_block(page: Any, number: int, console: Any, look: Any) -> Any:
            if number in self.held:
                self.open.wait(60)
            return real(page, number, console, look)

        monkeypatch.setattr(rendered_page_module, "render_block", render_block)


async def test_g_on_a_big_page_shows_its_end_before_the_rest_is_rendered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The last blocks are rendered first (a window at an estimated line), while the
    rendering from the top goes on; once that reaches them, the page is the one a
    rendering from the top alone gives, line for line, and the view is still at its end."""
    markdown = big_page(400)
    gate = Gate(monkeypatch, range(100, 700))
    app = Host()
    async with app.run_test(size=(120, 40)) as pilot:
        view = show(pilot, markdown)
        await rendered(pilot, view, complete=False)
        view.focus()
        await pilot.press("G")
        await wait_until(pilot, lambda: "Part 399" in text(pilot), "the end is on screen")
        last_words = markdown.rsplit("\n", 1)[-1].split()[-3:]
        assert " ".join(last_words) in " ".join(text(pilot).split()), text(pilot)
        assert view.blocks_rendered <= 100 and not view.complete
        await pilot.press("g")
        await pilot.pause()
        assert "Part 0" in text(pilot) and "Part 399" not in text(pilot)
        await pilot.press("G")
        gate.open.set()
        await rendered(pilot, view)
        await wait_until(pilot, lambda: view.scroll_y == view.max_scroll_y, "at the end")
        assert "Part 399" in text(pilot)
        joined = view.text_lines()
    alone = Host()
    async with alone.run_test(size=(120, 40)) as pilot:
        view = show(pilot, markdown)
        await rendered(pilot, view)
        assert joined == view.text_lines()


async def test_a_heading_far_down_shows_before_the_rest_is_rendered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A jump to a heading not rendered yet renders from it first; the heading stays at
    the top when the rendering from the top reaches it and the estimate is corrected."""
    markdown = big_page(400)
    gate = Gate(monkeypatch, range(100, 600))
    app = Host()
    async with app.run_test(size=(120, 40)) as pilot:
        view = show(pilot, markdown)
        await rendered(pilot, view, complete=False)
        part = heading_line(markdown, "## Part 350")
        await view.goto_line(part)
        await wait_until(pilot, lambda: line_in_view(view) == part, "the heading at the top")
        assert screen_lines(pilot)[1].strip().startswith("Part 350")
        assert view.blocks_rendered <= 100 and not view.complete
        gate.open.set()
        await rendered(pilot, view)
        await pilot.pause()
        assert line_in_view(view) == part
        assert screen_lines(pilot)[1].strip().startswith("Part 350")
