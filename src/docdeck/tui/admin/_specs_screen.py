"""The organization's OpenAPI specs: their processing state (followed without a key press
while a run goes on), versions, visibility, published URL; create, delete, and Enter to
browse a version's paths and operations."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from docdeck.models import OpenAPISpec, OpenAPISpecVersion, Organization
from docdeck.tui.admin._base import AdminScreen, Column, Subject, with_answer
from docdeck.tui.admin.checks import check_slug, check_spec_source, is_url, read_spec_file
from docdeck.tui.admin.rules import spec_create, spec_edit
from docdeck.tui.kit.availability import Availability
from docdeck.tui.kit.bindings import binder
from docdeck.tui.kit.copy_values import CopyValue
from docdeck.tui.kit.dialogs import FormDialog, FormField
from docdeck.tui.kit.formatting import datetime_text
from docdeck.tui.kit.nav_table import NavDataTable
from docdeck.tui.kit.sharing import copy_value
from docdeck.tui.kit.workers import read

__all__ = ["ERROR_WORDS", "SpecsScreen", "state_text"]

_b = binder("specs")

ERROR_WORDS = {
    "FETCH_TIMEOUT": "the source did not answer in time",
    "FETCH_ERROR": "the source could not be fetched (an address refused, an HTTP error, "
    "or over the size limit)",
    "PARSE_ERROR": "the source is not an OpenAPI 3.x or Swagger 2.0 document in JSON or YAML",
}


def processing(spec: OpenAPISpec) -> bool:
    return spec.processingState in ("pending", "progress")


def state_text(spec: OpenAPISpec) -> Text:
    """A spec's processing state in a few words (a state a newer platform adds, as it is)."""
    if spec.processingState == "pending":
        return Text("⏳ waiting", style="yellow")
    if spec.processingState == "progress":
        return Text("⟳ processing", style="yellow")
    if spec.processingState == "complete" and spec.lastProcessErrorCode:
        return Text(f"✘ {spec.lastProcessErrorCode}", style="red")
    if spec.processingState == "complete":
        return Text("✔ processed", style="green")
    return Text(str(spec.processingState))


