"""Requests the sandbox makes to other servers (website imports, OpenAPI spec fetches) and
other slow work a request waits for (PDF rendering), kept off the threads every write needs.

`fetch(url, deadline=..., max_bytes=..., allow_loopback=...)` GETs a URL in the outbound
pool: a few threads of its own, so slow remotes can fill that pool but never the threads
every other request runs on. The deadline holds for the whole fetch, whatever the remote
does (a body sent one byte a second included): when it passes, or when the awaiting task is
cancelled (the client went away), the socket is shut down and the thread is free at once.

Every hop (the URL given and each redirect) is resolved once and refused before connecting
if any address it resolves to is not global (see `refusal`); the connection is made to the
address that was checked, so a DNS answer cannot change between the check and the
connection. Loopback is allowed only when the caller says so (tests fetch from a local
server, `--allow-loopback-import`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import http.client
import ipaddress
import socket
import ssl
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urljoin, urlsplit

METADATA_HOSTS = {"metadata.google.internal", "metadata", "instance-data"}
MAX_REDIRECTS = 5
POOL_THREADS = 8
"""Outbound work at once; more waits its turn (within its own deadline)."""
CONNECT_TIMEOUT = 5.0
"""Seconds to connect, and at most between two reads."""

T = TypeVar("T")


class FetchError(Exception):
    """Why a URL could not be fetched, in words for the API's error message."""


@dataclass(frozen=True)
class Fetched:
    url: str  # after redirects
    content_type: str
    body: bytes


_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def pool() -> ThreadPoolExecutor:
    """The outbound pool (made on first use, one per process)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(POOL_THREADS, thread_name_prefix="docdeck-outbound")
        return _pool


async def run(function: Callable[..., T], *args: Any) -> T:
    """`function(*args)` in the outbound pool (slow work that is not a fetch: a PDF, turning
    fetched HTML into markdown). Cancelling the caller drops it if it has not started."""
    future = pool().submit(function, *args)
    try:
        return await asyncio.wrap_future(future)
    finally:
        future.cancel()


@contextlib.contextmanager
def _submitted(
    url: str,
    deadline: float,
    max_bytes: int,
    allow_loopback: bool,
    timeout: float,
    what: str,
) -> Iterator[concurrent.futures.Future[Fetched]]:
    """The fetch of `url` submitted to the pool (after the address and deadline checks;
    `what` names it when the deadline has already passed), stopped on the way out unless it
    finished; a wait that timed out inside becomes the FetchError saying so."""
    check_url(url)
    if deadline <= 0:
        raise FetchError(f"the {what} took too long and was stopped")
    guard = _Abort()
    future = pool().submit(_fetch, url, deadline, max_bytes, allow_loopback, timeout, guard)
    try:
        yield future
    except (TimeoutError, concurrent.futures.TimeoutError):
        raise FetchError(
            f"{url} took longer than {round(deadline, 1):g} s and was stopped"
        ) from None
    finally:
        if not future.done():
            future.cancel()
            guard.abort()


async def fetch(
    url: str,
    *,
    deadline: float,
    max_bytes: int,
    allow_loopback: bool = False,
    timeout: float = CONNECT_TIMEOUT,
) -> Fetched:
    """GET `url` (following checked redirects) in the outbound pool, within `deadline`
    seconds in all, waiting for a thread included; at most `max_bytes` of body. Raises
    FetchError; cancelling the caller stops the fetch."""
    with _submitted(url, deadline, max_bytes, allow_loopback, timeout, "import") as future:
        return await asyncio.wait_for(asyncio.wrap_future(future), deadline)


def fetch_blocking(
    url: str,
    *,
    deadline: float,
    max_bytes: int,
    allow_loopback: bool = False,
    timeout: float = CONNECT_TIMEOUT,
) -> Fetched:
    """`fetch` for a caller that is already a background thread (a spec's processing run):
    the same pool, address rules and deadline, waited for without an event loop."""
    with _submitted(url, deadline, max_bytes, allow_loopback, timeout, "fetch") as future:
        return future.result(timeout=deadline)


async def until_disconnect(receive: Callable[[], Awaitable[Any]], work: Awaitable[T]) -> T:
    """`work`, cancelled if the client disconnects first (`receive` is the request's ASGI
    receive, its body already read: its next message is `http.disconnect`). Then raises
    FetchError: nobody is left to read the answer, and nothing is written."""
    task = asyncio.ensure_future(work)

    async def gone() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    watcher = asyncio.ensure_future(gone())
    try:
        await asyncio.wait({task, watcher}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if not task.done():
            task.cancel()
        watcher.cancel()
    if not task.done() or task.cancelled():
        raise FetchError("the client went away; the fetch was stopped")
    return task.result()


class _Abort:
    """Lets the awaiting side stop a fetch blocked in a socket call in the pool."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sock: socket.socket | None = None
        self.aborted = False

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            self._sock = sock
            if self.aborted:
                _shut(sock)

    def abort(self) -> None:
        with self._lock:
            self.aborted = True
            if self._sock is not None:
                _shut(self._sock)


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):  # already closed
        sock.shutdown(socket.SHUT_RDWR)


NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))


