"""The command palette's view of the screen in front: every action with its key, before
Textual's own.

The entries are the actions the footer and `?` help read (`kit/actions.py`): what the
screen and its focused widget declare, on every screen, dialogs included. Textual sorts
the palette by score and gives every "discovery" entry (the list shown before anything is
typed) a score of 0, so the order depended on which provider answered first and its system
commands (theme, screenshot, ...) often came before docdeck's. Our entries carry a higher
score, in the screen's order, and show the key that runs them, so the palette also teaches
the keys. An action that is not allowed says why, in the palette and when chosen.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.screen import ModalScreen

from docdeck.tui.kit.actions import screen_actions
from docdeck.tui.kit.workers import start

__all__ = ["GoToCommands", "OneCommand", "ScreenCommands"]

_NOT_LISTED = frozenset({"back", "app.quit", "quit"})
"""Textual's own commands already offer Quit; Back (escape) is no command to search for."""


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


class ScreenCommands(Provider):
    """Lists the actions of the screen the palette was opened on."""

    def _commands(self) -> Iterator[_Command]:
        for action in screen_actions(self.screen):
            binding = action.binding
            if binding.action in _NOT_LISTED:
                continue
            help_text = binding.tooltip or binding.description
            if not action.enabled:
                help_text = f"Unavailable: {action.reason or 'not here, now'}"
            yield _Command(binding.description, action.keys, help_text, action.run_or_explain)

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


class OneCommand(Provider):
    """A provider of one command offered on every screen but dialogs: `NAME`, `HELP`, and
    `run()` when chosen."""

    NAME = ""
    HELP = ""

    async def discover(self) -> Hits:
        if not isinstance(self.screen, ModalScreen):
            yield _RankedDiscoveryHit(self.NAME, self._go, text=self.NAME, help=self.HELP)

    async def search(self, query: str) -> Hits:
        if isinstance(self.screen, ModalScreen):
            return
        matcher = self.matcher(query)
        score = matcher.match(self.NAME)
        if score > 0:
            yield Hit(score + 1.0, matcher.highlight(self.NAME), self._go, help=self.HELP)

    def _go(self) -> None:
        raise NotImplementedError


class GoToCommands(OneCommand):
    """ "Go to site…": any site of the user's organizations, chosen from a filtered list,
    opens in the site editor (a navigation message, so kit imports no job)."""

    NAME = "Go to site…"
    HELP = "Open the editor of any site of your organizations"

    def _go(self) -> None:
        app = self.app
        start(
            app, partial(_choose_site, app), name="Reading the sites", group="go-to", exclusive=True
        )


async def _choose_site(app: Any) -> None:
    import asyncio

    from rich.text import Text

    from docdeck.tui.kit.chooser import Chooser
    from docdeck.tui.kit.navigation import OpenSite
    from docdeck.tui.kit.workers import client_of

    client = client_of(app)
    orgs = await client.orgs.list(limit=100).all()  # every page: a consultant's many

    async def sites_of(org: Any) -> list[Any]:
        return [site async for site in client.sites.list(org.id)]

    found = await asyncio.gather(*(sites_of(org) for org in orgs))
    items: list[tuple[Text | str, Any]] = [
        (
            Text.assemble(site.title, (f"  {org.title} · {site.visibility}", "dim")),
            (org, site),
        )
        for org, sites in zip(orgs, found, strict=True)
        for site in sites
    ]
    if not items:
        app.notify("None of your organizations has a site.", title="Go to site")
        return

    def chosen(value: Any) -> None:
        if value is not None:
            org, site = value
            app.post_message(OpenSite(org, site, [org.title]))

    app.push_screen(Chooser("Go to site", items), chosen)
