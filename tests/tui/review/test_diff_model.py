"""The diff rows (difflib), changed words inside lines, and code colouring per side."""

from __future__ import annotations

from docdeck.tui.review import styled_lines
from docdeck.tui.review.diff_model import diff_pages, word_spans

BASE = "\n".join(f"line {n}" for n in range(1, 31))


def test_identical_pages_have_no_hunks() -> None:
    diff = diff_pages(BASE, BASE)
    assert diff.identical and diff.unified == [] and diff.split == []


def test_two_distant_edits_are_two_hunks_with_a_fold_between() -> None:
    changed = BASE.replace("line 2\n", "line two\n").replace("line 29", "line twenty-nine")
    diff = diff_pages(BASE, changed)
    assert diff.hunks == 2 and diff.added == 2 and diff.removed == 2
    kinds = [row.kind for row in diff.unified]
    assert kinds.count("fold") == 1  # between the hunks (the last is near the end)
    folds = [row.folded for row in diff.unified if row.kind == "fold"]
    assert folds == [20]  # lines 6..25: all but the changes and 3 lines of context each
    # Unified: the old line, then the new one; side by side: both on one row.
    first = [row for row in diff.unified if row.changed][:2]
    assert [r.kind for r in first] == ["delete", "insert"]
    assert first[0].base is not None and first[0].base.line == 1
    pair = next(row for row in diff.split if row.changed)
    assert pair.kind == "change" and pair.base and pair.change
    assert (pair.base.text, pair.change.text) == ("line 2", "line two")


def test_changed_words_are_spans_inside_the_lines() -> None:
    old, new = "Tokens expire after 30 days.", "Tokens expire after 90 days, unless revoked."
    spans_old, spans_new = word_spans(old, new)
    assert [old[a:b] for a, b in spans_old] == ["30"]
    changed = [new[a:b] for a, b in spans_new]
    assert changed[0] == "90" and "unless revoked" in "".join(changed[1:])
    assert "Tokens expire after" not in "".join(changed)
    # Lines with nothing in common are changed whole (no word spans).
    assert word_spans("alpha beta", "gamma delta") == ((), ())


def test_added_and_deleted_pages_diff_against_nothing() -> None:
    added = diff_pages("", "# New\n\ntext")
    assert added.removed == 0 and added.added == 3 and added.hunks == 1
    deleted = diff_pages("# Old\n\ntext", "")
    assert deleted.added == 0 and deleted.removed == 3


def test_code_blocks_are_coloured_by_language() -> None:
    lines = ["# Title", "", "```python", "def f(x):", "    return x", "```", "after"]
    styled = styled_lines(lines)
    assert len(styled) == len(lines)
    assert [t.plain for t in styled] == lines
    code = styled[3]
    assert code.spans, "the python line carries syntax styles"
    assert not styled[6].spans  # prose after the block is not coloured as code
    assert "bold" in str(styled[0].spans[0].style)  # a heading
    # An unknown language keeps the text, uncoloured.
    plain = styled_lines(["```nosuchlanguage", "a = 1", "```"])
    assert plain[1].plain == "a = 1"


def test_a_new_languages_code_is_plain_until_its_lexer_may_be_built() -> None:
    """The first block of a language waits for its lexer (tens of ms) when asked to: the
    diff is drawn first, coloured after."""
    from docdeck.tui.review._diff_text import lexers_pending

    lines = ["```erlang", "f(X) -> X + 1.", "```", "``` ", "plain", "```"]
    assert lexers_pending(lines)
    plain = styled_lines(lines, build_lexers=False)
    assert [t.plain for t in plain] == lines and not plain[1].spans
    assert lexers_pending(lines)  # nothing was built
    coloured = styled_lines(lines)
    assert coloured[1].spans and not lexers_pending(lines)
    assert styled_lines(lines, build_lexers=False)[1].spans  # built once: coloured at once


async def test_the_diff_view_colours_a_new_languages_code_after_it_is_drawn() -> None:
    from textual.app import App, ComposeResult

    from docdeck.tui.review import DiffView

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield DiffView(id="diff")

    old = "# Title\n\n```clojure\n(defn f [x] x)\n```\n"
    new = "# Title\n\n```clojure\n(defn f [x] (inc x))\n```\n"
    async with One().run_test(size=(80, 20)) as pilot:
        view = pilot.app.query_one(DiffView)
        view.show_diff("page", diff_pages(old, new))
        assert not view._styled[1][3].spans  # drawn plain first
        await pilot.pause()
        await pilot.pause()
        assert view._styled[1][3].spans  # then coloured
        assert view.cursor_line() is not None


async def test_a_diff_shown_before_its_view_has_a_size_is_coloured_after_it_is_drawn() -> None:
    """A diff shown while its view is not laid out yet (the review pane's first diff) has no
    lines to draw in its view's first frame: the lexer (tens of ms) waits for the frame that
    draws them, not the blank one before it."""
    from textual.app import App, ComposeResult
    from textual.strip import Strip

    from docdeck.tui.review import DiffView

    class Watched(DiffView):
        drew = False
        drawn_when_coloured: bool | None = None

        def render_line(self, y: int) -> Strip:
            strip = super().render_line(y)
            self.drew = self.drew or bool(strip.text.strip())
            return strip

        def _colour_code(self, diff: object) -> None:
            if self.drawn_when_coloured is None:
                self.drawn_when_coloured = self.drew
            super()._colour_code(diff)  # type: ignore[arg-type]

    old = "# Title\n\n```scheme\n(define (f x) x)\n```\n"
    new = "# Title\n\n```scheme\n(define (f x) (+ x 1))\n```\n"

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield Watched(id="diff")

        def on_mount(self) -> None:
            self.query_one(Watched).show_diff("page", diff_pages(old, new))

    async with One().run_test(size=(80, 20)) as pilot:
        view = pilot.app.query_one(Watched)
        for _ in range(5):
            await pilot.pause()
        assert view._styled[1][3].spans  # coloured in the end
        assert view.drawn_when_coloured is True
        assert "(define (f x) (+ x 1))" in "\n".join(
            view.render_line(y).text for y in range(view.size.height)
        )


async def test_a_diff_shown_before_its_view_has_a_size_is_in_the_views_first_frame() -> None:
    """The view lays the diff out in the first frame that gives it a width, not one frame
    later at its Resize: the first frame of a review pane shows its first diff."""
    from textual.app import App, ComposeResult
    from textual.strip import Strip

    from docdeck.tui.review import DiffView

    class Watched(DiffView):
        frames: list[list[str]] = []

        def render_line(self, y: int) -> Strip:
            strip = super().render_line(y)
            if y == 0 or not self.frames:
                self.frames.append([])
            self.frames[-1].append(strip.text)
            return strip

    old = "# Title\n\nOne line.\n"
    new = "# Title\n\nOne line, changed.\n"

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield Watched(id="diff")

        def on_mount(self) -> None:
            self.query_one(Watched).show_diff("page", diff_pages(old, new))

    async with One().run_test(size=(80, 20)) as pilot:
        await pilot.pause()
        view = pilot.app.query_one(Watched)
        assert view.frames
        assert "One line, changed." in "\n".join(view.frames[0])
