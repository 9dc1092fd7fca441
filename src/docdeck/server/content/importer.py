"""Import from a website: the page at a URL and the same-site pages it links to, as markdown
pages in one new revision.

HTML becomes markdown with markdownify (MIT), after BeautifulSoup (MIT) has picked the main
content (`<main>`, `<article>` or `<body>`) and dropped scripts, styles and navigation.
Pages are fetched breadth first, bounded in number, bytes and time (`ImportPolicy`: the
deadline holds for the whole crawl), in the outbound pool (`docdeck.server.outbound`), so a
slow website holds none of the threads other requests need; cancelling the crawl (the
client went away) stops its fetch at once. If the
URL given cannot be fetched the import fails with that reason and nothing is written; a
linked page that fails is skipped and counted (`importedResources` < `totalResources`).
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urldefrag, urljoin, urlsplit

from docdeck.server import outbound
from docdeck.server.content.edits import Draft
from docdeck.server.content.fetch import FetchError, ImportPolicy, check_url
from docdeck.server.errors import bad_request
from docdeck.server.wire import respond

if TYPE_CHECKING:
    from fastapi import Request, Response

    from docdeck.models import ImportContent
    from docdeck.server.http.context import Ctx

HTML_TYPES = ("text/html", "application/xhtml+xml")


@dataclass(frozen=True)
class ImportedPage:
    url: str
    title: str
    markdown: str


@dataclass(frozen=True)
class ImportResult:
    pages: list[ImportedPage]
    total: int


def _site(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme, parts.netloc.lower()


def _convert(url: str, html: str) -> tuple[str, str, list[str]]:
    """(title, markdown, same-document links) of an HTML page."""
    from bs4 import BeautifulSoup
    from markdownify import markdownify

    soup = BeautifulSoup(html, "html.parser")
    for tag in soup(["script", "style", "nav", "header", "footer", "noscript", "iframe"]):
        tag.decompose()
    heading = soup.find("h1")
    title = (soup.title.get_text(strip=True) if soup.title else "") or (
        heading.get_text(strip=True) if heading else ""
    )
    main = soup.find("main") or soup.find("article") or soup.body or soup
    links = [str(a.get("href")) for a in main.find_all("a") if a.get("href")]
    markdown = markdownify(str(main), heading_style="ATX", bullets="-").strip() + "\n"
    while "\n\n\n" in markdown:
        markdown = markdown.replace("\n\n\n", "\n\n")
    fallback = urlsplit(url).path.rstrip("/").rsplit("/", 1)[-1] or urlsplit(url).netloc
    return (title or fallback)[:200], markdown, links


async def crawl(start: str, policy: ImportPolicy) -> ImportResult:
    check_url(start)
    ends_at = time.monotonic() + policy.deadline
    budget = policy.max_total_bytes
    site = _site(start)
    queue: deque[str] = deque([urldefrag(start)[0]])
    seen = {queue[0]}
    pages: list[ImportedPage] = []
    total = 0
    while queue and total < policy.max_pages:
        url = queue.popleft()
        total += 1
        try:
            left = ends_at - time.monotonic()
            if left <= 0:
                raise FetchError("the import took too long and was stopped")
            fetched = await outbound.fetch(
                url,
                deadline=left,
                max_bytes=min(policy.max_page_bytes, budget),
                allow_loopback=policy.allow_loopback,
                timeout=policy.timeout,
            )
            if fetched.content_type not in HTML_TYPES:
                raise FetchError(f"{url} is {fetched.content_type or 'not HTML'}, not a web page")
        except FetchError:
            if not pages:
                raise  # the URL given itself: the import fails, nothing is written
            continue
        budget -= len(fetched.body)
        text = fetched.body.decode("utf-8", "replace")
        title, markdown, links = await outbound.run(_convert, fetched.url, text)
        pages.append(ImportedPage(fetched.url, title, markdown))
        for href in links:
            target = urldefrag(urljoin(fetched.url, href))[0]
            if _site(target) == site and target not in seen:
                seen.add(target)
                queue.append(target)
    return ImportResult(pages, total)


async def crawl_requested(request: Request, body: ImportContent) -> ImportResult:
    """What an import request names, crawled with the app's `ImportPolicy` (the crawl stops
    when the client goes away); a 400 for a source other than a website or a URL that
    cannot be fetched."""
    if body.source != "website":
        raise bad_request(f"source: the sandbox imports only from a website, not {body.source!r}")
    policy: ImportPolicy = request.app.state.import_policy
    try:
        return await outbound.until_disconnect(request.receive, crawl(body.url, policy))
    except FetchError as error:
        raise bad_request(f"url: {error}") from None


def imported(ctx: Ctx, space_id: str, revision: str, result: ImportResult) -> Response:
    """The 201 of an import: the new revision, where it is, and how many pages it holds."""
    location = ctx.url(f"/v1/spaces/{space_id}/revisions/{revision}")
    counts = {"importedResources": len(result.pages), "totalResources": result.total}
    return respond({"revision": revision, **counts}, status=201, headers={"Location": location})


def write_pages(draft: Draft, result: ImportResult) -> None:
    """The first page at the top level, the pages it led to as its children, in crawl order."""
    first = draft.add_page(result.pages[0].title, markdown=result.pages[0].markdown)
    for page in result.pages[1:]:
        draft.add_page(page.title, parent=first, markdown=page.markdown)
