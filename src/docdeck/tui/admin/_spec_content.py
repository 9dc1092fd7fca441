"""A spec version's content browsed as its paths and, under each, its operations; the
highlighted operation's parameters, body and responses beside the tree."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Static, Tree

from docdeck.models import OpenAPISpec, OpenAPISpecContent, Organization
from docdeck.tui.admin._base import AdminScreen
from docdeck.tui.admin.spec_outline import Operation, Outline, PathItem, operation_lines, outline
from docdeck.tui.kit.bindings import binder
from docdeck.tui.kit.copy_values import CopyValue
from docdeck.tui.kit.list_keys import LIST_BINDINGS, ListKeys
from docdeck.tui.kit.sharing import copy_value
from docdeck.tui.kit.workers import read

__all__ = ["OperationTree", "SpecContentScreen"]

_b = binder("spec_content")

_METHOD_STYLE = {
    "GET": "green",
    "POST": "yellow",
    "PUT": "blue",
    "PATCH": "cyan",
    "DELETE": "red",
}


class OperationTree(ListKeys, Tree[PathItem | Operation]):
    """Paths, each with its operations; the shared list keys move through them."""

    BINDINGS: ClassVar[list[BindingType]] = LIST_BINDINGS

    def show(self, found: Outline) -> None:
        self.clear()
        for item in found.paths:
            node = self.root.add(Text(item.path, style="bold"), data=item, expand=True)
            for operation in item.operations:
                label = Text.assemble(
                    (f"{operation.method:<7}", _METHOD_STYLE.get(operation.method, "")),
                    operation.summary or operation.operation_id,
                    style="strike" if operation.deprecated else "",
                )
                node.add_leaf(label, data=operation)
        if found.paths:
            self.call_after_refresh(self.list_go, 0)


class SpecContentScreen(AdminScreen):
    DEFAULT_CSS = """
    SpecContentScreen #content-body { height: 1fr; }
    SpecContentScreen OperationTree { width: 1fr; }
    SpecContentScreen #operation-scroll { width: 1fr; padding: 0 1; }
    SpecContentScreen.-narrow #content-body { layout: vertical; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *AdminScreen.BINDINGS,
        _b("escape", "back", "Back", "Back to the specs"),
        _b("y", "copy", "Copy URL", "Copy the URL this version's text came from"),
        _b("r", "refresh", "Refresh", "Read the version's content again"),
    ]
    FOOTER_PRIORITY = ("app.help", "back", "copy", "refresh")
    heading = "OpenAPI spec"

    def __init__(self, organization: Organization, spec: OpenAPISpec, version: str) -> None:
        super().__init__(organization)
        self.spec = spec
        self.version = version
        self.content: OpenAPISpecContent | None = None
        self.outline: Outline | None = None
        self.heading = f"OpenAPI spec “{spec.slug}” @ {version}"

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="content-body"):
            yield OperationTree("paths", id="operations")
            with VerticalScroll(id="operation-scroll"):
                yield Static("", id="operation", markup=False)

    def first_show(self) -> None:
        if self.app.size.width < 110:
            self.add_class("-narrow")
        tree = self.query_one(OperationTree)
        tree.show_root = False
        tree.focus()
        self.load()

    def load(self) -> None:
        self.say("reading the version's content…")
        self._load()

    @read("read", lambda self: f"Reading the content of “{self.spec.slug}”")
    async def _load(self) -> None:
        try:
            content = await self.client.openapi_specs.versions.content(
                self.organization.id, self.spec.slug, self.version
            )
        except Exception as error:
            self.say_failure(error, f"Reading the content of “{self.spec.slug}”")
            return
        self.content = content
        self.outline = found = outline(content.filesystem)
        what = " ".join(part for part in (found.title, found.version) if part)
        self.say(
            f"{what or '(untitled)'} · {found.kind or 'not an OpenAPI document'} · "
            f"{len(found.paths)} paths, {found.operation_count} operations"
            + (f" · {', '.join(found.servers)}" if found.servers else "")
        )
        self.query_one(OperationTree).show(found)
        self._show(None)

    @on(Tree.NodeHighlighted)
    def _highlighted(self, event: Tree.NodeHighlighted[PathItem | Operation]) -> None:
        event.stop()
        self._show(event.node.data)

    def _show(self, data: PathItem | Operation | None) -> None:
        text = Text()
        if isinstance(data, Operation):
            for label, value in operation_lines(data):
                if label:
                    text.append(f"{label}: ", style="dim")
                    text.append(f"{value}\n")
                else:
                    text.append(f"{value}\n", style="bold")
        elif isinstance(data, PathItem):
            text.append(f"{data.path}\n", style="bold")
            for operation in data.operations:
                text.append(f"{operation.method:<7}", style=_METHOD_STYLE.get(operation.method, ""))
                text.append(f"{operation.summary or operation.operation_id}\n")
        elif self.outline is not None and not self.outline.paths:
            text.append("This version has no paths.", style="dim")
        self.query_one("#operation", Static).update(text)

    def action_copy(self) -> None:
        if self.content is not None:
            copy_value(self, CopyValue("Version URL", self.content.url))

    def action_refresh(self) -> None:
        self.load()
