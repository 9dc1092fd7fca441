"""The client object: resource groups over one shared transport."""

from __future__ import annotations

from functools import cached_property
from types import TracebackType
from typing import TYPE_CHECKING, Unpack
from urllib.parse import urlsplit

from docdeck.gateway._transport import Transport, TransportOptions
from docdeck.gateway.resources.collections import Collections
from docdeck.gateway.resources.spaces import Spaces

if TYPE_CHECKING:  # imported on first use: each builds its models' classes on import
    from docdeck.gateway.resources.change_requests import ChangeRequests
    from docdeck.gateway.resources.comments import Comments
    from docdeck.gateway.resources.content import Content
    from docdeck.gateway.resources.members import Members
    from docdeck.gateway.resources.openapi_specs import OpenAPISpecs
    from docdeck.gateway.resources.orgs import Orgs
    from docdeck.gateway.resources.saml import SAML
    from docdeck.gateway.resources.sites import Sites
    from docdeck.gateway.resources.teams import Teams
    from docdeck.gateway.resources.translations import Translations
    from docdeck.gateway.resources.users import Users

__all__ = ["Client"]


def _checked_base_url(base_url: str) -> str:
    """An absolute http(s) URL with a host and a valid port, or a ValueError saying why."""
    url = base_url.strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise ValueError(f"base URL must start with http:// or https://, got {base_url!r}")
    try:
        port = parts.port
    except ValueError:
        port = -1
    if port == -1:
        raise ValueError(f"base URL {base_url!r} has an invalid port")
    if not parts.hostname or any(ch.isspace() for ch in parts.netloc):
        raise ValueError(f"base URL {base_url!r} has no valid host name")
    if parts.query or parts.fragment:
        raise ValueError(f"base URL {base_url!r} must not have a query or fragment")
    return url


def _token_problem(token: str) -> str | None:
    """What is wrong with a (stripped) token, in words that never quote it."""
    if not token:
        return "an API token is required"
    if not (token.isascii() and token.isprintable()) or any(ch.isspace() for ch in token):
        return (
            "the API token must be printable ASCII without spaces or line breaks "
            "(was it pasted with extra characters?)"
        )
    return None


class Client:
    """An async client for the v1 API; use `async with` so the connection pool is closed."""

    def __init__(self, base_url: str, token: str, **options: Unpack[TransportOptions]) -> None:
        """`options`: how it talks to the API (`TransportOptions`: timeout, retries, httpx's
        transport, user agent, a prefetched first answer). httpx is imported when the first
        request is sent (or on `transport.warm_up()`)."""
        token = token.strip() if isinstance(token, str) else ""
        problem = _token_problem(token)
        if problem:
            # Tracebacks that show locals (Textual's, rich's) must not show it either.
            del token
            raise ValueError(problem)
        self._transport = Transport(
            _checked_base_url(base_url),
            token,
            **options,
        )

    @property
    def base_url(self) -> str:
        return self._transport.base_url

    @property
    def transport(self) -> Transport:
        return self._transport

    def __repr__(self) -> str:
        return f"Client(base_url={self.base_url!r})"

    @cached_property
    def orgs(self) -> Orgs:
        from docdeck.gateway.resources.orgs import Orgs

        return Orgs(self._transport)

    @cached_property
    def members(self) -> Members:
        from docdeck.gateway.resources.members import Members

        return Members(self._transport)

    @cached_property
    def teams(self) -> Teams:
        from docdeck.gateway.resources.teams import Teams

        return Teams(self._transport)

    @cached_property
    def collections(self) -> Collections:
        return Collections(self._transport)

    @cached_property
    def spaces(self) -> Spaces:
        return Spaces(self._transport)

    @cached_property
    def content(self) -> Content:
        from docdeck.gateway.resources.content import Content

        return Content(self._transport)

    @cached_property
    def change_requests(self) -> ChangeRequests:
        from docdeck.gateway.resources.change_requests import ChangeRequests

        return ChangeRequests(self._transport)

    @cached_property
    def users(self) -> Users:
        """The caller (`me`)."""
        from docdeck.gateway.resources.users import Users

        return Users(self._transport)

    @cached_property
    def comments(self) -> Comments:
        """Comments of a space or of a change request (`change_request=`), with replies."""
        from docdeck.gateway.resources.comments import Comments

        return Comments(self._transport)

    @cached_property
    def sites(self) -> Sites:
        from docdeck.gateway.resources.sites import Sites

        return Sites(self._transport)

    @cached_property
    def openapi_specs(self) -> OpenAPISpecs:
        """An organization's OpenAPI specs (`.versions` for their versions and content)."""
        from docdeck.gateway.resources.openapi_specs import OpenAPISpecs

        return OpenAPISpecs(self._transport)

    @cached_property
    def saml(self) -> SAML:
        """SAML providers and the SSO login entry points (`logins`)."""
        from docdeck.gateway.resources.saml import SAML

        return SAML(self._transport)

    @cached_property
    def translations(self) -> Translations:
        from docdeck.gateway.resources.translations import Translations

        return Translations(self._transport)

    async def aclose(self) -> None:
        await self._transport.aclose()

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