def _embedded(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> list[Any]:
    """`ip` and the IPv4 addresses it carries (IPv4-mapped, 6to4, Teredo, NAT64): a
    connection to one of these forms may end at the address inside."""
    found: list[Any] = [ip]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            found.append(ip.ipv4_mapped)
        if ip.sixtofour is not None:
            found.append(ip.sixtofour)
        if ip.teredo is not None:
            found.extend(ip.teredo)
        if any(ip in network for network in NAT64):
            found.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    return found


def refusal(address: str, allow_loopback: bool) -> str | None:
    """Why an outbound request may not reach `address`, or None. Only addresses `ipaddress`
    calls global are reached (so no private, carrier-grade NAT 100.64.0.0/10 where a cloud
    metadata service lives, link-local, reserved, documentation or multicast address), in
    whatever form the address comes; loopback only when allowed."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return "not an IP address"
    forms = _embedded(ip)
    if allow_loopback and all(f.is_loopback for f in forms[1:] or forms):
        return None
    for form in reversed(forms):  # the address a connection would end at first
        if form.is_loopback:
            return "a loopback address"
        if form.is_link_local:
            return "a link-local address (where cloud metadata services live)"
        if form.is_multicast:
            return "a multicast address"
        if not form.is_global:
            return "not a public address"
    return None


def resolve(host: str, port: int, allow_loopback: bool) -> str:
    """One checked address of `host` (every address it resolves to must be allowed)."""
    if host.lower().rstrip(".") in METADATA_HOSTS:
        raise FetchError(f"{host} is a cloud metadata host; imports may not reach it")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise FetchError(f"cannot resolve {host}: {error}") from None
    addresses = [str(info[4][0]) for info in infos]
    for address in addresses:
        problem = refusal(address, allow_loopback)
        if problem is not None:
            raise FetchError(f"{host} resolves to {address}, {problem}; imports may not reach it")
    if not addresses:
        raise FetchError(f"cannot resolve {host}")
    return addresses[0]


def check_url(url: str) -> tuple[str, str, int]:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise FetchError(f"only http and https URLs can be imported, not {url!r}")
    if not parts.hostname:
        raise FetchError(f"{url!r} has no host")
    if parts.username or parts.password:
        raise FetchError("URLs with a user name or password cannot be imported")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise FetchError(f"{url!r} has an invalid port") from None
    return parts.scheme, parts.hostname, port


class _PinnedHTTP(http.client.HTTPConnection):
    """Connects to the address that was checked, and lets the fetch be aborted."""

    def __init__(self, host: str, address: str, port: int, timeout: float, guard: _Abort):
        super().__init__(host, port, timeout=timeout)
        self._address = address
        self._guard = guard

    def _open(self) -> socket.socket:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self._guard.watch(sock)
        return sock

    def connect(self) -> None:
        self.sock = self._open()


class _PinnedHTTPS(_PinnedHTTP):
    def connect(self) -> None:
        context = ssl.create_default_context()
        self.sock = context.wrap_socket(self._open(), server_hostname=self.host)


def _fetch(
    url: str,
    deadline: float,
    max_bytes: int,
    allow_loopback: bool,
    timeout: float,
    guard: _Abort,
) -> Fetched:
    ends_at = time.monotonic() + deadline
    for _ in range(MAX_REDIRECTS + 1):
        scheme, host, port = check_url(url)
        address = resolve(host, port, allow_loopback)
        if guard.aborted:
            raise FetchError("the fetch was stopped")
        kind = _PinnedHTTPS if scheme == "https" else _PinnedHTTP
        connection = kind(host, address, port, _left(ends_at, timeout), guard)
        parts = urlsplit(url)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        try:
            connection.request("GET", target, headers={"User-Agent": "docdeck-sandbox-import"})
            response = connection.getresponse()
            if response.status in (301, 302, 303, 307, 308):
                location = response.getheader("Location")
                if not location:
                    raise FetchError(f"{url} redirects without a Location")
                url = urljoin(url, location)
                continue
            if response.status != 200:
                raise FetchError(f"{url} answered {response.status} {response.reason}")
            body = _read(connection, response, ends_at, timeout, max_bytes, url)
            content_type = response.getheader("Content-Type", "") or ""
            return Fetched(url, content_type.split(";")[0].strip().lower(), body)
        except (OSError, http.client.HTTPException) as error:
            if guard.aborted:
                raise FetchError("the fetch was stopped") from None
            if isinstance(error, TimeoutError | socket.timeout):
                if time.monotonic() >= ends_at:
                    raise FetchError(
                        f"{url} took longer than {round(deadline, 1):g} s and was stopped"
                    ) from None
                raise FetchError(f"{url} did not answer within {timeout:g} s") from None
            raise FetchError(f"cannot fetch {url}: {error}") from None
        finally:
            connection.close()
    raise FetchError(f"{url}: more than {MAX_REDIRECTS} redirects")


def _left(ends_at: float, timeout: float) -> float:
    left = ends_at - time.monotonic()
    if left <= 0:
        raise FetchError("the import took too long and was stopped")
    return min(timeout, left)


def _read(
    connection: http.client.HTTPConnection,
    response: http.client.HTTPResponse,
    ends_at: float,
    timeout: float,
    limit: int,
    url: str,
) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        if connection.sock is not None:  # each read waits at most until the deadline
            connection.sock.settimeout(_left(ends_at, timeout))
        chunk = response.read1(65536)
        if not chunk:
            break
        size += len(chunk)
        if size > limit:
            raise FetchError(f"{url} is larger than the import allows ({limit} bytes)")
        chunks.append(chunk)
    return b"".join(chunks)