class SpecsScreen(AdminScreen):
    DEFAULT_CSS = """
    SpecsScreen #specs { height: 1fr; }
    SpecsScreen #spec-side { height: auto; max-height: 50%; }
    SpecsScreen #spec-detail { height: auto; padding: 0 1; }
    SpecsScreen #versions { height: auto; max-height: 8; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *AdminScreen.BINDINGS,
        _b("escape", "back", "Back", "Back to the organization tree"),
        _b("n", "new", "New spec", "Add a spec from a URL or a local JSON/YAML file"),
        _b("enter", "browse", "Browse", "Browse the version's paths and operations"),
        _b("v", "visibility", "Public/private", "Make the spec public or private"),
        _b("y", "copy", "Copy URL", "Copy the spec's published URL"),
        _b("d,delete", "delete", "Delete", "Delete the spec and its versions (asks first)"),
        _b("r", "refresh", "Refresh", "Read the specs again"),
    ]
    FOOTER_PRIORITY = ("app.help", "back", "new", "browse", "visibility", "copy", "delete")
    ACTIONS = ("new", "visibility", "copy", "delete", "browse")
    TABLE = "specs"
    COLUMNS = (
        Column("Slug", "slug", 24, narrow=16),
        Column("State", "state", 18),
        Column("Visibility", "visibility", 10),
        Column("Processed", "processed", 16),
        Column("Source", "source", wide_only=True),
    )
    heading = "OpenAPI specs"
    READING = "the OpenAPI specs"

    def __init__(self, organization: Organization) -> None:
        super().__init__(organization)
        self.specs: list[OpenAPISpec] | None = None
        self.versions: dict[str, tuple[str | None, list[OpenAPISpecVersion]]] = {}
        """Per slug: the last version it was read at, and its versions (newest first)."""

    def compose_side(self) -> ComposeResult:
        with Vertical(id="spec-side"):
            yield Static("", id="spec-detail", markup=False)
            yield NavDataTable(id="versions", cursor_type="row")

    def first_show(self) -> None:
        versions = self.query_one("#versions", NavDataTable)
        versions.add_column("Version", key="id", width=24)
        versions.add_column("Created", key="created", width=20)
        versions.display = False
        super().first_show()

    @property
    def highlighted(self) -> OpenAPISpec | None:
        return self.table.item_of(self.specs or [])

    def subject(self, spec: OpenAPISpec) -> Subject:
        return self.subjects.setdefault(spec.slug, Subject(spec.slug))

    # ----- reading ------------------------------------------------------------------------

    def load(self) -> None:
        if self.specs is None:
            self.say("reading the specs…")
        self._load()

    async def _reload(self) -> None:
        try:
            specs = await self.client.openapi_specs.list(self.organization.id, limit=100).all()
        except Exception as error:
            self.say_failure(error, "Reading the OpenAPI specs")
            return
        self.show(specs)

    def show(self, specs: list[OpenAPISpec], *, select: str | None = None) -> None:
        current = select or (self.highlighted.slug if self.highlighted else None)
        self.specs = specs
        self.fill(specs, lambda spec: spec.slug, self._cells, current)
        count = len(specs)
        running = sum(1 for spec in specs if processing(spec))
        state = (
            f"{count} spec{'s' if count != 1 else ''}" if count else "No specs yet (n adds one)."
        )
        if running:
            state += f" · {running} being processed (followed as it runs)"
        self.say(state)
        self._follow()
        self._show_detail()

    def _cells(self, spec: OpenAPISpec) -> list[Any]:
        cells: list[Any] = [
            self.busy_mark(spec.slug, spec.slug),
            state_text(spec),
            spec.visibility or "",
            datetime_text(spec.lastProcessedAt) if spec.lastProcessedAt else "",
        ]
        if len(self.table.columns) > 4:
            cells.append(spec.sourceURL or "(text)")
        return cells

    def _replace(self, spec: OpenAPISpec, *, select: bool = False) -> None:
        """Put the server's answer in the list; `select` moves the cursor to it (a new spec),
        otherwise the cursor stays where the user left it."""
        specs = with_answer(self.specs or [], spec, lambda s: s.slug, new_first=True)
        self.show(specs, select=spec.slug if select else None)

    def _created(self, spec: OpenAPISpec) -> None:
        self._replace(spec, select=True)

    def subject_changed(self) -> None:
        if self.specs is not None:
            self.show(self.specs)

    def _follow(self) -> None:
        """Read the specs being processed again every `POLL_S` until none is."""
        running = any(processing(spec) for spec in self.specs or [])
        self.follow(running, self._reread_processing, "spec processing")

    @read("poll", "Following the specs' processing")
    async def _reread_processing(self) -> None:
        for spec in [s for s in self.specs or [] if processing(s)]:
            try:
                fresh = await self.client.openapi_specs.get(self.organization.id, spec.slug)
            except Exception as error:
                self.say_failure(error, f"Reading the spec “{spec.slug}” again")
                return
            self._replace(fresh)

    # ----- the highlighted spec -----------------------------------------------------------

    def _show_detail(self) -> None:
        spec = self.highlighted
        detail = self.query_one("#spec-detail", Static)
        versions = self.query_one("#versions", NavDataTable)
        if spec is None:
            detail.update("")
            versions.display = False
            return
        text = Text()
        text.append(spec.slug, style="bold")
        text.append(f"  {spec.visibility or ''}\n")
        text.append("Source: ", style="dim")
        text.append(f"{spec.sourceURL or 'text sent from a file'}\n")
        text.append("State: ", style="dim")
        text.append_text(state_text(spec))
        if spec.lastProcessErrorCode:
            words = ERROR_WORDS.get(spec.lastProcessErrorCode, "the last run failed")
            text.append(f" — {words}", style="red")
        if spec.urls.published:
            text.append("\nPublished: ", style="dim")
            text.append(spec.urls.published)
        detail.update(text)
        cached = self.versions.get(spec.slug)
        if cached is not None and cached[0] == spec.lastVersion:
            self._show_versions(cached[1])
        elif spec.lastVersion is None:
            self._show_versions([])
        else:
            self._load_versions(spec)

    @read("versions", lambda self, spec: f"Reading the versions of “{spec.slug}”")
    async def _load_versions(self, spec: OpenAPISpec) -> None:
        try:
            found = await self.client.openapi_specs.versions.list(
                self.organization.id, spec.slug, limit=100
            ).all()
        except Exception as error:
            self.say_failure(error, f"Reading the versions of “{spec.slug}”")
            return
        self.versions[spec.slug] = (spec.lastVersion, found)
        if self.highlighted is not None and self.highlighted.slug == spec.slug:
            self._show_versions(found)

    def _show_versions(self, versions: list[OpenAPISpecVersion]) -> None:
        table = self.query_one("#versions", NavDataTable)
        table.clear()
        for index, version in enumerate(versions):
            label = f"{version.id}{'  (latest)' if index == 0 else ''}"
            table.add_row(
                label, datetime_text(version.createdAt) if version.createdAt else "", key=version.id
            )
        table.display = bool(versions)

    # ----- actions ------------------------------------------------------------------------

    def availability_of(self, action: str) -> Availability:
        spec = self.highlighted
        if action == "new":
            return spec_create(self.organization)
        if action == "visibility":
            return spec_edit(spec, "change the visibility of")
        if action == "delete":
            return spec_edit(spec, "delete")
        if action == "browse":
            if spec is None:
                return Availability(applies=False)
            if spec.lastVersion is None:
                return Availability(
                    applies=True,
                    reason=f"“{spec.slug}” has no version yet: no run has succeeded.",
                    cause="no version yet",
                )
        if action == "copy":
            if spec is None:
                return Availability(applies=False)
            if not spec.urls.published:
                return Availability(
                    applies=True,
                    reason=f"“{spec.slug}” is private: no published URL (v makes it public).",
                    cause="private",
                )
        return Availability(applies=True)

    def action_refresh(self) -> None:
        self.versions.clear()
        self.load()

    def action_new(self) -> None:
        if self.explain("new"):
            return
        subject = Subject("the new spec")

        async def create(values: dict[str, str]) -> OpenAPISpec:
            source = values["source"].strip()
            if is_url(source):
                return await self.client.openapi_specs.create(
                    self.organization.id, slug=values["slug"].strip(), url=source
                )
            text, problem = read_spec_file(source)
            if problem:
                raise ValueError(problem)
            return await self.client.openapi_specs.create(
                self.organization.id, slug=values["slug"].strip(), text=text
            )

        dialog: FormDialog[OpenAPISpec] = FormDialog(
            "New OpenAPI spec",
            [
                FormField(
                    "slug",
                    "Slug",
                    placeholder="payments-v2",
                    required=True,
                    max_length=100,
                    check=check_slug,
                ),
                FormField(
                    "source",
                    "Source: a URL, or a JSON/YAML file's path (its text is sent)",
                    placeholder="https://example.com/openapi.yaml or ./openapi.yaml",
                    required=True,
                    check=check_spec_source,
                ),
            ],
            create,
            doing="Adding the spec",
            action_label="Add",
        )
        self.open_write(dialog, subject, "create", self._created)

    def action_visibility(self) -> None:
        spec = self.highlighted
        if spec is None or self.explain("visibility"):
            return
        target: Literal["private", "public"] = (
            "private" if spec.visibility == "public" else "public"
        )
        org_id = self.organization.id

        async def request() -> OpenAPISpec:
            return await self.client.openapi_specs.update(org_id, spec.slug, visibility=target)

        doing = f"Making “{spec.slug}” {target}"
        self.start_write(self.subject(spec), "visibility", doing, request, self._replace)

    def action_copy(self) -> None:
        spec = self.highlighted
        if spec is None or self.explain("copy") or not spec.urls.published:
            return
        copy_value(self, CopyValue("Published URL", spec.urls.published))

    def action_delete(self) -> None:
        spec = self.highlighted
        if spec is None or self.explain("delete"):
            return
        org_id = self.organization.id

        async def delete() -> str:
            await self.client.openapi_specs.delete(org_id, spec.slug)
            return spec.slug

        def deleted(slug: str) -> None:
            self.versions.pop(slug, None)
            self.show([s for s in self.specs or [] if s.slug != slug])

        question = f"Delete “{spec.slug}” and every version of it? Pages that show it lose it."
        self.start_write(
            self.subject(spec),
            "delete",
            f"Deleting “{spec.slug}”",
            delete,
            deleted,
            ask=("Delete spec", question),
        )

    def action_browse(self) -> None:
        spec = self.highlighted
        if spec is None or self.explain("browse"):
            return
        version = "latest"
        versions_table = self.query_one("#versions", NavDataTable)
        cached = self.versions.get(spec.slug)
        if (
            self.focused is versions_table
            and cached
            and 0 <= versions_table.cursor_row < len(cached[1])
        ):
            version = cached[1][versions_table.cursor_row].id
        from docdeck.tui.admin._spec_content import SpecContentScreen

        self.app.push_screen(SpecContentScreen(self.organization, spec, version))

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_browse()
