"""Collections: groups of spaces, nested."""

from typing import Annotated, Literal

from pydantic import Field

from docdeck.models._base import ContentPosition, DefaultLevel, RequestBody, Resource
from docdeck.models._text import VisibleTitle

CollectionTitle = Annotated[str, Field(max_length=50), VisibleTitle]
CollectionDescription = Annotated[str, Field(max_length=100)]


class CollectionUrls(Resource):
    location: str
    app: str


class CollectionPermissions(Resource):
    view: bool
    admin: bool
    viewInviteLinks: bool
    create: bool


class Collection(Resource):
    object: Literal["collection"] = "collection"
    id: str
    title: str
    description: str | None = None
    organization: str
    parent: str | None = None
    defaultLevel: DefaultLevel
    urls: CollectionUrls
    permissions: CollectionPermissions


class CollectionCreate(RequestBody):
    title: CollectionTitle | None = None
    parent: str | None = None


class CollectionUpdate(RequestBody):
    title: CollectionTitle | None = None
    description: CollectionDescription | None = None
    defaultLevel: DefaultLevel = None


class CollectionMove(RequestBody):
    """`parent` null moves to the organization's top level; at least one field is required."""

    parent: str | None = None
    position: ContentPosition | None = None


class Transfer(RequestBody):
    organization: str
