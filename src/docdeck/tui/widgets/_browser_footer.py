"""The footer, fitted to the terminal's width so no key is cut off at 80 columns."""

from __future__ import annotations

from itertools import groupby

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer

__all__ = ["BrowserFooter"]

COMPACT_BELOW = 120
"""Below this width the footer drops its padding so more keys fit."""


class BrowserFooter(Footer):
    """Compact below 120 columns; leaves out the "^p palette" key when the keys for the
    selection need its room (ctrl+p still works, and the help screen lists it)."""

    def compose(self) -> ComposeResult:
        if self._bindings_ready:
            self.set_reactive(Footer.show_command_palette, self._room_for_palette())
        yield from super().compose()

    def on_resize(self, event: events.Resize) -> None:
        self.compact = event.size.width < COMPACT_BELOW
        if self._bindings_ready and self._room_for_palette() != self.show_command_palette:
            self.call_after_refresh(self.recompose)

    def _room_for_palette(self) -> bool:
        width = self.size.width or self.app.size.width
        return self.keys_width() + self._palette_width() <= width

    def _palette_width(self) -> int:
        palette = self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        if palette is None:
            return 0
        binding = palette.binding
        key, description = len(self.app.get_key_display(binding)), len(binding.description)
        # A border on its left; when not compact, padding around the key and on its right.
        return 1 + key + 1 + description if self.compact else 1 + key + 3 + description + 1

    def keys_width(self) -> int:
        """The cells the shown keys take, laid out as Footer lays them out."""
        by_action: dict[str, Binding] = {}
        for active in self.screen.active_bindings.values():
            if active.binding.show:
                by_action.setdefault(active.binding.action, active.binding)
        compact = self.compact
        width = 0
        for group, members in groupby(by_action.values(), lambda binding: binding.group):
            bindings = list(members)
            keys = [len(self.app.get_key_display(binding)) for binding in bindings]
            if group is not None and len(bindings) > 1:
                # Bare keys side by side (padded unless the group is compact), then the label.
                width += sum(keys) + (2 if group.compact else 2 * len(keys))
                width += len(group.description) + 1
                continue
            for binding, key in zip(bindings, keys, strict=True):
                # "k Description" and a margin when compact; " k Description " otherwise.
                width += key + len(binding.description) + (2 if compact else 3)
        return width
