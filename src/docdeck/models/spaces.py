"""Spaces: containers of documentation content."""

from typing import Annotated, Literal

from pydantic import Field

from docdeck.models._base import (
    ContentPosition,
    Count,
    DefaultLevel,
    Emoji,
    RequestBody,
    Resource,
    Timestamp,
    Url,
)
from docdeck.models._text import VisibleTitle

ContentVisibility = Literal[
    "public", "unlisted", "share-link", "visitor-auth", "in-collection", "private"
]
SpaceEditMode = Literal["live", "locked"]
SpaceTitle = Annotated[str, Field(max_length=50), VisibleTitle]


class SpaceUrls(Resource):
    location: str
    app: str
    published: str | None = None
    public: str | None = None
    icon: str | None = None


class GitSyncState(Resource):
    repoName: str | None = None
    installationProvider: Literal["github", "gitlab", "github-legacy"] | None = None
    integration: str | None = None
    url: str | None = None
    updatedAt: Timestamp | None = None


class VisitorAuth(Resource):
    backend: Literal["custom", "integration"]
    integration: str | None = None


class SpacePermissions(Resource):
    view: bool
    access: bool
    admin: bool
    viewInviteLinks: bool
    edit: bool
    triggerGitSync: bool
    comment: bool
    merge: bool
    review: bool


class Space(Resource):
    object: Literal["space"] = "space"
    id: str
    title: str
    emoji: str
    visibility: ContentVisibility
    createdAt: Timestamp
    updatedAt: Timestamp
    deletedAt: Timestamp | None = None
    editMode: SpaceEditMode | None = None
    urls: SpaceUrls
    organization: str
    parent: str | None = None
    gitSync: GitSyncState | None = None
    visitorAuth: VisitorAuth | None = None
    revision: str
    defaultLevel: DefaultLevel
    comments: Count
    changeRequests: Count
    changeRequestsOpen: Count
    changeRequestsDraft: Count
    permissions: SpacePermissions


class TemplateRef(RequestBody):
    id: str


class SpaceCreate(RequestBody):
    title: SpaceTitle | None = None
    emoji: Emoji | None = None
    parent: str | None = None
    editMode: SpaceEditMode | None = None
    template: TemplateRef | None = None


class SpaceUpdate(RequestBody):
    """PATCH body; `emoji` or `icon` null removes it."""

    editMode: SpaceEditMode | None = None
    title: SpaceTitle | None = None
    defaultLevel: DefaultLevel = None
    emoji: Emoji | None = None
    icon: Url | None = None


class SpaceMove(RequestBody):
    """`parent` null moves to the organization's top level; at least one field is required."""

    parent: str | None = None
    position: ContentPosition | None = None
