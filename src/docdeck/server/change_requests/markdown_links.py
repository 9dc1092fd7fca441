"""Links in authored markdown, resolved against the change request's page tree as the
platform documents: `/pages/<id>[#anchor]`, `/pages/<slug-path>`, `/pages/<slug>.md`,
`/pages/<slug>/README.md`, batch refs `./<ref>.md` (pages) and `./<ref>` (files),
`/files/<fileId>`. They are stored the way the space's bodies store links (a page's path,
`.gitbook/assets/<name>` for a file), so link analysis, search and the document format treat
authored pages like every other. Relative paths are kept as written (they resolve against the
tree when read); a link that matches nothing is left as its text, and `data:` URIs are not
ingested (also left as text)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from docdeck.server.content.snapshots import Entry
from docdeck.server.content.tree import PageTree, normalize_path

_LINK = re.compile(r"(!?)\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(\s+\"[^\"]*\")?\s*\)")


def resolve_links(
    markdown: str,
    tree: PageTree,
    pages: Mapping[str, Entry],
    files: Mapping[str, Entry],
    page_refs: Mapping[str, str],
    file_refs: Mapping[str, str],
) -> str:
    by_path = tree.by_path_index()

    def page_href(page_id: str, anchor: str) -> str | None:
        path = tree.paths.get(page_id)
        if path is None:
            return None
        return f"/{path}.md" + (f"#{anchor}" if anchor else "")

    def file_href(file_id: str) -> str | None:
        entry = files.get(file_id)
        return None if entry is None else f"/.gitbook/assets/{entry['name']}"

    def target(href: str) -> str | None:
        """The stored href, None to leave the link as text, or href itself to keep it."""
        if href.startswith("data:"):
            return None
        path, _, anchor = href.partition("#")
        if path.startswith("/pages/"):
            rest = path[len("/pages/") :]
            if rest in pages:
                return page_href(rest, anchor)
            found = by_path.get(normalize_path(rest))
            return None if found is None else page_href(found, anchor)
        if path.startswith("/files/"):
            return file_href(path[len("/files/") :])
        if path.startswith("./") and "/" not in path[2:]:
            name = path[2:]
            if name.endswith(".md") and name[:-3] in page_refs:
                return page_href(page_refs[name[:-3]], anchor)
            if name in file_refs:
                return file_href(file_refs[name])
        return href

    def replace(match: re.Match[str]) -> str:
        bang, text, href, title = match.group(1), match.group(2), match.group(3), match.group(4)
        stored = target(href)
        if stored is None:
            return text
        if stored == href:
            return match.group(0)
        return f"{bang}[{text}]({stored}{title or ''})"

    return _LINK.sub(replace, markdown)
