"""Space content: revisions, their page tree and files, and the references between them.

Pages, revisions and content references are unions discriminated by `type` or `kind`; each
union ends with a generic model (`...Unknown`) that a variant from a newer platform parses
into, so reading content never fails on a page type this version has not seen.
"""

from collections.abc import Iterator
from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag

from docdeck.models._base import (
    Count,
    Open,
    Resource,
    Timestamp,
    empty_dict,
    empty_list,
    read_tolerantly,
)
from docdeck.models._unions import UNKNOWN, discriminate, unknown_tag

# --- Content references (relative: a link's target, a cover image) -------------------------


class ContentRefFile(Resource):
    kind: Literal["file"] = "file"
    file: str


class ContentRefUrl(Resource):
    kind: Literal["url"] = "url"
    url: str


class ContentRefPage(Resource):
    kind: Literal["page"] = "page"
    page: str
    space: str | None = None


class ContentRefAnchor(Resource):
    kind: Literal["anchor"] = "anchor"
    anchor: str
    space: str | None = None
    page: str | None = None


class ContentRefSpace(Resource):
    kind: Literal["space"] = "space"
    space: str


_REF_KINDS = ("file", "url", "page", "anchor", "space")
_PAGE_TYPES = ("document", "group", "link", "computed")
_REVISION_TYPES = ("edits", "merge", "rollback", "update", "computed")


class ContentRefUnknown(Resource):
    """A reference kind this version does not know (user, collection, openapi, ...)."""

    kind: unknown_tag(_REF_KINDS)  # type: ignore[valid-type]


ContentRef = Annotated[
    Annotated[ContentRefFile, Tag("file")]
    | Annotated[ContentRefUrl, Tag("url")]
    | Annotated[ContentRefPage, Tag("page")]
    | Annotated[ContentRefAnchor, Tag("anchor")]
    | Annotated[ContentRefSpace, Tag("space")]
    | Annotated[ContentRefUnknown, Tag(UNKNOWN)],
    Discriminator(discriminate("kind", _REF_KINDS)),
]

# --- Pages ----------------------------------------------------------------------------------

PageType = Literal["document", "group", "link", "computed"]


class PageUrls(Resource):
    app: str


class PageLayout(Resource):
    """The layout options of a document page (all required by the platform)."""

    width: Literal["default", "wide"] = "default"
    cover: bool = False
    coverSize: Annotated[Literal["hero", "full"], Open] = "hero"
    title: bool = True
    description: bool = True
    tableOfContents: bool = True
    outline: bool = True
    pagination: bool = True
    metadata: bool = True


class JSONDocument(Resource):
    """The platform's JSON document: `{object: "document", data, nodes: [block...]}`.

    Blocks are kept as plain dicts: the block schema has dozens of variants that a client
    reads by `type`, and a newer platform adds more.
    """

    object: Literal["document"] = "document"
    data: dict[str, Any] = Field(default_factory=empty_dict)
    nodes: list[dict[str, Any]]


class PageFields(Resource):
    """A page's own fields, first in every model of a page: the revision's pages and the page
    a comment is on (`CommentTargetPage`)."""

    id: str
    title: str
    emoji: str | None = None
    icon: str | None = None
    createdAt: Timestamp | None = None
    updatedAt: Timestamp | None = None


class PageBase(PageFields):
    def walk(self) -> "Iterator[RevisionPage]":
        """This page's descendants, depth first (the page itself is not included)."""
        for child in getattr(self, "pages", None) or []:
            yield child
            yield from child.walk()


class RevisionPageDocument(PageBase):
    kind: Literal["sheet"] = "sheet"
    type: Literal["document"] = "document"
    urls: PageUrls
    slug: str
    path: str
    description: str | None = None
    pages: "list[RevisionPage]" = Field(default_factory=empty_list)
    layout: PageLayout = Field(default_factory=PageLayout)
    hidden: bool | None = None
    noIndex: bool | None = None
    noRobotsIndex: bool | None = None
    documentId: str | None = None
    variables: dict[str, str | int | float | bool] | None = None
    markdown: str | None = None
    """Only with `format=markdown`."""
    document: JSONDocument | None = None
    """Only with `format=document`."""


class RevisionPageGroup(PageBase):
    kind: Literal["group"] = "group"
    type: Literal["group"] = "group"
    slug: str
    path: str
    pages: "list[RevisionPage]" = Field(default_factory=empty_list)
    hidden: bool | None = None
    noIndex: bool | None = None
    noRobotsIndex: bool | None = None


