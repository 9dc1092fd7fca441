"""Users: `client.users.me()` for the caller (the platform's `GET /user`)."""

from __future__ import annotations

from docdeck.gateway._resource import Resource, endpoint, endpoint_path
from docdeck.models import User

__all__ = ["Users"]


class Users(Resource):
    @endpoint("GET", "/v1/user")
    async def me(self) -> User:
        """Who the token belongs to."""
        return await self._transport.call("GET", endpoint_path(self.me), User)
