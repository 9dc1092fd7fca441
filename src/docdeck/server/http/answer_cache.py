"""Answers to repeated reads, kept until the database changes.

A client that shows the API (the TUI's trees, a dashboard, a script polling a list) asks the
same GET again and again, and between two asks nothing has usually changed. The fast lane
(`fast_lane`) keeps the encoded 200 answer of a fast route's GET, keyed by the request's path,
query string and `Authorization` value exactly as sent, and answers the same request again
from it - no binding, no authentication, no query but the stamp's, no JSON - for as long as
the answer is provably still what the route would answer:

- **The database has not changed.** The stamp of an answer is read from the connection the
  route reads with, before the route runs: SQLite's `PRAGMA data_version` (it changes when any
  other connection, in this process or another, commits) and that connection's own
  `total_changes` (its own writes). A different stamp on the next request empties the whole
  cache. A write that commits while an answer is being made leaves it under the older stamp,
  so it is never served after that write.
- **The answer did not read the clock.** An answer made while the handlers' clock
  (`Ctx.now`, counted by `CountedClock`) was read - a file link's expiry, the deleted spaces
  still in their restore window - may change with time alone; it is not kept.
- **It is a plain JSON 200** (`wire.JsonBody`, the answer of `respond`), at most
  `MAX_BODY` bytes, and every answer kept is counted against `MAX_BYTES` and `MAX_ENTRIES`
  (the oldest goes first). Errors are never kept: they are made afresh, by the full stack.
- **Everything else the answer depends on is in the key or fixed for the process**: the
  caller (by the exact header value; a token that no longer exists is a database change), the
  path and query (the page cursor included), the configured public URL.

HEAD is answered from the same entry, without the body. `create_app(answer_cache=False)`
turns the cache off (the benches measure both; the request-path tests trace the statements of
the uncached path).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import datetime
from typing import Any

from starlette.types import Send

__all__ = ["MAX_BODY", "MAX_BYTES", "MAX_ENTRIES", "AnswerCache", "CountedClock", "Stamp"]

MAX_BODY = 1 << 20
"""The largest body kept (1 MiB: a 1,000-row members page is about 0.3 MiB)."""

MAX_BYTES = 32 << 20
"""All kept bodies together (32 MiB)."""

MAX_ENTRIES = 2_000
"""Answers kept at once."""

Key = tuple[str, bytes, bytes]
"""The request's path, query string and `Authorization` header value, as sent."""

Stamp = tuple[int, int, int]
"""Which connection, its `data_version`, its `total_changes`."""

Headers = list[tuple[bytes, bytes]]


class CountedClock:
    """The clock the handlers read (`Ctx.now`), counting its reads: an answer made while the
    count moved may depend on the time, and `AnswerCache` keeps none of those. (A read by a
    write in another thread at the same moment only makes the cache keep less.)"""

    __slots__ = ("clock", "reads")

    def __init__(self, clock: Callable[[], datetime]) -> None:
        self.clock = clock
        self.reads = 0

    def __call__(self) -> datetime:
        self.reads += 1
        return self.clock()


class AnswerCache:
    """Encoded answers to GETs, valid for one database stamp (module docstring)."""

    def __init__(self, connection: Callable[[], sqlite3.Connection], clock: CountedClock) -> None:
        self._connection = connection
        self._clock = clock
        self._stamp: Stamp | None = None
        self._entries: dict[Key, tuple[Headers, bytes]] = {}
        self._bytes = 0

    def stamp(self) -> Stamp:
        """The database's stamp as the route's connection (this thread's) sees it now."""
        conn = self._connection()
        version: int = conn.execute("PRAGMA data_version").fetchone()[0]
        return (id(conn), version, conn.total_changes)

    def lookup(self, key: Key) -> tuple[Stamp, tuple[Headers, bytes] | None]:
        """The current stamp, and the answer kept for `key` under it (None: make it)."""
        stamp = self.stamp()
        if stamp != self._stamp:
            self.clear()
            self._stamp = stamp
            return stamp, None
        return stamp, self._entries.get(key)

    def clock_reads(self) -> int:
        return self._clock.reads

    def keep(self, key: Key, stamp: Stamp, clock_reads: int, response: Any) -> None:
        """Keep `response` (made after `lookup` gave `stamp` and the clock count was
        `clock_reads`) if it may be served again (module docstring)."""
        from docdeck.server.wire import JsonBody

        if (
            type(response) is not JsonBody
            or response.status_code != 200
            or response.background is not None
            or stamp != self._stamp
            or clock_reads != self._clock.reads
        ):
            return
        body = response.body
        if not isinstance(body, bytes) or len(body) > MAX_BODY:
            return
        old = self._entries.pop(key, None)
        if old is not None:
            self._bytes -= len(old[1])
        while self._entries and (
            len(self._entries) >= MAX_ENTRIES or self._bytes + len(body) > MAX_BYTES
        ):
            oldest = next(iter(self._entries))
            self._bytes -= len(self._entries.pop(oldest)[1])
        self._entries[key] = (list(response.raw_headers), body)
        self._bytes += len(body)

    def clear(self) -> None:
        self._entries.clear()
        self._bytes = 0

    def __len__(self) -> int:
        return len(self._entries)

    @staticmethod
    async def replay(answer: tuple[Headers, bytes], send: Send) -> None:
        headers, body = answer
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})
