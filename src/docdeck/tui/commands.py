"""The command palette's view of the browser: every action, with why it is unavailable if it is."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider

__all__ = ["BrowserCommands"]


class BrowserCommands(Provider):
    """Lists the browser screen's bindings; a forbidden one explains itself when chosen."""

    def _commands(self) -> Iterator[tuple[str, str, Callable[[], Any]]]:
        screen: Any = self.screen
        run_or_explain = getattr(screen, "run_or_explain", None)
        availability_of = getattr(screen, "availability_of", None)
        browser_actions = getattr(screen, "BROWSER_ACTIONS", ())
        if run_or_explain is None or availability_of is None:
            return
        seen: set[str] = set()
        for _key, binding in screen._bindings:
            action = binding.action
            # Textual's own commands already offer Quit; a second one only adds noise.
            if action in seen or action in ("back", "app.quit"):
                continue
            seen.add(action)
            help_text = binding.tooltip
            if action in browser_actions:
                state = availability_of(action)
                if not state.applies:
                    continue
                if state.reason is not None:
                    help_text = f"Unavailable: {state.reason}"
            yield binding.description, help_text, partial(run_or_explain, action)

    async def discover(self) -> Hits:
        for name, help_text, callback in self._commands():
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, callback in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, text=name, help=help_text)
