"""The space's link analysis as rows: one per link (a page linking to a target), with the
words the links view shows and a way to find the link in its page's markdown.

The API groups links by target (`locationReferences` are the pages linking there) and
does not return a link's text; the text and line come from the page's markdown,
matched by the href as written (broken links) or by where the href resolves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from docdeck.tui.content.page_text import PageLink, links
from docdeck.tui.content.page_tree import SpacePages

if TYPE_CHECKING:
    from docdeck.models import ContentReferenceUsage

__all__ = ["LinkRow", "find_link", "link_rows"]


@dataclass(frozen=True)
class LinkRow:
    status: str
    source_id: str
    source_title: str
    target: str
    """The target in words: a page's title (#anchor), a file's name, a URL or the href."""
    target_page: str | None = None
    target_anchor: str | None = None
    target_file: str | None = None
    target_url: str | None = None


def _target(usage: ContentReferenceUsage) -> tuple[str, dict[str, str | None]]:
    # Imported here: the reader shows a space's first page without the link models (their
    # module is imported by then if there is a usage to look at).
    from docdeck.models import ContentLocationFile, ContentLocationPage, ContentLocationUrl

    ref = usage.targetReference
    if isinstance(ref, ContentLocationPage):
        anchor = None
        internal = ref.internalLocation
        if internal is not None:
            anchor = getattr(internal, "anchor", None)
            if anchor is None and isinstance(internal, dict):
                anchor = internal.get("anchor")
        words = ref.page.title + (f"#{anchor}" if anchor else "")
        return words, {"target_page": ref.page.id, "target_anchor": anchor}
    if isinstance(ref, ContentLocationFile):
        return f"file {ref.file.name}", {"target_file": ref.file.id}
    if isinstance(ref, ContentLocationUrl):
        return ref.url, {"target_url": ref.url}
    return "(unknown target)", {}


def link_rows(usages: list[ContentReferenceUsage]) -> list[LinkRow]:
    from docdeck.models import ContentLocationPage

    rows: list[LinkRow] = []
    for usage in usages:
        words, target = _target(usage)
        for location in usage.locationReferences:
            if not isinstance(location, ContentLocationPage):
                continue
            rows.append(
                LinkRow(
                    str(usage.status),
                    location.page.id,
                    location.page.title,
                    words,
                    **target,
                )
            )
    return rows


def find_link(row: LinkRow, markdown: str, pages: SpacePages) -> PageLink | None:
    """The link of `row` in its page's markdown (the first that leads to the same target)."""
    source = pages.by_id.get(row.source_id)
    for link in links(markdown):
        if row.target_url is not None:
            if link.href.strip() == row.target_url:
                return link
            continue
        if source is None:
            continue
        target = pages.resolve(source, link.href)
        page, file = target.page, target.file
        if page is not None and (page.id, target.anchor) == (row.target_page, row.target_anchor):
            return link
        if file is not None and file.id == row.target_file:
            return link
    return None
