"""Users as embedded in members, comments and change requests."""

from typing import Literal

from docdeck.models._base import Resource


class UserUrls(Resource):
    location: str


class User(Resource):
    object: Literal["user"] = "user"
    id: str
    displayName: str
    email: str | None = None
    photoURL: str | None = None
    urls: UserUrls
