"""The published view: the structure a visitor sees (`GET {ST}/published`), with or without a
share key; `o` opens the served page of the highlighted row (over SSH: copies its URL)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from rich.text import Text

from docdeck.gateway import NotFoundError
from docdeck.models import ShareLink
from docdeck.tui.kit.chooser import Chooser
from docdeck.tui.kit.copy_values import CopyValue
from docdeck.tui.kit.sharing import copy_value, open_url
from docdeck.tui.kit.workers import client_of, read
from docdeck.tui.sites._links import SECRET
from docdeck.tui.sites.structure_model import GROUP, SECTION, StructureModel, published_path

if TYPE_CHECKING:
    from docdeck.tui.sites._screen import SiteScreen

__all__ = ["published_view", "share_key_of"]

_KEY = "key"
_NO_KEY = "no-key"


def share_key_of(link: ShareLink) -> str | None:
    url = link.urls.published
    if not url:
        return None
    keys = parse_qs(urlsplit(url).query).get("shareKey")
    return keys[0] if keys else None


@read("published", "Reading the published site", opens_a_screen=True)
async def published_view(screen: SiteScreen, link: ShareLink | None = None) -> None:
    client = client_of(screen)
    org, site = screen.org_id, screen.site.id
    key = share_key_of(link) if link is not None else None

    try:
        published = await client.sites.published(org, site, shareKey=key)
    except NotFoundError:
        screen.notify(
            f"{screen.site.title} is not published: visitors see nothing (P publishes it).",
            title="Published view",
            severity="warning",
        )
        return
    model = StructureModel.of(published.structure)
    root = published.site.urls.published or ""
    items: list[tuple[Text | str, Any]] = [
        (f"⚿ As a visitor with a share link… (now: {link.name if link else 'none'})", _KEY)
    ]
    if link is not None:
        items.append(("  As a visitor without a share key", _NO_KEY))
    items.append((Text.assemble(("/", "bold"), "  the site's home", (f"  {root}", "dim")), root))
    for row in model.rows:
        url = getattr(getattr(row.value, "urls", None), "published", None) or root
        label = Text("  " * row.depth)
        if row.kind == GROUP:
            label.append(f"▾ {row.title}", style="bold")
            items.append((label, url))
            continue
        label.append(("§ " if row.kind == SECTION else "· ") + row.title)
        label.append(f"  {published_path(row)}", style="cyan")
        if row.default:
            label.append("  default", style="green")
        if row.condition:
            label.append(f"  when {row.condition}", style="magenta")
        items.append((label, url))
    who = f"with the share link “{link.name}”" if link is not None else "without a share key"
    secret = SECRET if key else ""

    def chosen(value: Any) -> None:
        if value == _KEY:
            _pick_link(screen)
        elif value == _NO_KEY:
            published_view(screen)
        elif isinstance(value, str) and value:
            open_url(screen, value, "Published URL")

    screen.app.push_screen(
        Chooser(
            f"Published: {published.site.title}, as a visitor {who}",
            items,
            hint="o/enter: open the served page · y: copy its URL · esc: close",
            on_open=lambda value: (
                open_url(screen, value, "Published URL") if value.startswith("http") else None
            ),
            on_copy=lambda value: (
                copy_value(screen, CopyValue("Published URL", value), why=secret)
                if value.startswith("http")
                else None
            ),
        ),
        chosen,
    )


@read("links", "Reading the share links", opens_a_screen=True)
async def _pick_link(screen: SiteScreen) -> None:
    client = client_of(screen)

    links = [
        link
        async for link in client.sites.share_links.list(screen.org_id, screen.site.id)
        if link.active and share_key_of(link)
    ]
    if not links:
        screen.notify("The site has no active share link (L makes one).", title="Share links")
        return

    def chosen(link: ShareLink | None) -> None:
        published_view(screen, link)

    screen.app.push_screen(
        Chooser("View as a visitor with the share link", [(ln.name or ln.id, ln) for ln in links]),
        chosen,
    )