class RevisionPageLink(PageBase):
    kind: Literal["link"] = "link"
    type: Literal["link"] = "link"
    target: ContentRef
    href: str | None = None
    hidden: bool | None = None


class RevisionPageComputed(PageBase):
    type: Literal["computed"] = "computed"
    computed: dict[str, Any]


class RevisionPageUnknown(PageBase):
    """A page type this version does not know; its fields are kept as extras."""

    type: unknown_tag(_PAGE_TYPES)  # type: ignore[valid-type]
    pages: "list[RevisionPage]" = Field(default_factory=empty_list)


RevisionPage = Annotated[
    Annotated[RevisionPageDocument, Tag("document")]
    | Annotated[RevisionPageGroup, Tag("group")]
    | Annotated[RevisionPageLink, Tag("link")]
    | Annotated[RevisionPageComputed, Tag("computed")]
    | Annotated[RevisionPageUnknown, Tag(UNKNOWN)],
    Discriminator(discriminate("type", _PAGE_TYPES)),
]


def walk_pages(pages: list[RevisionPage]) -> Iterator[RevisionPage]:
    """Every page of a tree, depth first, parents before their children."""
    for page in pages:
        yield page
        yield from page.walk()


def find_page(pages: list[RevisionPage], page_id: str) -> RevisionPage | None:
    return next((p for p in walk_pages(pages) if p.id == page_id), None)


class PageList(Resource):
    """`GET {S}/content/pages`: the top level of the page tree, children nested."""

    pages: list[RevisionPage]

    def walk(self) -> Iterator[RevisionPage]:
        return walk_pages(self.pages)

    def find(self, page_id: str) -> RevisionPage | None:
        return find_page(self.pages, page_id)

    def by_path(self, path: str) -> RevisionPage | None:
        return next((p for p in self.walk() if getattr(p, "path", None) == path), None)


# --- Files ----------------------------------------------------------------------------------


class FileDimensions(Resource):
    width: int | float
    height: int | float


class GitBlob(Resource):
    oid: str
    path: str


class RevisionFile(Resource):
    id: str
    name: str
    contentType: str
    downloadURL: str
    size: Count
    dimensions: FileDimensions | None = None
    git: GitBlob | None = None


# --- Revisions ------------------------------------------------------------------------------

RevisionType = Literal["edits", "merge", "rollback", "update", "computed"]


class RevisionUrls(Resource):
    app: str
    published: str | None = None
    public: str | None = None


class GitCommit(Resource):
    _tolerant = read_tolerantly(names={"createdByGitBook": "createdByService"})

    oid: str
    message: str
    createdByService: bool
    url: str | None = None
    ref: str | None = None


class ReusableContent(Resource):
    id: str
    title: str
    document: str | None = None


class RevisionBase(Resource):
    object: Literal["revision"] = "revision"
    id: str
    parents: list[str]
    pages: list[RevisionPage]
    files: list[RevisionFile]
    reusableContents: list[ReusableContent] = Field(default_factory=empty_list)
    variables: dict[str, str | int | float | bool] | None = None
    createdAt: Timestamp
    git: GitCommit | None = None
    urls: RevisionUrls

    def walk(self) -> Iterator[RevisionPage]:
        return walk_pages(self.pages)

    def find_page(self, page_id: str) -> RevisionPage | None:
        return find_page(self.pages, page_id)


class RevisionEdits(RevisionBase):
    type: Literal["edits"] = "edits"


class RevisionMerge(RevisionBase):
    type: Literal["merge"] = "merge"
    mergedFrom: dict[str, Any]
    """The merged change request (its model belongs to the change-request area)."""


class RevisionRollback(RevisionBase):
    type: Literal["rollback"] = "rollback"


class RevisionUpdate(RevisionBase):
    type: Literal["update"] = "update"


class RevisionComputed(RevisionBase):
    type: Literal["computed"] = "computed"


class RevisionUnknown(RevisionBase):
    type: unknown_tag(_REVISION_TYPES)  # type: ignore[valid-type]


Revision = Annotated[
    Annotated[RevisionEdits, Tag("edits")]
    | Annotated[RevisionMerge, Tag("merge")]
    | Annotated[RevisionRollback, Tag("rollback")]
    | Annotated[RevisionUpdate, Tag("update")]
    | Annotated[RevisionComputed, Tag("computed")]
    | Annotated[RevisionUnknown, Tag(UNKNOWN)],
    Discriminator(discriminate("type", _REVISION_TYPES)),
]
