"""The command palette's view of the browser: every action with its key, before Textual's own.

Textual sorts the palette by score and gives every "discovery" entry (the list
shown before anything is typed) a score of 0, so the order depended on which
provider answered first and its system commands (theme, screenshot, ...) often
came before docdeck's. Our entries carry a higher score, in the screen's binding
order, and show the key that runs them, so the palette also teaches the keys.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

__all__ = ["BrowserCommands"]


@dataclass
class _RankedDiscoveryHit(DiscoveryHit):
    rank: float = 1.0

    @property
    def score(self) -> float:
        return self.rank


@dataclass(frozen=True)
class _Command:
    name: str
    keys: str
    help: str
    run: Callable[[], Any]

    def display(self, name: Content | None = None) -> Content:
        shown = name if name is not None else Content(self.name)
        return Content.assemble(shown, (f"  {self.keys}", "dim")) if self.keys else shown


class BrowserCommands(Provider):
    """Lists the browser screen's bindings; a forbidden one explains itself when chosen."""

    def _commands(self) -> Iterator[_Command]:
        screen: Any = self.screen
        run_or_explain = getattr(screen, "run_or_explain", None)
        availability_of = getattr(screen, "availability_of", None)
        browser_actions = getattr(screen, "BROWSER_ACTIONS", ())
        if run_or_explain is None or availability_of is None:
            return
        keys: dict[str, list[str]] = {}
        bindings: dict[str, Any] = {}
        for _key, binding in screen._bindings:
            # Textual's own commands already offer Quit; a second one only adds noise.
            if binding.action in ("back", "app.quit"):
                continue
            bindings.setdefault(binding.action, binding)
            keys.setdefault(binding.action, []).append(self.app.get_key_display(binding))
        # docdeck's own keys (with an id) before what Textual's Screen adds (tab, shift+tab).
        ordered = sorted(bindings.items(), key=lambda item: item[1].id is None)
        for action, binding in ordered:
            help_text = binding.tooltip
            if action in browser_actions:
                state = availability_of(action)
                if not state.applies:
                    continue
                if state.reason is not None:
                    help_text = f"Unavailable: {state.reason}"
            shown_keys = ", ".join(dict.fromkeys(keys[action]))
            yield _Command(
                binding.description, shown_keys, help_text, partial(run_or_explain, action)
            )

    async def discover(self) -> Hits:
        commands = list(self._commands())
        for index, command in enumerate(commands):
            # Above Textual's 0; descending, so they keep the screen's order.
            rank = 2.0 - index / (len(commands) + 1)
            yield _RankedDiscoveryHit(
                command.display(), command.run, text=command.name, help=command.help, rank=rank
            )

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for command in self._commands():
            score = matcher.match(command.name)
            if score > 0:
                # Ahead of a system command matching as well as ours.
                yield Hit(
                    score + 1.0,
                    command.display(matcher.highlight(command.name)),
                    command.run,
                    text=command.name,
                    help=command.help,
                )
