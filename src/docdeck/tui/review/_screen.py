"""The review pane: one change request, pushed over the space screen (or the inbox).

Header (number, subject, status, author, base, outdated, reviews, requested reviewers),
the changed pages with their counts, and the diff of the highlighted page: unified or
side by side (`d`), or the page rendered (`v`). `]`/`[` walk hunks, `}`/`{` changed pages.

The pane binds every key, so each works wherever the focus is in it, and runs the writes
in invisible parts it composes (`ChangeRequestActions`: review, merge, the change request
itself; `PageAuthoring`: its pages), which read the pane as their `ReviewSource`, and
`DiffThreads`, which places the threads panel's threads in the diff and runs the thread keys
on the diff's cursor or the list's (`ThreadsSource`). The panel and `DiffThreads` are mounted
once the first diff is drawn, in a slot kept for the panel (`ReviewLoading.show_threads`);
until then the thread keys say they are not ready.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import ContentSwitcher, OptionList, Static
from textual.worker import Worker

from docdeck.models import ChangeRequest, Space
from docdeck.tui.content import PagePreview
from docdeck.tui.kit.bindings import HELP, binder
from docdeck.tui.kit.copy_values import CopyValue
from docdeck.tui.kit.footer import BrowserFooter
from docdeck.tui.kit.sharing import copy_value, open_url
from docdeck.tui.kit.styled import StyledOnMount
from docdeck.tui.kit.workers import report_worker_failure
from docdeck.tui.review._actions import ChangeRequestActions
from docdeck.tui.review._authoring import PageAuthoring
from docdeck.tui.review._changed_pages import ChangedPagesList
from docdeck.tui.review._diff_view import DiffView
from docdeck.tui.review._header_view import ReviewHeader
from docdeck.tui.review._loading import ReviewLoading
from docdeck.tui.review._thread_keys import THREAD_BINDINGS, binds
from docdeck.tui.review._viewed_pages import ViewedPages
from docdeck.tui.review.change_request_subject import ChangeRequestSubject

if TYPE_CHECKING:
    from docdeck.tui.content.block_map import BlockMap
    from docdeck.tui.review._threads import DiffThreads
    from docdeck.tui.threads import ThreadsPanel

__all__ = ["ReviewScreen"]


_b = binder("review")


class ReviewScreen(StyledOnMount, ReviewLoading):
    DEFAULT_CSS = """
    ReviewScreen #review-header { height: auto; max-height: 4; padding: 0 1; background: $boost; }
    ReviewScreen #review-body { height: 1fr; }
    ReviewScreen #review-side { width: 32; border-right: vkey $foreground 20%; }
    ReviewScreen #review-counts { height: auto; max-height: 3; padding: 0 1; }
    ReviewScreen #review-page-head { height: auto; max-height: 6; padding: 0 1;
        background: $boost; }
    ReviewScreen #review-diff-message { height: 1fr; padding: 1 2; }
    ReviewScreen #review-views { height: 1fr; }
    ReviewScreen.-narrow #review-body { layout: vertical; }
    ReviewScreen.-narrow #review-side { width: 1fr; height: 6; border-right: none;
        border-bottom: hkey $foreground 20%; }
    /* Short (80x24): the diff keeps at least 12 rows, and the list that has the focus
       gets 5; the other list shrinks to make room (its status line stays). The page's
       head line and the threads' status line (both $boost) stand in for borders. */
    ReviewScreen.-short #review-header { max-height: 3; }
    ReviewScreen.-short #review-page-head { max-height: 2; }
    ReviewScreen.-short.-pages-focused #review-page-head { max-height: 1; }
    ReviewScreen.-short.-threads-focused #review-page-head { max-height: 1; }
    ReviewScreen.-short.-diff-only #review-page-head { max-height: 6; }
    ReviewScreen.-short.-narrow #review-side { height: 4; border-bottom: none; }
    ReviewScreen.-short.-narrow.-pages-focused #review-side { height: 6; }
    ReviewScreen.-short.-narrow.-threads-focused #review-side { height: 1; }
    ReviewScreen.-short #review-pages:focus { border: none; }
    ReviewScreen.-short #review-threads ThreadList:focus { border: none; }
    ReviewScreen.-short #review-threads { height: 2; border-top: none; }
    ReviewScreen.-short.-pages-focused #review-threads { height: 1; }
    ReviewScreen.-short.-threads-focused #review-threads { height: 6; }
    ReviewScreen.-short #review-threads.-empty { height: auto; }
    /* The threads panel's place until it is mounted (`show_threads`), as high as the
       panel is then: the diff does not move when it comes. */
    ReviewScreen #review-threads-slot { height: 35%; border-top: hkey $foreground 20%; }
    ReviewScreen.-narrow #review-threads-slot { height: 5; }
    ReviewScreen.-short #review-threads-slot { height: 2; border-top: none; }
    ReviewScreen.-diff-only #review-threads-slot { display: none; }
    /* `z`: the diff (or the rendered page) alone, with its head line and the footer. */
    ReviewScreen.-diff-only #review-header { display: none; }
    ReviewScreen.-diff-only #review-side { display: none; }
    ReviewScreen.-diff-only #review-threads { display: none; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        _b("E", "edit_page", "Edit page", "Edit this page's markdown in $EDITOR (or pick a page)"),
        _b("N", "add_page", "Add page", "Add a page to the change request"),
        _b("K", "delete_page", "Delete page", "Delete this page in the change request"),
        _b("U", "revert_page", "Revert", "Discard the change request's changes to this page"),
        _b("a", "review", "Review", "Approve or request changes, with an optional comment"),
        _b("w", "reviewers", "Reviewers", "Requested reviewers: list, add, remove"),
        _b("u", "update_from_main", "Update", "Bring main's changes into the change request"),
        _b("m", "merge", "Merge", "Merge readiness, then merge into main"),
        _b("S", "edit_subject", "Subject", "Edit the change request's subject"),
        _b("D", "toggle_draft", "Draft/ready", "Mark the change request draft or ready"),
        _b("X", "archive", "Archive", "Archive the change request, or reopen an archived one"),
        _b("P", "pdf", "PDF", "Export the change request as PDF: open or copy the link"),
        *THREAD_BINDINGS,
        HELP,
        _b("escape", "back", "Back", "Back to where the change request was opened"),
        _b("tab", "switch_focus", "Pages/Diff", "Move between the changed pages and the diff"),
        _b("right_square_bracket", "next_hunk", "Next hunk", "The next change in this page"),
        _b("left_square_bracket", "previous_hunk", "Prev hunk", "The previous change"),
        _b("right_curly_bracket", "next_page", "Next page", "The next changed page"),
        _b("left_curly_bracket", "previous_page", "Prev page", "The previous changed page"),
        _b("d", "toggle_layout", "Side by side", "Unified or side-by-side diff"),
        _b("v", "toggle_rendered", "Rendered", "The page as rendered, or back to the diff"),
        _b(
            "z",
            "toggle_diff_only",
            "Diff only",
            "The diff alone on the screen (no header, pages or threads), or every part back",
        ),
        _b("V", "toggle_viewed", "Viewed", "Mark the changed page shown viewed, or not"),
        _b("r", "refresh", "Refresh", "Read the change request and its diff again"),
        _b("y", "copy", "Copy URL", "Copy the change request's app URL"),
        _b("o", "open", "Open", "Open the change request in the browser (or copy its URL)"),
    ]
    FOOTER_PRIORITY = (
        "app.help",
        "back",
        "review",
        "merge",
        "next_hunk",
        "next_page",
        "toggle_diff_only",
        "toggle_layout",
        "toggle_rendered",
        "toggle_viewed",
        "previous_hunk",
        "previous_page",
        "switch_focus",
        "refresh",
        "copy",
        "open",
    )
    KEYS_WAIT_FOR = ("review", "review-header", "threads-load")
    """Keys typed ahead wait for the first diff, the reviews and the threads
    (`kit/typeahead.py`)."""
    NARROW_BELOW = 110
    SHORT_BELOW = 32
    """Below this height (80x24) the list and the threads give the diff more rows: the
    diff keeps at least 12, the focused list 5 (`-pages-focused`, `-threads-focused`)."""

    def __init__(self, space: Space, change_request: ChangeRequest, *, fresh: bool = True) -> None:
        """`fresh=False`: `change_request` was just read (`docdeck open`), not taken from a
        list that may hold an older revision, so it is not read again first."""
        super().__init__()
        self._fresh = fresh
        self.space = space
        self.change_request = change_request
        self._cr_subject = ChangeRequestSubject(change_request)

    def compose(self) -> ComposeResult:
        yield ReviewHeader(self, id="review-header")
        with Horizontal(id="review-body"):
            with Vertical(id="review-side"):
                yield Static("reading the changes…", id="review-counts", markup=False)
                yield ChangedPagesList(id="review-pages")
            with ContentSwitcher(initial="review-diff-pane", id="review-views"):
                with Vertical(id="review-diff-pane"):
                    yield Static("", id="review-page-head", markup=False)
                    yield Static("", id="review-diff-message", markup=False)
                    yield DiffView(id="review-diff")
                yield PagePreview(id="review-preview")
        # The threads panel's place: it is mounted here once the first diff is drawn.
        yield Static("", id="review-threads-slot", markup=False)
        yield BrowserFooter()
        yield ChangeRequestActions(self, self._cr_subject)
        yield PageAuthoring(self, self._cr_subject)
        yield ViewedPages(self)

    def on_mount(self) -> None:
        self.set_class(self.app.size.width < self.NARROW_BELOW, "-narrow")
        self.set_class(self.app.size.height < self.SHORT_BELOW, "-short")
        self.show_diff_message("reading the changes…")
        # The change request as the server holds it now: the list or inbox it was opened
        # from may hold an older revision (edited since, by the author or in $EDITOR).
        self.load(fresh=self._fresh)
        self.diff_view.focus()
        self.watch(self, "focused", self._focus_room)

    def on_resize(self) -> None:
        self.set_class(self.app.size.width < self.NARROW_BELOW, "-narrow")
        self.set_class(self.app.size.height < self.SHORT_BELOW, "-short")
        self._focus_room(self.focused)
        if self.diff_threads_part is not None:
            self.diff_threads_part.fit()

    def _focus_room(self, focused: Widget | None) -> None:
        """The list with the focus gets the rows (on a short terminal, the CSS above).

        Only there: each change of these classes restyles the whole pane, and the focus
        moves twice while the pane's first diff is drawn (Textual's auto focus, then the
        diff's)."""
        short = self.has_class("-short")
        threads = self.query_one_optional("#review-threads") if short else None
        in_threads = (
            threads is not None and focused is not None and threads in (focused, *focused.ancestors)
        )
        pages = self.query_one_optional(ChangedPagesList) if short else None
        self.set_class(pages is not None and focused is pages, "-pages-focused")
        self.set_class(in_threads, "-threads-focused")

    # ----- the interface other parts of the pane use ---------------------------------------

    def reload(self) -> None:
        """Read the change request, its changes and the shown diff again (after a write)."""
        self.load(fresh=True)

    def cursor_line(self) -> tuple[str, int] | None:
        """('base' or 'change', 0-based line) of the diff line under the cursor."""
        if self.view != "diff" or self.diff_view.page_id != self.current_page_id():
            return None
        return self.diff_view.cursor_line()

    def edit_page(self, page_id: str) -> None:
        """Edit a page of the change request in $EDITOR (the space screen's E opens the pane
        with this)."""
        self.authoring.edit_page(page_id)

    @property
    def cr_actions(self) -> ChangeRequestActions:
        return self.query_one(ChangeRequestActions)

    @property
    def authoring(self) -> PageAuthoring:
        return self.query_one(PageAuthoring)

    @property
    def diff_threads(self) -> DiffThreads:
        """The threads' part (mounted once the first diff is drawn: `show_threads`)."""
        part = self.diff_threads_part
        if part is None:
            raise LookupError("the review pane's threads are not mounted yet")
        return part

    @property
    def threads_panel(self) -> ThreadsPanel:
        from docdeck.tui.threads import ThreadsPanel

        return self.query_one("#review-threads", ThreadsPanel)

    def refresh_threads(self) -> None:
        """Read the threads again, the cursor staying on the comment it was on (before
        they are mounted, their first read is still to come)."""
        if self.diff_threads_part is not None:
            self.diff_threads_part.refresh_threads()

    async def page_blocks(self, page_id: str) -> BlockMap:
        """The block map of the change request's version of a page (cached per revision)."""
        return await self.diff_threads.page_blocks(page_id)

    # ----- keys ----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Asked for every key the footer shows, on every refresh: `query_one_optional` is
        # answered from Textual's cache, where `query()` walks the whole pane each time.
        if self.query_one_optional(DiffView) is None:
            return True
        diffing = self.view == "diff" and self.diff_view.diff is not None
        if action in ("next_hunk", "previous_hunk"):
            return True if diffing and self.diff_view.diff and self.diff_view.diff.hunks else None
        if action in ("next_page", "previous_page"):
            return True if self.changes is not None and len(self.changes.pages) > 1 else None
        if action == "toggle_layout":
            return True if self.view == "diff" else None
        if binds(action):  # not before the threads are mounted (`on_key` says why)
            part = self.diff_threads_part
            return None if part is None else part.check(action)
        return super().check_action(action, parameters)

    def on_key(self, event: events.Key) -> None:
        """A thread key that is not allowed says why (the footer shows it dimmed)."""
        active = self.active_bindings.get(event.key)
        if active is None or active.enabled or not binds(active.binding.action):
            return
        part = self.diff_threads_part
        if part is None:
            self.notify("The threads open once the first changed page is shown.", title="Comments")
            event.stop()
        elif part.explain(active.binding.action):
            event.stop()

    def footer_label(self, binding: Binding) -> str | None:
        if binding.action == "toggle_layout":
            return "Unified" if self.diff_view.diff_layout == "split" else "Side by side"
        if binding.action == "archive":
            return "Reopen" if self.change_request.status == "archived" else "Archive"
        if binding.action == "toggle_rendered":
            return "Diff" if self.view == "rendered" else "Rendered"
        if binding.action == "toggle_viewed":
            page = self.current_page_id()
            return "Not viewed" if page in self.pages_list.viewed else "Viewed"
        if binding.action == "toggle_diff_only":
            return "All parts" if self.diff_only else "Diff only"
        return binding.description

    def action_back(self) -> None:
        self.dismiss()

    # The change request's writes and its pages' (`ChangeRequestActions`, `PageAuthoring`).

    def action_edit_page(self) -> None:
        self.authoring.edit_shown()

    def action_add_page(self) -> None:
        self.authoring.add_page()

    def action_delete_page(self) -> None:
        self.authoring.delete_page()

    def action_revert_page(self) -> None:
        self.authoring.revert_page()

    def action_review(self) -> None:
        self.cr_actions.review()

    def action_reviewers(self) -> None:
        self.cr_actions.reviewers()

    def action_update_from_main(self) -> None:
        self.cr_actions.update_from_main()

    def action_merge(self) -> None:
        self.cr_actions.merge()

    def action_edit_subject(self) -> None:
        self.cr_actions.edit_subject()

    def action_toggle_draft(self) -> None:
        self.cr_actions.toggle_draft()

    def action_archive(self) -> None:
        self.cr_actions.archive()

    def action_pdf(self) -> None:
        self.cr_actions.pdf()

    # The thread keys, on the diff's cursor or the list's (`DiffThreads`).

    def action_thread_comment_block(self) -> None:
        self.diff_threads.comment_block()

    def action_thread_comment_scope(self) -> None:
        self.diff_threads.comment_scope()

    def action_thread_filter(self) -> None:
        self.diff_threads.filter()

    def action_thread_reply(self) -> None:
        self.diff_threads.at_cursor("thread_reply")

    def action_thread_edit(self) -> None:
        self.diff_threads.at_cursor("thread_edit")

    def action_thread_delete(self) -> None:
        self.diff_threads.at_cursor("thread_delete")

    def action_thread_react(self) -> None:
        self.diff_threads.at_cursor("thread_react")

    def action_thread_resolve(self) -> None:
        self.diff_threads.at_cursor("thread_resolve")

    def action_switch_focus(self) -> None:
        """The changed pages, the diff (or the rendered page), then any part with the
        `review-tab-stop` class (the threads list), and round again."""
        target = self.diff_view if self.view == "diff" else self.preview
        stops = [self.pages_list, target, *self.query(".review-tab-stop")]
        stops = [w for w in stops if w.display and (w.parent is None or w.parent.display)]
        here = next((i for i, w in enumerate(stops) if w is self.focused), -1)
        if here < 0:
            self.pages_list.focus()
            return
        stops[(here + 1) % len(stops)].focus()

    def action_next_hunk(self) -> None:
        if not self.diff_view.next_hunk():
            self._page_step(1, hunk="first")

    def action_previous_hunk(self) -> None:
        if not self.diff_view.previous_hunk():
            self._page_step(-1, hunk="last")

    def action_next_page(self) -> None:
        self._page_step(1)

    def action_previous_page(self) -> None:
        self._page_step(-1)

    def _page_step(self, step: int, hunk: str = "") -> None:
        changes = self.changes
        current = self.pages_list.highlighted
        if changes is None or current is None:
            return
        target = current + step
        if not 0 <= target < len(changes.pages):
            where = "last" if step > 0 else "first"
            self.notify(f"This is the {where} changed page.", title="Changed pages")
            return
        self.diff_view.land_on_hunk(hunk)
        self.pages_list.highlighted = target

    def action_toggle_layout(self) -> None:
        view = self.diff_view
        view.set_layout("unified" if view.diff_layout == "split" else "split")
        self.keys_changed()

    def action_toggle_rendered(self) -> None:
        self.switch_view("diff" if self.view == "rendered" else "rendered")
        self.keys_changed()

    @property
    def diff_only(self) -> bool:
        return self.has_class("-diff-only")

    def action_toggle_diff_only(self) -> None:
        """The diff (or rendered page) alone, as the space screen's `z` hides its tree; the
        focus moves to it from a list that is hidden."""
        self.toggle_class("-diff-only")
        if self.diff_only:
            target = self.diff_view if self.view == "diff" else self.preview
            target.focus()
        self.keys_changed()

    # ----- viewed marks, and what changed since my review (`ViewedPages`) ------------------

    @property
    def viewed_pages(self) -> ViewedPages:
        return self.query_one(ViewedPages)

    def marks_may_change(self) -> None:
        self.viewed_pages.may_change()

    def action_toggle_viewed(self) -> None:
        self.viewed_pages.toggle_shown()

    def action_refresh(self) -> None:
        """Everything the pane shows, read again: the change request, its diff, the reviews
        and the threads (a reviewer's new thread shows without leaving the pane)."""
        self.reload()
        self.refresh_threads()

    def action_copy(self) -> None:
        copy_value(self, CopyValue("Change request URL", self.change_request.urls.app))

    def action_open(self) -> None:
        open_url(self, self.change_request.urls.app, "Change request URL")

    @on(OptionList.OptionHighlighted, "#review-pages")
    def _page_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        page = self.pages_list.current
        if page is not None and page.page_id != self.asked:
            self.page_chosen(page)
        if self.diff_threads_part is not None:  # (it follows the page shown when mounted)
            self.diff_threads_part.follow_page()

    def on_threads_panel_loaded(self, message: ThreadsPanel.Loaded) -> None:
        """The panel's threads changed: the diff's inline threads follow (`@on` would need
        the panel's class when this module is imported, before the first diff)."""
        self.diff_threads.annotate_threads()

    @on(OptionList.OptionSelected, "#thread-list")
    def _thread_chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.diff_threads.thread_chosen()

    @on(ReviewHeader.ReviewsRead)
    def _reviews_read(self, event: ReviewHeader.ReviewsRead) -> None:
        event.stop()
        self.marks_may_change()

    @on(OptionList.OptionSelected, "#review-pages")
    def _page_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        target = self.diff_view if self.view == "diff" else self.preview
        if target.display:
            target.focus()

    def show_line(self, page_id: str, line: int) -> bool:
        """Put the diff's cursor on a line of the change side of a changed page (showing
        that page first if another is shown), the diff focused. False when the change
        request does not change that page (there is no diff of it to show)."""
        changes = self.changes
        if changes is None or all(page.page_id != page_id for page in changes.pages):
            return False
        if self.view != "diff":
            self.action_toggle_rendered()
        if self.diff_view.page_id == page_id and self.diff_view.diff is not None:
            self.diff_view.show_line("change", line)
        else:
            self.diff_view.land_on_line(page_id, line)
            self.pages_list.select_page(page_id)
        self.diff_view.focus()
        return True

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        report_worker_failure(self, event)
