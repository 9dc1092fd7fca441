"""Textual's header, whose title updates survive the header being taken down."""

from __future__ import annotations

from contextlib import suppress

from textual.css.query import NoMatches
from textual.dom import DOMNode, NoScreen
from textual.events import Mount
from textual.widgets import Header as TextualHeader
from textual.widgets._header import HeaderTitle

__all__ = ["Header"]


class Header(TextualHeader):
    """Textual's `Header`, but a title change that finds no title widget is let go.

    Textual's header watches the titles from its mount; the watcher's first call is queued,
    and it can run after the header's children were removed (a screen replaced at once, as
    `docdeck open`'s first screen is when the target is quick to come). Textual's watcher
    then raises `NoMatches`, which ends the app."""

    def _on_mount(self, event: Mount) -> None:
        event.prevent_default()  # Textual's own would add the same watchers without the guard

        async def set_title() -> None:
            with suppress(NoScreen, NoMatches):
                self.query_one(HeaderTitle).update(self.format_title())

        watched: tuple[DOMNode, ...] = (self.app, self.screen)
        for node in watched:
            self.watch(node, "title", set_title)
            self.watch(node, "sub_title", set_title)
