"""Where content points: link analysis and file backlinks; importing content and templates.

`ContentLocation` is an absolute reference (organization, space, page or file as full
objects); like the page union it falls back to a generic model for unknown kinds.
"""

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
    "ImportContent",
    "ImportContentResult",
    "ImportContentSource",
    "LinkList",
    "PageAnchorLocation",
    "RevisionPageDocument",
    "SpaceTemplateParams",
    "VersionContextRevision",
]
