"""A container that shows one view at a time and swaps it safely at any key speed.

Every pane whose content follows a selection (the detail pane now, the space
screen's tabs and the review pane later) puts its views in a `ViewSlot`.

Why not `remove_children()` then `mount()`: neither is finished when it
returns. With the cursor held down, a view could be removed while it was still
mounting, so its `on_mount` ran after its children were gone (`NoMatches` on
a `Select`'s overlay or a table). Here every swap awaits the removal of the old
view, then awaits the new view's mount (compose and `on_mount` included),
before the next swap starts; swaps asked for meanwhile are coalesced to the
last one, so holding a key mounts only the view the cursor stops on.
"""

from __future__ import annotations

from textual.containers import Vertical
from textual.widget import Widget

from docdeck.tui.kit.focus import focus_now
from docdeck.tui.kit.workers import leaving

__all__ = ["ViewSlot"]


class ViewSlot(Vertical):
    """Holds at most one view; `swap` replaces it, one swap at a time, the latest one winning."""

    DEFAULT_CSS = """
    ViewSlot { height: 1fr; }
    """

    def __init__(self, view: Widget | None = None, *, id: str | None = None) -> None:
        super().__init__(*([view] if view is not None else []), id=id)
        self._view = view
        self._mounted_view: Widget | None = view
        self._pending = False
        self._swapping = False
        self._focus_next: Widget | None = None

    @property
    def view(self) -> Widget | None:
        """The view last asked for. It may still be waiting to be mounted: a widget that is
        not mounted yet renders its data in its own `on_mount`, so callers may update it."""
        return self._view

    @property
    def settled(self) -> bool:
        """True when the view asked for is the one on screen (no swap waiting or running)."""
        return not self._swapping and not self._pending

    def swap(self, view: Widget | None) -> None:
        """Show `view` instead of the current one (None: show nothing)."""
        self._view = view
        self._pending = True
        self._start()

    def focus_when_shown(self, view: Widget) -> None:
        """Focus `view` as soon as it is mounted (at once if it is); forgotten if another view
        replaces it first. `focus()` on a view still being swapped in did nothing: it had no
        screen yet when Textual's scheduled call ran."""
        if view is self._mounted_view and view.is_mounted and not self._pending:
            self._focus_next = None
            focus_now(view)
        else:
            self._focus_next = view

    def on_mount(self) -> None:
        self._start(mounting=True)  # a swap asked for before the slot was on screen

    def _start(self, *, mounting: bool = False) -> None:
        if not self._swapping and self._pending and (mounting or self.is_mounted):
            self._swapping = True
            self.call_later(self._apply)

    @property
    def _alive(self) -> bool:
        """Still on screen: not removed, and its screen not closing (the app quitting)."""
        return not leaving(self)

    async def _apply(self) -> None:
        try:
            while self._pending and self._alive:
                self._pending = False
                wanted = self._view
                if wanted is self._mounted_view and wanted is not None and wanted.parent is self:
                    continue
                await self.remove_children()
                self._mounted_view = None
                if self._pending:
                    continue  # superseded while the old view was leaving: skip this one
                if not self._alive:
                    # The slot left the screen while the old view was leaving (its screen
                    # closed, the app quit): mounting now raised MountError.
                    return
                if wanted is not None:
                    await self.mount(wanted)
                    self._mounted_view = wanted
                    if self._focus_next is wanted and not self._pending:
                        self._focus_next = None
                        focus_now(wanted)
        finally:
            self._swapping = False
