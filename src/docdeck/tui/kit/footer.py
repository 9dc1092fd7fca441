"""The footer: the keys for the focused widget, spelled out, fitted to the terminal's width.

Textual's footer shows every active binding and groups some ("nc New"); at 80
columns that cut keys off mid-word, it advertised keys the focused widget
ignores, and in 16 colours its dimmed keys came out brighter than the rest.
This one asks the screen which keys belong to the focused widget and what
they are called for the highlighted row (`footer_label`), keeps the most
important that fit (`FOOTER_PRIORITY`; every key stays in `?` and the
palette), and draws a disallowed key without the key's highlight, so it reads
as dimmed in any colour depth.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from textual import events
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

__all__ = ["BrowserFooter", "FooterItem"]

COMPACT_BELOW = 120
"""Below this width the footer drops its padding so more keys fit."""


@dataclass(frozen=True)
class FooterItem:
    binding: Binding
    enabled: bool
    label: str
    tooltip: str


class BrowserFooter(Footer):
    DEFAULT_CSS = """
    BrowserFooter FooterKey.-disabled {
        text-style: none;
        .footer-key--key {
            background: $footer-background;
            color: $text-disabled;
            text-style: none;
        }
        .footer-key--description {
            color: $text-disabled;
        }
    }
    """

    _refit_pending = False
    _shown: tuple[object, ...] | None = None
    """What the footer shows now (keys, labels, states, width): a refit that would show the
    same keeps the widgets it has."""

    def on_resize(self, event: events.Resize) -> None:
        compact = event.size.width < COMPACT_BELOW
        if compact != self.compact:
            self.compact = compact
        if self._bindings_ready:
            self.refit()

    def bindings_changed(self, screen: Screen[object]) -> None:
        # Textual's footer recomposes after the next refresh for every change of the screen's
        # bindings: a start-up or a focus change sends a dozen, and each recompose asked the
        # screen about every key again (~0.25 s of CPU at start-up, measured).
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen:
            self.refit()

    def refit(self) -> None:
        """Show the keys as they are now, once after the next refresh however many changes
        ask for it, and only if what is shown changes."""
        if self._refit_pending:
            return
        self._refit_pending = True
        self.call_after_refresh(self._refit)

    async def _refit(self) -> None:
        self._refit_pending = False
        if not self.is_attached or self.screen not in self.app.screen_stack:
            return  # its screen is being taken down: its parts may already be gone
        shown, palette = self.fitted()
        signature = self._signature(shown, palette)
        if signature == self._shown:
            return
        await self._show_in_place(shown, palette)
        self._shown = signature

    def _palette_key(self) -> FooterKey | None:
        for child in self.children:
            if isinstance(child, FooterKey) and child.has_class("-command-palette"):
                return child
        return None

    async def _show_in_place(self, shown: list[FooterItem], palette: bool) -> None:
        """Show `shown` with the key widgets the footer has: each one takes its new key,
        label and state; only the difference in number is mounted or removed.

        A focus change changes the keys: recomposing made every key widget again, and
        each new one was styled three times over (its classes, then `compact` bound).
        That held the loop about 250 ms under load (sampled after a Tab then G: the
        key waited for it)."""
        keys = [
            child
            for child in self.children
            if isinstance(child, FooterKey) and not child.has_class("-command-palette")
        ]
        for key, item in zip(keys, shown, strict=False):
            binding = item.binding
            key_display = self.app.get_key_display(binding)
            tooltip = item.tooltip or None
            if (key.key, key.key_display, key.description, key.action, key._disabled) == (
                binding.key,
                key_display,
                item.label,
                binding.action,
                not item.enabled,
            ):
                if key.tooltip != tooltip:
                    key.tooltip = tooltip
                continue  # shows this item already: not drawn again
            key.key = binding.key
            key.key_display = key_display
            key.description = item.label
            key.action = binding.action
            key._disabled = not item.enabled
            key.set_class(not item.enabled, "-disabled")
            key.tooltip = tooltip
            key.refresh(layout=True)
        gone = keys[len(shown) :]
        palette_key = self._palette_key()
        if palette_key is not None and not palette:
            gone.append(palette_key)
            palette_key = None
        if gone:
            await self.remove_children(gone)
        more = [self._key_for(item) for item in shown[len(keys) :]]
        if more:
            await (
                self.mount_all(more, before=palette_key) if palette_key else self.mount_all(more)
            )
        if palette and palette_key is None:
            # The palette's key comes in (the first fit, or a widening): after the others,
            # as `compose` puts it; the footer used to recompose every key for it.
            await self.mount(self._palette_key_for())

    def _key_for(self, item: FooterItem) -> FooterKey:
        binding = item.binding
        key = FooterKey(
            binding.key,
            self.app.get_key_display(binding),
            item.label,
            binding.action,
            disabled=not item.enabled,
            tooltip=item.tooltip,
        )
        # Born with the footer's `compact` (a FooterKey's is True until bound): it was
        # restyled twice as it mounted, its class added then removed.
        key.set_reactive(FooterKey.compact, self.compact)
        return key.data_bind(compact=Footer.compact)

    def _signature(self, shown: list[FooterItem], palette: bool) -> tuple[object, ...]:
        return (self.compact, palette, *shown)

    def items(self, active: Mapping[str, ActiveBinding] | None = None) -> list[FooterItem]:
        """Every key the screen advertises for the focused widget, in the screen's order
        (from `active`, the screen's `active_bindings` when the caller has them)."""
        screen = self.screen
        label_of = getattr(screen, "footer_label", None)
        items: list[FooterItem] = []
        seen: set[str] = set()
        if active is None:
            active = screen.active_bindings
        for _node, binding, enabled, tooltip in active.values():
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            label = binding.description if label_of is None else label_of(binding)
            if label is not None:
                items.append(FooterItem(binding, enabled, label, tooltip or binding.tooltip))
        return items

    def _item_width(self, item: FooterItem) -> int:
        key = len(self.app.get_key_display(item.binding))
        # Compact: "k Label" and a margin; otherwise " k " then "Label ".
        return key + 1 + len(item.label) + 1 if self.compact else key + len(item.label) + 3

    def _palette_width(self, active: Mapping[str, ActiveBinding]) -> int:
        palette = active.get(self.app.COMMAND_PALETTE_BINDING)
        if palette is None or not self.app.ENABLE_COMMAND_PALETTE:
            return 0
        binding = palette.binding
        key, description = len(self.app.get_key_display(binding)), len(binding.description)
        return 1 + key + 1 + description if self.compact else 1 + key + 3 + description + 1

    def fitted(self) -> tuple[list[FooterItem], bool]:
        """The keys that fit, in order, and whether "^p palette" fits after them."""
        # Textual works `active_bindings` out anew on each read (every binding of the focus
        # chain, each screen's check_action asked): read once here, not once per use.
        active = self.screen.active_bindings
        items = self.items(active)
        width = self.size.width or self.app.size.width
        priority: tuple[str, ...] = getattr(self.screen, "FOOTER_PRIORITY", ())

        def rank(item: FooterItem) -> tuple[int, int]:
            action = item.binding.action
            order = priority.index(action) if action in priority else len(priority)
            return (0 if item.enabled else 1, order)

        kept: set[int] = set()
        used = 0
        for index, item in sorted(enumerate(items), key=lambda pair: rank(pair[1])):
            cost = self._item_width(item)
            if used + cost <= width:
                kept.add(index)
                used += cost
        shown = [item for index, item in enumerate(items) if index in kept]
        palette = self._palette_width(active)
        return shown, bool(palette) and len(shown) == len(items) and used + palette <= width

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        shown, palette = self.fitted()
        self._shown = self._signature(shown, palette)
        for item in shown:
            yield self._key_for(item)
        if palette:
            yield self._palette_key_for()

    def _palette_key_for(self) -> FooterKey:
        binding = self.screen.active_bindings[self.app.COMMAND_PALETTE_BINDING].binding
        return FooterKey(
            binding.key,
            self.app.get_key_display(binding),
            binding.description,
            binding.action,
            classes="-command-palette",
            tooltip=binding.tooltip or binding.description,
        )
