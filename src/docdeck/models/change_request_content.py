"""Authoring a change request's content (`updateChangeRequestContent`, platform 0.202.0):
a batch of 1..50 changes applied in order as one new revision."""

from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag

from docdeck.models._base import RequestBody, Resource
from docdeck.models.change_requests import ChangeRequest
from docdeck.models.content import RevisionFile

PageSlug = Annotated[str, Field(max_length=100)]


class MarkdownBody(RequestBody):
    markdown: str


class DocumentBody(RequestBody):
    document: dict[str, Any]


PageDocument = MarkdownBody | DocumentBody


class RevisionPageUpdate(RequestBody):
    """Page metadata an insert or update may set (`""` removes `emoji`, `icon`, `condition`)."""

    title: Annotated[str, Field(min_length=1)] | None = None
    slug: PageSlug | None = None
    emoji: str | None = None
    icon: str | None = None
    description: str | None = None
    hidden: bool | None = None
    noIndex: bool | None = None
    noRobotsIndex: bool | None = None
    condition: str | None = None


class InsertPage(RevisionPageUpdate):
    operation: Literal["insert_page"]
    document: PageDocument
    into: str | None = None
    at: Annotated[int, Field(ge=0)] | None = None
    ref: str | None = None


class UpdatePage(RevisionPageUpdate):
    operation: Literal["update_page"]
    page: str
    document: PageDocument | None = None
    into: str | None = None
    """Omitted: the parent is unchanged; null: the root."""
    at: Annotated[int, Field(ge=0)] | None = None


class DeletePage(RequestBody):
    operation: Literal["delete_page"]
    page: str


class RevertPage(RequestBody):
    operation: Literal["revert_page"]
    page: str
    revision: str | None = None
    block: list[str] | None = None


class InsertedFile(RequestBody):
    name: Annotated[str, Field(min_length=1, max_length=256)]
    ref: str | None = None
    contentType: str | None = None
    url: Annotated[str, Field(max_length=2048)] | None = None
    base64: str | None = None


class InsertFiles(RequestBody):
    operation: Literal["insert_files"]
    files: Annotated[list[InsertedFile], Field(min_length=1, max_length=20)]


class UnknownChange(RequestBody):
    """Any other `operation`: refused, naming the operations there are."""

    operation: Literal["insert_page", "update_page", "delete_page", "revert_page", "insert_files"]


_TAGS = {
    "insert_page": "InsertPage",
    "update_page": "UpdatePage",
    "delete_page": "DeletePage",
    "revert_page": "RevertPage",
    "insert_files": "InsertFiles",
}


def _tag(value: Any) -> str:
    found = value.get("operation") if isinstance(value, dict) else getattr(value, "operation", "")
    return _TAGS.get(found, "UnknownChange") if isinstance(found, str) else "UnknownChange"


ChangeRequestContentChange = Annotated[
    Annotated[InsertPage, Tag("InsertPage")]
    | Annotated[UpdatePage, Tag("UpdatePage")]
    | Annotated[DeletePage, Tag("DeletePage")]
    | Annotated[RevertPage, Tag("RevertPage")]
    | Annotated[InsertFiles, Tag("InsertFiles")]
    | Annotated[UnknownChange, Tag("UnknownChange")],
    Discriminator(_tag),
]


class ChangeRequestContentUpdateBody(RequestBody):
    changes: Annotated[list[ChangeRequestContentChange], Field(min_length=1, max_length=50)]


class UpdatedPageRefUrls(Resource):
    location: str


class UpdatedPageRef(Resource):
    object: Literal["page"] = "page"
    id: str
    urls: UpdatedPageRefUrls


class ChangeRequestContentUpdate(Resource):
    """The answer with `compat=false`: the change request and one entry per page touched."""

    changeRequest: ChangeRequest
    changes: list[dict[str, Any]]
    insertedFiles: list[RevisionFile] | None = None
