"""Fetching web pages for an import without becoming a proxy into private networks.

Every hop (the URL given and each redirect) is resolved once; if any address it resolves to
is private, link-local (cloud metadata lives there), loopback, multicast, reserved or
unspecified, the fetch is refused, and the connection is made to the address that was
checked, so a DNS answer cannot change between the check and the connection. Loopback is
allowed only when the server was started to allow it (tests import from a local server).
Sizes and times are bounded: per response, for the whole import, and per connection.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import time
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

METADATA_HOSTS = {"metadata.google.internal", "metadata", "instance-data"}
MAX_REDIRECTS = 5


class FetchError(Exception):
    """Why a URL could not be fetched, in words for the API's error message."""


@dataclass(frozen=True)
class ImportPolicy:
    allow_loopback: bool = False
    max_pages: int = 50
    max_page_bytes: int = 2_000_000
    max_total_bytes: int = 10_000_000
    timeout: float = 5.0
    """Seconds per connection and read."""
    deadline: float = 30.0
    """Seconds for the whole import."""


@dataclass(frozen=True)
class Fetched:
    url: str  # after redirects
    content_type: str
    body: bytes


def _refusal(address: str, allow_loopback: bool) -> str | None:
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return None if allow_loopback else "a loopback address"
    if ip.is_link_local:
        return "a link-local address (where cloud metadata services live)"
    if ip.is_private:
        return "a private network address"
    if ip.is_multicast or ip.is_reserved or ip.is_unspecified:
        return "a reserved address"
    return None


def resolve(host: str, port: int, policy: ImportPolicy) -> str:
    """One checked address of `host` (every address it resolves to must be allowed)."""
    if host.lower().rstrip(".") in METADATA_HOSTS:
        raise FetchError(f"{host} is a cloud metadata host; imports may not reach it")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise FetchError(f"cannot resolve {host}: {error}") from None
    addresses = [str(info[4][0]) for info in infos]
    for address in addresses:
        problem = _refusal(address, policy.allow_loopback)
        if problem is not None:
            raise FetchError(f"{host} resolves to {address}, {problem}; imports may not reach it")
    if not addresses:
        raise FetchError(f"cannot resolve {host}")
    return addresses[0]


class _PinnedHTTPS(http.client.HTTPSConnection):
    def __init__(self, host: str, address: str, port: int, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._address = address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        assert self._context is not None  # type: ignore[attr-defined]
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


class _PinnedHTTP(http.client.HTTPConnection):
    def __init__(self, host: str, address: str, port: int, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


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


def fetch(url: str, policy: ImportPolicy, budget: list[int], ends_at: float) -> Fetched:
    """GET `url`, following up to MAX_REDIRECTS checked redirects. `budget` is the bytes
    left for the import (decremented); `ends_at` the monotonic deadline."""
    for _ in range(MAX_REDIRECTS + 1):
        scheme, host, port = check_url(url)
        address = resolve(host, port, policy)
        left = ends_at - time.monotonic()
        if left <= 0:
            raise FetchError("the import took too long and was stopped")
        timeout = min(policy.timeout, left)
        kind = _PinnedHTTPS if scheme == "https" else _PinnedHTTP
        connection = kind(host, address, port, timeout)
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
            body = _read(response, policy, budget, ends_at, url)
            content_type = response.getheader("Content-Type", "") or ""
            return Fetched(url, content_type.split(";")[0].strip().lower(), body)
        except (OSError, http.client.HTTPException) as error:
            if isinstance(error, TimeoutError | socket.timeout):
                raise FetchError(f"{url} did not answer within {timeout:g} s") from None
            raise FetchError(f"cannot fetch {url}: {error}") from None
        finally:
            connection.close()
    raise FetchError(f"{url}: more than {MAX_REDIRECTS} redirects")


def _read(
    response: http.client.HTTPResponse,
    policy: ImportPolicy,
    budget: list[int],
    ends_at: float,
    url: str,
) -> bytes:
    limit = min(policy.max_page_bytes, budget[0])
    chunks: list[bytes] = []
    size = 0
    while True:
        if time.monotonic() > ends_at:
            raise FetchError("the import took too long and was stopped")
        chunk = response.read(65536)
        if not chunk:
            break
        size += len(chunk)
        if size > limit:
            raise FetchError(f"{url} is larger than the import allows ({limit} bytes)")
        chunks.append(chunk)
    budget[0] -= size
    return b"".join(chunks)
