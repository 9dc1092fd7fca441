"""Lists: await for one page, `async for` for every item, iter_pages() for pages.

A list read page by page repeats an item when it shifts between two reads (an item added
before the cursor of a list paged by offset, as the hosted platform may page): the items of
the pages after the first leave out an `id` already read (`repeats_dropped`), so a list of
every item holds each once, and a table keyed by id can show it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Generator, Iterable
from typing import Any, Generic, TypedDict, TypeVar

from pydantic import TypeAdapter

from docdeck.gateway._transport import Transport
from docdeck.models import ListPage

__all__ = ["AsyncPaginator", "Paging", "paginate", "repeats_dropped"]

T = TypeVar("T")


class Paging(TypedDict, total=False):
    """Where a list starts and how long its pages are, the same two query parameters on every
    list the API has; a list method takes them as `**paging: Unpack[Paging]`, each left out
    of the request when not given (or None)."""

    page: str | None
    """The cursor a page's `next.page` gave; the first page without it."""
    limit: int | None
    """Items per page (the API's default 50, at most 100 per the platform's document)."""


class AsyncPaginator(Generic[T]):
    """A lazy list request: nothing is sent until it is awaited or iterated."""

    def __init__(
        self,
        transport: Transport,
        path: str,
        item: type[T],
        params: dict[str, Any] | None = None,
    ) -> None:
        self._transport = transport
        self._path = path
        self._adapter: TypeAdapter[ListPage[T]] = TypeAdapter(ListPage[item])  # type: ignore[valid-type]
        self._params = dict(params or {})

    @property
    def path(self) -> str:
        return self._path

    async def get_page(self, page: str | None = None) -> ListPage[T]:
        params = dict(self._params)
        if page is not None:
            params["page"] = page
        return await self._transport.call("GET", self._path, self._adapter, params=params)

    def __await__(self) -> Generator[Any, None, ListPage[T]]:
        return self.get_page(self._params.get("page")).__await__()

    async def iter_pages(self) -> AsyncIterator[ListPage[T]]:
        cursor: str | None = self._params.get("page")
        # A server whose `next` points back at a page already read would loop forever.
        seen: set[str] = {cursor} if cursor else set()
        while True:
            current = await self.get_page(cursor)
            yield current
            if current.next is None or current.next.page in seen:
                return
            seen.add(current.next.page)
            cursor = current.next.page

    async def _items(self) -> AsyncIterator[T]:
        seen: set[str] = set()
        async for current in self.iter_pages():
            for item in repeats_dropped(current.items, seen):
                yield item

    def __aiter__(self) -> AsyncIterator[T]:
        return self._items()

    async def all(self) -> list[T]:
        """Every item of every page, in order."""
        return [item async for item in self]


async def paginate(paginator: AsyncPaginator[T]) -> AsyncIterator[T]:
    """Follow `next.page` through every page and yield each item."""
    async for item in paginator:
        yield item


def repeats_dropped(items: Iterable[T], seen: set[str]) -> list[T]:
    """`items` but those whose `id` is in `seen` or came earlier in `items`; `seen` gains
    the ids kept. An item without a string `id` is always kept."""
    kept: list[T] = []
    for item in items:
        key = getattr(item, "id", None)
        if isinstance(key, str):
            if key in seen:
                continue
            seen.add(key)
        kept.append(item)
    return kept
