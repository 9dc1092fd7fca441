"""A revision's semantic changes: what `GET .../changes` says a revision (or a change request)
changed, page by page and file by file.

Its own module, not links': opening a change request needs these and none of the link
analysis' models (which bring the organization's with them), and each model class costs
its creation on the way to the first diff.
"""

from typing import Annotated, Any, Literal

from pydantic import Discriminator, Tag

from docdeck.models._base import Count, Resource
from docdeck.models._unions import UNKNOWN, discriminate, unknown_tag


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


__all__ = [
    "ChangeAttribute",
    "ChangedFile",
    "ChangedPage",
    "FileCreated",
    "FileDeleted",
    "FileEdited",
    "PageCreated",
    "PageDeleted",
    "PageEdited",
    "PageMoved",
    "ParentChange",
    "RevisionSemanticChanges",
    "SemanticChange",
    "SemanticChangeUnknown",
    "VariablesEdited",
]
