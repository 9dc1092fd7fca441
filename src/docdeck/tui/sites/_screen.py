"""The site editor: one site's structure, pushed over the org tree; Escape goes back.

The screen composes the structure view and follows writes (`kit/in_flight`) through a
`WriteRunner`; reordering is local at key speed and sent as one sort per burst.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static

from docdeck.models import Organization, Site
from docdeck.tui.kit.availability import Availability, blocked_by_cause
from docdeck.tui.kit.copy_values import CopyValue
from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.explained import ExplainsKeys
from docdeck.tui.kit.footer import BrowserFooter
from docdeck.tui.kit.help import HelpRow
from docdeck.tui.kit.in_flight import Subject, Write
from docdeck.tui.kit.sharing import copy_value
from docdeck.tui.kit.workers import client_of, read
from docdeck.tui.kit.write_runner import WriteRunner
from docdeck.tui.sites._structure_view import StructureView
from docdeck.tui.sites.actions import (
    SITE_ACTIONS,
    SiteContext,
    site_availability,
    site_bindings,
)
from docdeck.tui.sites.structure_model import GROUP, SECTION, Row, SortBurst, StructureModel

__all__ = ["SiteScreen"]

SORT_AFTER_S = 0.35
"""Quiet time after the last move key before the burst is sent as one sort."""

HELP_INTRO = (
    "The site's structure: section groups › sections › site spaces (the variants a section "
    "shows), or the root site spaces of a site without sections. ctrl+j/ctrl+k (or J/K) move "
    "the highlighted row among its siblings; hold the key and one request is sent when it "
    "stops. x cuts a section or a site space and p pastes it under the highlighted row (into "
    "or out of a group, into another section). Keys shown dimmed are not allowed for you; "
    "the last line says why. Escape goes back to the tree.\n"
)


@dataclass(eq=False)
class SiteSubject:
    """The site as the subject of writes that are about no row (a new section, a group)."""

    title: str
    busy: int = 0


class SiteScreen(ExplainsKeys, Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [*site_bindings()]
    BROWSER_ACTIONS = tuple(item.action for item in SITE_ACTIONS if item.action != "back")
    EXPLAINED_ACTIONS = BROWSER_ACTIONS
    FOOTER_PRIORITY = (
        "app.help",
        "back",
        "move_down",
        "move_up",
        "cut",
        "paste",
        "edit",
        "delete",
        "new_section",
        "refresh",
    )
    AUTO_FOCUS = "StructureView"
    help_intro = HELP_INTRO
    DEFAULT_CSS = """
    SiteScreen #site-head { height: auto; max-height: 3; padding: 0 1; background: $boost; }
    SiteScreen #site-row { height: auto; max-height: 4; padding: 0 1;
        border-top: hkey $foreground 20%; }
    SiteScreen #site-why { height: auto; max-height: 3; padding: 0 1; color: $text-muted; }
    """

    def __init__(self, organization: Organization, site: Site, trail: list[str]) -> None:
        super().__init__()
        self.organization = organization
        self.site = site
        self.trail = trail
        self.site_subject = SiteSubject(site.title)
        self.loaded = False
        self.land_on: tuple[str, str] | None = None
        """(kind, id) of an item just added: the next read puts the cursor on it."""
        self._burst: SortBurst | None = None
        self._burst_timer: Timer | None = None
        self._shown_states: tuple[object, ...] = ()
        self.sorts_sent = 0
        """Sort requests sent (what the tests and the bench count)."""

    @property
    def org_id(self) -> str:
        return self.organization.id

    def compose(self) -> ComposeResult:
        yield Static(self._head(), id="site-head", markup=False)
        yield StructureView(id="site-structure")
        yield Static("", id="site-row", markup=False)
        yield Static("", id="site-why", markup=False)
        yield WriteRunner(self._subject_changed)
        yield BrowserFooter()

    @property
    def view(self) -> StructureView:
        return self.query_one(StructureView)

    @property
    def writes(self) -> Any:
        return self.query_one(WriteRunner).writes

    def on_mount(self) -> None:
        self.query_one("#site-why").display = False
        self.reload()

    def _head(self) -> Text:
        site = self.site
        text = Text(" › ".join([*self.trail, "Sites", ""]), style="dim")
        text.append(site.title, style="bold")
        state = "published" if site.published else "not published"
        text.append(f"  {site.visibility} · {state} · {site.type} · ", style="dim")
        text.append(f"{site.siteSpaces} site space{'s' if site.siteSpaces != 1 else ''}", "dim")
        return text

    # ----- reading ----------------------------------------------------------------------------

    @read("read", lambda self: f"Reading {self.site.title}")
    async def reload(self) -> None:
        await self._read()

    async def _read(self) -> None:
        client = client_of(self)
        try:
            structure = await client.sites.structure.get(self.org_id, self.site.id)
        except Exception as error:
            self._mark_stale(error)
            raise
        model = StructureModel.of(structure)
        if self._burst is not None:
            return  # a burst of moves is waiting to be sent: its answer re-reads
        self.loaded = True
        landed = model.find(*self.land_on) if self.land_on is not None else None
        self.land_on = None
        self.view.show(model, keep=landed)
        self._selection_changed()

    async def reread(self) -> None:
        await self._read()

    def _mark_stale(self, error: BaseException) -> None:
        """Say on the screen that the structure shown is not the server's (the error notice
        says why, `kit.workers`): an empty editor looked like a site with no sections."""
        problem = describe(error, "Reading the structure")
        why = f"{problem.brief.splitlines()[0]}{problem.retry_note}"
        if self.loaded:
            line = f"⚠ Not up to date: reading the structure again failed: {why}"
        else:
            line = f"⚠ The structure could not be read: {why}"
        self.query_one("#site-row", Static).update(Text(line, style="red"))

    def _subject_changed(self, subject: Subject) -> None:
        self.view.refresh()

    # ----- availability -----------------------------------------------------------------------

    @property
    def context(self) -> SiteContext:
        view = self.query_one_optional(StructureView) if self.is_mounted else None
        return SiteContext(
            organization=self.organization,
            row=view.current if view is not None else None,
            cut=view.cut if view is not None else None,
            sections=view.model.kind != "siteSpaces" if view is not None else True,
        )

    def availability_of(self, action: str) -> Availability:
        return site_availability(action, self.context)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.check_explained(action)

    async def run_or_explain(self, action: str) -> None:
        if action in self.BROWSER_ACTIONS and not self.availability_of(action).allowed:
            self.explain(action)
            return
        await self.run_action(action)

    def help_rows(self) -> list[HelpRow]:
        rows: list[HelpRow] = []
        for _key, binding in self._bindings:
            if binding.id is None:
                continue
            state = ""
            if binding.action in self.BROWSER_ACTIONS:
                available = self.availability_of(binding.action)
                if not available.applies:
                    state = "Not for the highlighted row."
                elif available.reason is not None:
                    state = available.reason
            rows.append(
                HelpRow(
                    self.app.get_key_display(binding),
                    binding.description,
                    binding.tooltip,
                    state,
                    binding.id,
                )
            )
        rows.append(HelpRow("ctrl+p", "Palette", "Search and run any action by name"))
        return rows

    @on(StructureView.Highlighted)
    def _highlighted(self) -> None:
        self._selection_changed()

    def _selection_changed(self) -> None:
        context = self.context
        states = tuple(site_availability(item.action, context) for item in SITE_ACTIONS)
        row = context.row
        self.query_one("#site-row", Static).update(self._row_detail(row))
        if states == self._shown_states:
            return
        self._shown_states = states
        self.refresh_bindings()
        blocked = blocked_by_cause(SITE_ACTIONS, states, lambda item: item.description)
        why = self.query_one("#site-why", Static)
        why.update("\n".join(f"Not allowed: {', '.join(a)}: {c}" for c, a in blocked.items()))
        why.display = bool(blocked)

    def _row_detail(self, row: Row | None) -> Text:
        if row is None:
            if not self.loaded:
                return Text("reading the structure…", style="italic")
            return Text("The site shows nothing yet: n adds a section, s a site space.")
        text = Text()
        if row.kind == GROUP:
            text.append(f"Section group “{row.title}”", style="bold")
        else:
            described = row.describe()[4:]
            text.append(described[:1].upper() + described[1:], style="bold")
            if row.space_title:
                text.append(f" · shows the space “{row.space_title}”")
            url = getattr(getattr(row.value, "urls", None), "published", None)
            if url:
                text.append(f"\n{url}", style="cyan")
        if row.condition:
            text.append(f"\nShown when {row.condition}", style="magenta")
        icon = getattr(row.value, "icon", None)  # a name, e.g. "gear"
        if isinstance(icon, str) and icon:
            text.append(f"\nIcon: {icon}", style="dim")
        description = getattr(row.value, "description", None) if row.kind == SECTION else None
        if isinstance(description, str) and description:
            text.append(f"\n{description}", style="italic")
        return text

    # ----- keys -------------------------------------------------------------------------------

    def action_back(self) -> None:
        view = self.view
        if view.cut is not None:
            view.cut = None
            view.refresh()
            self._selection_changed()
            self.notify("Nothing is cut any more.", title="Cut dropped", timeout=3)
            return
        self.flush_burst()
        self.dismiss()

    def action_refresh(self) -> None:
        self.flush_burst()
        self.reload()

    def action_copy(self) -> None:
        row = self.view.current
        if row is None:
            copy_value(self, CopyValue("Site id", self.site.id))
            return
        url = getattr(getattr(row.value, "urls", None), "published", None)
        if url:
            copy_value(self, CopyValue("Published URL", url))
        else:
            copy_value(self, CopyValue(f"{row.kind} id", row.id))

    # ----- edits (dialogs and their requests: `_edits`) ----------------------------------------

    def action_cut(self) -> None:
        from docdeck.tui.sites import _edits

        _edits.cut(self)

    def action_paste(self) -> None:
        from docdeck.tui.sites import _edits

        _edits.paste(self)

    def action_new_section(self) -> None:
        from docdeck.tui.sites import _edits

        _edits.new_section(self)

    def action_new_group(self) -> None:
        from docdeck.tui.sites import _edits

        _edits.new_group(self)

    def action_add_site_space(self) -> None:
        from docdeck.tui.sites import _edits

        _edits.add_site_space(self)

    def action_edit(self) -> None:
        from docdeck.tui.sites import _edits

        _edits.edit(self)

    def action_condition(self) -> None:
        from docdeck.tui.sites import _edits

        _edits.condition(self)

    def action_make_default(self) -> None:
        from docdeck.tui.sites import _edits

        _edits.make_default(self)

    def action_delete(self) -> None:
        from docdeck.tui.sites import _edits

        _edits.delete(self)

    def action_settings(self) -> None:
        from docdeck.tui.sites import _settings

        _settings.edit_settings(self)

    def action_publish(self) -> None:
        from docdeck.tui.sites import _settings

        _settings.publish_or_unpublish(self)

    def action_share_links(self) -> None:
        from docdeck.tui.sites import _links

        _links.share_links(self)

    def action_redirects(self) -> None:
        from docdeck.tui.sites import _links

        _links.redirects(self)

    def action_adaptive_schema(self) -> None:
        from docdeck.tui.sites import _adaptive

        _adaptive.adaptive_schema(self)

    def action_customize(self) -> None:
        from docdeck.tui.sites import _customization

        _customization.customize(self)

    def action_published(self) -> None:
        from docdeck.tui.sites import _published

        _published.published_view(self)

    def site_changed(self, site: Site) -> None:
        """The site as the server answered a write: the header follows."""
        self.site = site
        self.query_one("#site-head", Static).update(self._head())
        self._shown_states = ()
        self._selection_changed()

    async def reread_site(self) -> None:
        site = await client_of(self).sites.get(self.org_id, self.site.id)
        self.site_changed(site)

    # ----- reordering: local at key speed, one sort per burst ----------------------------------

    def action_move_down(self) -> None:
        self._move(1)

    def action_move_up(self) -> None:
        self._move(-1)

    def _move(self, delta: int) -> None:
        view = self.view
        row = view.current
        if row is None:
            return
        if self._burst is not None and self._burst.row is not row:
            self.flush_burst()
        if self._burst is None:
            self._burst = SortBurst(row, list(view.model.siblings(row)))
        if not view.model.move(row, delta):
            return
        view.cursor = view.model.index(row)
        view.put_cursor_on(row)
        view.refresh()
        if self._burst_timer is not None:
            self._burst_timer.stop()
        self._burst_timer = self.set_timer(SORT_AFTER_S, self.flush_burst, name="sort burst")

    def flush_burst(self) -> None:
        """Send the burst's one sort now (the keys stopped, another row moves, or leaving)."""
        if self._burst_timer is not None:
            self._burst_timer.stop()
            self._burst_timer = None
        burst = self._burst
        if burst is None:
            return
        model = self.view.model
        request = burst.request(model)
        if request is None:
            self._burst = None
            return
        if self.writes.running(burst.row, "sort"):
            # The previous burst of this row is still on its way: send this one after it.
            self._burst_timer = self.set_timer(SORT_AFTER_S, self.flush_burst, name="sort burst")
            return
        self._burst = None
        client = client_of(self)
        item = request["item"]

        async def send() -> Any:
            return await client.sites.structure.sort(
                self.org_id,
                self.site.id,
                item=item,
                before=request.get("before"),
                after=request.get("after"),
            )

        async def put_back() -> None:
            if burst.row in model.rows:
                model.put_back(burst.row, burst.before)
                self.view.redraw()
            await self._read()

        self.sorts_sent += 1
        self.writes.start(
            Write(burst.row, "sort", f"Moving {burst.row.describe()}", send, reread=put_back)
        )
