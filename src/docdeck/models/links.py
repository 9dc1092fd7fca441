"""Where content points: link analysis, file backlinks and a revision's semantic changes.

`ContentLocation` is an absolute reference (organization, space, page or file as full
objects); like the page union it falls back to a generic model for unknown kinds.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag

from docdeck.models._base import Count, ListPage, Open, RequestBody, Resource, read_tolerantly
from docdeck.models._unions import UNKNOWN, discriminate, unknown_tag
from docdeck.models.content import ContentRef, RevisionFile, RevisionPage, RevisionPageDocument
from docdeck.models.organizations import Organization
from docdeck.models.spaces import Space

ContentReferenceStatus = Literal["ok", "broken", "in-app"]
ContentReferenceRelation = Literal["reference", "dependsOn"]


class VersionContextRevision(Resource):
    # The platform's other context, `{"type": "changeRequest", "changeRequest": {...}}`, is
    # read into this model too (its `type` kept, `changeRequest` an extra field): a model of
    # its own would change what the sandbox documents.
    _tolerant = read_tolerantly(absent={"revision": {}})

    type: Annotated[Literal["revision"], Open] = "revision"
    revision: dict[str, Any]
    """The revision object (a `Revision`), kept as data to avoid a deep recursive parse."""


class PageAnchorLocation(Resource):
    type: Literal["anchor"] = "anchor"
    anchor: str


class ContentLocationFile(Resource):
    kind: Literal["file"] = "file"
    organization: Organization
    space: Space
    file: RevisionFile
    versionContext: VersionContextRevision | None = None


class ContentLocationUrl(Resource):
    kind: Literal["url"] = "url"
    url: str


class ContentLocationPage(Resource):
    kind: Literal["page"] = "page"
    organization: Organization
    space: Space
    page: RevisionPage
    versionContext: VersionContextRevision | None = None
    internalLocation: PageAnchorLocation | dict[str, Any] | None = None


class ContentLocationSpace(Resource):
    kind: Literal["space"] = "space"
    organization: Organization
    space: Space


_LOCATION_KINDS = ("file", "url", "page", "space")


class ContentLocationUnknown(Resource):
    kind: unknown_tag(_LOCATION_KINDS)  # type: ignore[valid-type]


ContentLocation = Annotated[
    Annotated[ContentLocationFile, Tag("file")]
    | Annotated[ContentLocationUrl, Tag("url")]
    | Annotated[ContentLocationPage, Tag("page")]
    | Annotated[ContentLocationSpace, Tag("space")]
    | Annotated[ContentLocationUnknown, Tag(UNKNOWN)],
    Discriminator(discriminate("kind", _LOCATION_KINDS)),
]


class ContentReferenceUsage(Resource):
    """One link target and every place that links to it."""

    status: ContentReferenceStatus | str
    relation: ContentReferenceRelation | str
    targetReference: ContentLocation | None = None
    locationReferences: list[ContentLocation]


class BrokenStats(Resource):
    total: Count
    changeRequest: Count | None = None


class ContentReferencesStats(Resource):
    total: Count
    broken: BrokenStats


class LinkList(ListPage[ContentReferenceUsage]):
    """The link-list envelope: a list page plus `stats` over the whole (unfiltered) list."""

    stats: ContentReferencesStats


# --- Semantic changes of a revision ---------------------------------------------------------


class ChangedPage(Resource):
    id: str
    type: str
    title: str
    path: str | None = None


class ChangedFile(Resource):
    id: str
    name: str
    contentType: str
    downloadURL: str


class ChangeAttribute(Resource):
    before: Any = None
    after: Any = None


class _PageChange(Resource):
    """A change to one page: in both releases' documents `type` and `page`, then what the
    kind of change adds. Each kind narrows `type` (it keeps its place, first)."""

    type: str
    page: ChangedPage


class PageCreated(_PageChange):
    type: Literal["page_created"] = "page_created"


class PageEdited(_PageChange):
    type: Literal["page_edited"] = "page_edited"
    attributes: dict[str, ChangeAttribute]


class PageDeleted(_PageChange):
    type: Literal["page_deleted"] = "page_deleted"


class ParentChange(Resource):
    before: ChangedPage | None = None
    after: ChangedPage | None = None


class PageMoved(_PageChange):
    type: Literal["page_moved"] = "page_moved"
    parent: ParentChange


class _FileChange(Resource):
    """A change to one file: `type` and `file`, then what the kind of change adds."""

    type: str
    file: ChangedFile


class FileCreated(_FileChange):
    type: Literal["file_created"] = "file_created"


class FileEdited(_FileChange):
    type: Literal["file_edited"] = "file_edited"
    attributes: dict[str, ChangeAttribute]


class FileDeleted(_FileChange):
    type: Literal["file_deleted"] = "file_deleted"


class VariablesEdited(Resource):
    type: Literal["variables_edited"] = "variables_edited"
    variables: dict[str, ChangeAttribute]


_CHANGE_TYPES = (
    "page_created",
    "page_edited",
    "page_deleted",
    "page_moved",
    "file_created",
    "file_edited",
    "file_deleted",
    "variables_edited",
)


class SemanticChangeUnknown(Resource):
    type: unknown_tag(_CHANGE_TYPES)  # type: ignore[valid-type]


SemanticChange = Annotated[
    Annotated[PageCreated, Tag("page_created")]
    | Annotated[PageEdited, Tag("page_edited")]
    | Annotated[PageDeleted, Tag("page_deleted")]
    | Annotated[PageMoved, Tag("page_moved")]
    | Annotated[FileCreated, Tag("file_created")]
    | Annotated[FileEdited, Tag("file_edited")]
    | Annotated[FileDeleted, Tag("file_deleted")]
    | Annotated[VariablesEdited, Tag("variables_edited")]
    | Annotated[SemanticChangeUnknown, Tag(UNKNOWN)],
    Discriminator(discriminate("type", _CHANGE_TYPES)),
]


class RevisionSemanticChanges(Resource):
    changes: list[SemanticChange]
    more: Count | None = None
    mergedFrom: dict[str, Any] | None = None


# --- Import and templates -------------------------------------------------------------------

ImportContentSource = Literal[
    "website",
    "docx",
    "markdown",
    "html",
    "zip",
    "confluence",
    "github-wiki",
    "notion",
    "google-docs",
]


class ImportContent(RequestBody):
    url: Annotated[str, Field(max_length=2048)]
    source: ImportContentSource


class ImportContentResult(Resource):
    revision: str
    importedResources: Count
    totalResources: Count


class SpaceTemplateParams(RequestBody):
    contentRefs: dict[str, dict[str, Any]] | None = None


class ApplySpaceTemplate(RequestBody):
    id: str
    params: SpaceTemplateParams | None = None


__all__ = [
    "ApplySpaceTemplate",
    "BrokenStats",
    "ChangeAttribute",
    "ChangedFile",
    "ChangedPage",
    "ContentLocation",
    "ContentLocationFile",
    "ContentLocationPage",
    "ContentLocationSpace",
    "ContentLocationUnknown",
    "ContentLocationUrl",
    "ContentRef",
    "ContentReferenceRelation",
    "ContentReferenceStatus",
    "ContentReferenceUsage",
    "ContentReferencesStats",
    "FileCreated",
    "FileDeleted",
    "FileEdited",
    "ImportContent",
    "ImportContentResult",
    "ImportContentSource",
    "LinkList",
    "PageAnchorLocation",
    "PageCreated",
    "PageDeleted",
    "PageEdited",
    "PageMoved",
    "ParentChange",
    "RevisionPageDocument",
    "RevisionSemanticChanges",
    "SemanticChange",
    "SemanticChangeUnknown",
    "SpaceTemplateParams",
    "VariablesEdited",
    "VersionContextRevision",
]
