"""A site's structure: site spaces, sections, section groups, and the unions that hold them.

`SiteStructure` and `SiteStructureItem` are unions the platform may extend (a newer release
adds external links); a variant this version does not know parses into a generic model that
keeps every field, instead of failing the whole answer.
"""

from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag

from docdeck.models._base import RequestBody, Resource
from docdeck.models.spaces import Space

SiteSectionTitle = Annotated[str, Field(min_length=2, max_length=128)]
SiteSectionDescription = Annotated[str, Field(max_length=256)]
SitePath = Annotated[str, Field(min_length=1, max_length=100)]
Condition = Annotated[str, Field(min_length=1, max_length=1024)]
Icon = Annotated[str, Field(max_length=50)]
SiteSectionGroupTitle = Annotated[str, Field(min_length=1, max_length=100)]
SiteStructureItemType = Literal["site-space", "site-section", "site-section-group"]


class PublishedUrls(Resource):
    published: str | None = None


class SiteSpace(Resource):
    object: Literal["site-space"] = "site-space"
    id: str
    path: str
    section: str | None = None
    space: Space
    title: str
    default: bool | None = None
    condition: str | None = None
    hasAdvancedCustomizationFeature: bool | None = None
    urls: PublishedUrls


class SiteSection(Resource):
    object: Literal["site-section"] = "site-section"
    id: str
    title: str
    description: str | None = None
    default: bool | None = None
    path: str
    condition: str | None = None
    sectionGroup: str | None = None
    siteSpaces: list[SiteSpace]
    urls: PublishedUrls
    icon: str | None = None


class SiteSectionGroup(Resource):
    object: Literal["site-section-group"] = "site-section-group"
    id: str
    title: str
    sections: list[SiteSection]
    icon: str | None = None


_KNOWN_ITEMS = ["site-space", "site-section", "site-section-group"]


class UnknownStructureItem(Resource):
    """A structure item of a kind this version does not know; all its fields are kept. (Its
    JSON schema excludes the known kinds, so a documented `oneOf` matches exactly one.)"""

    object: Annotated[str, Field(json_schema_extra={"not": {"enum": _KNOWN_ITEMS}})]
    id: str | None = None


def _item_kind(value: Any) -> str:
    kind = value.get("object") if isinstance(value, dict) else getattr(value, "object", None)
    return kind if kind in ("site-space", "site-section", "site-section-group") else "unknown"


SiteStructureItem = Annotated[
    Annotated[SiteSpace, Tag("site-space")]
    | Annotated[SiteSection, Tag("site-section")]
    | Annotated[SiteSectionGroup, Tag("site-section-group")]
    | Annotated[UnknownStructureItem, Tag("unknown")],
    Discriminator(_item_kind),
]
"""What the structure sort answers: the item that moved (chosen by its `object`)."""


class SiteStructureSections(Resource):
    type: Literal["sections"] = "sections"
    structure: list[SiteStructureItem]
    """Sections and section groups, in order."""


class SiteStructureSiteSpaces(Resource):
    type: Literal["siteSpaces"] = "siteSpaces"
    structure: list[SiteSpace]


class UnknownSiteStructure(Resource):
    """A structure of a kind this version does not know."""

    type: Annotated[str, Field(json_schema_extra={"not": {"enum": ["sections", "siteSpaces"]}})]
    structure: list[dict[str, Any]] = []


def _structure_kind(value: Any) -> str:
    kind = value.get("type") if isinstance(value, dict) else getattr(value, "type", None)
    return kind if kind in ("sections", "siteSpaces") else "unknown"


SiteStructure = Annotated[
    Annotated[SiteStructureSections, Tag("sections")]
    | Annotated[SiteStructureSiteSpaces, Tag("siteSpaces")]
    | Annotated[UnknownSiteStructure, Tag("unknown")],
    Discriminator(_structure_kind),
]
"""A site's tree: sections (and groups) when it has sections, else its root site spaces."""


class SiteSpaceCreate(RequestBody):
    spaceId: str
    sectionId: str | None = None


class SiteSpaceUpdate(RequestBody):
    """`condition` null removes it; fields left out are unchanged."""

    path: SitePath | None = None
    condition: Condition | None = None
    spaceId: str | None = None


class SiteSpacePointer(RequestBody):
    type: Literal["site-space"]
    siteSpace: str


class SiteSpaceMovePosition(RequestBody):
    before: SiteSpacePointer | None = None
    after: SiteSpacePointer | None = None


class SiteSpaceMove(RequestBody):
    position: SiteSpaceMovePosition | None = None


class SiteSectionCreate(RequestBody):
    spaceId: str
    title: SiteSectionTitle | None = None
    icon: Icon | None = None


class SiteSectionUpdate(RequestBody):
    """`condition`, `icon`, `description` null remove them; fields left out are unchanged."""

    title: SiteSectionTitle | None = None
    path: SitePath | None = None
    defaultSiteSpace: str | None = None
    condition: Condition | None = None
    icon: Icon | None = None
    description: SiteSectionDescription | None = None


class SiteSectionPointer(RequestBody):
    type: Literal["site-section"]
    siteSection: str


class SiteSectionMovePosition(RequestBody):
    before: SiteSectionPointer | None = None
    after: SiteSectionPointer | None = None


class SiteSectionMove(RequestBody):
    position: SiteSectionMovePosition | None = None


class SiteSectionGroupCreate(RequestBody):
    title: SiteSectionGroupTitle
    icon: Icon | None = None
    sections: list[str] | None = None


class SiteSectionGroupUpdate(RequestBody):
    title: SiteSectionGroupTitle | None = None
    icon: Icon | None = None


class SiteSectionGroupAddSection(RequestBody):
    sectionId: str


class SiteSectionGroupPointer(RequestBody):
    type: Literal["site-section", "site-section-group"]
    id: str


class SiteSectionGroupMovePosition(RequestBody):
    before: SiteSectionGroupPointer | None = None
    after: SiteSectionGroupPointer | None = None


class SiteSectionGroupMove(RequestBody):
    position: SiteSectionGroupMovePosition | None = None


class SiteStructureItemPointer(RequestBody):
    type: SiteStructureItemType
    id: str


class SiteStructureItemMovePosition(RequestBody):
    """No pointer moves the item to the end of its level."""

    before: SiteStructureItemPointer | None = None
    after: SiteStructureItemPointer | None = None


class SiteStructureSort(RequestBody):
    item: SiteStructureItemPointer
    position: SiteStructureItemMovePosition
