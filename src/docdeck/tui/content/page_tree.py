"""A revision's page tree as the space screen uses it: by id, by path, in reading order,
and where a link written in a page leads.

Links are resolved here, in the client, the way the sandbox's link analysis reads them
(GitBook's hrefs: relative `.md` paths from the page's folder, a page with children
being its folder's `README.md`; `#anchor`; root-relative `/path`;
`.gitbook/assets/<file name>`; absolute URLs), so following a link needs no request.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal
from urllib.parse import unquote, urlsplit

if TYPE_CHECKING:  # (the page union's module: imported by the first parse of a page tree)
    from docdeck.models import RevisionFile, RevisionPage

__all__ = ["PageInfo", "SpacePages", "Target"]

ASSETS = ".gitbook/assets/"


@dataclass(eq=False)
class PageInfo:
    page: RevisionPage
    parent: PageInfo | None
    depth: int
    children: list[PageInfo] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.page.id

    @property
    def title(self) -> str:
        return self.page.title

    @property
    def type(self) -> str:
        return str(getattr(self.page, "type", "document"))

    @property
    def path(self) -> str:
        return str(getattr(self.page, "path", "") or "")

    @property
    def hidden(self) -> bool:
        return bool(getattr(self.page, "hidden", False))

    @property
    def app_url(self) -> str | None:
        urls = getattr(self.page, "urls", None)
        return getattr(urls, "app", None)

    @property
    def readable(self) -> bool:
        """Has a markdown body (a document page)."""
        return self.type == "document"


@dataclass(frozen=True)
class Target:
    """Where a link leads: a page (and anchor), a file, an outside URL, or nowhere."""

    kind: Literal["page", "file", "url", "missing"]
    page: PageInfo | None = None
    anchor: str | None = None
    file: RevisionFile | None = None
    url: str = ""


def _normalize(path: str) -> str:
    cleaned = path.strip().strip("/")
    if cleaned.endswith("/README.md") or cleaned == "README.md":
        cleaned = cleaned[: -len("README.md")].rstrip("/")
    elif cleaned.endswith(".md"):
        cleaned = cleaned[:-3]
    return cleaned


class SpacePages:
    def __init__(self, pages: list[RevisionPage], files: list[RevisionFile] | None = None) -> None:
        self.top: list[PageInfo] = []
        self.order: list[PageInfo] = []
        """Every page, depth first: the tree's reading order (`n`/`p`)."""
        self.by_id: dict[str, PageInfo] = {}
        self.by_path: dict[str, PageInfo] = {}
        self.files: list[RevisionFile] = list(files or [])

        def add(page: RevisionPage, parent: PageInfo | None, depth: int) -> PageInfo:
            info = PageInfo(page, parent, depth)
            self.order.append(info)
            self.by_id[info.id] = info
            if info.path:
                self.by_path.setdefault(info.path, info)
            for child in getattr(page, "pages", None) or []:
                info.children.append(add(child, info, depth + 1))
            return info

        for page in pages:
            self.top.append(add(page, None, 0))

    def __len__(self) -> int:
        return len(self.order)

    def first_readable(self) -> PageInfo | None:
        return next((p for p in self.order if p.readable), None)

    def step(self, page: PageInfo, delta: int) -> PageInfo | None:
        """The next (`delta=1`) or previous readable page in reading order."""
        index = self.order.index(page)
        index += delta
        while 0 <= index < len(self.order):
            if self.order[index].readable:
                return self.order[index]
            index += delta
        return None

    def ancestors(self, page: PageInfo) -> list[PageInfo]:
        chain: list[PageInfo] = []
        parent = page.parent
        while parent is not None:
            chain.append(parent)
            parent = parent.parent
        return chain[::-1]

    def file_named(self, name: str) -> RevisionFile | None:
        return next((f for f in self.files if f.name == name), None)

    def file_by_id(self, file_id: str) -> RevisionFile | None:
        return next((f for f in self.files if f.id == file_id), None)

    def resolve(self, page: PageInfo, href: str) -> Target:
        href = href.strip()
        parts = urlsplit(href)
        if parts.scheme or href.startswith("//") or href.startswith("/app/"):
            return Target("url", url=href)
        path, anchor = unquote(parts.path), unquote(parts.fragment) or None
        if not path:
            return Target("page", page=page, anchor=anchor)
        if ASSETS in path:
            file = self.file_named(path.rsplit("/", 1)[-1])
            return Target("file", file=file) if file else Target("missing", url=href)
        if path.startswith("/"):
            joined = path
        else:
            folder = page.path if page.children else posixpath.dirname(page.path)
            joined = posixpath.join(folder, path)
        target = self.by_path.get(_normalize(posixpath.normpath("/" + joined)))
        if target is None:
            return Target("missing", url=href)
        return Target("page", page=target, anchor=anchor)
