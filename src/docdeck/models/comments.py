"""Comments and replies on a space or a change request (reference: Comment, CommentReply,
CommentBody; platform 0.130.0 PostCommentSchema, UpdateCommentSchema, UpdateCommentReplySchema)."""

from typing import Annotated, Any, Literal

from pydantic import Field

from docdeck.models._base import (
    Count,
    Emoji,
    NextPage,
    RequestBody,
    Resource,
    Timestamp,
    read_tolerantly,
)
from docdeck.models.comment_text import (
    CommentMarkdown,
)
from docdeck.models.content import PageFields
from docdeck.models.members import Member
from docdeck.models.users import User

CommentStatus = Literal["open", "resolved"]
CommentStatusFilter = Literal["all", "open", "resolved"]
CommentOrder = Literal["asc", "desc"]
DocumentFormat = Literal["document", "markdown"]


class CommentBody(Resource):
    """`{markdown}` or `{document}` as the caller's `format` asked; `{}` without one."""

    markdown: CommentMarkdown | None = None
    document: dict[str, Any] | None = None


class CommentBodyInput(RequestBody):
    """What a caller writes: markdown, or a platform document (its text is kept as markdown)."""

    markdown: str | None = None
    document: dict[str, Any] | None = None


class ReactionUser(Resource):
    user: User
    reactedAt: Timestamp


class EmojiReaction(Resource):
    emoji: str
    count: Count
    users: list[ReactionUser]


class CommentUrls(Resource):
    location: str


class CommentPermissions(Resource):
    _tolerant = read_tolerantly(absent={"reply": True})  # optional in both releases

    view: bool
    edit: bool
    reply: bool
    delete: bool


class CommentTargetNode(Resource):
    id: str
    preview: str | None = None


class CommentTargetPage(PageFields):
    # 0.202.0 sends only the page's `id`: its title and path are then unknown (empty).
    _tolerant = read_tolerantly(absent={"title": "", "path": "", "outdated": False})

    path: str
    outdated: bool
    """The commented page or block is gone from the content, or the block has changed."""


class TableCellTarget(Resource):
    """A cell of a table block: `record` is the row's id, `definition` the column's."""

    record: str
    definition: str


class TableCellInput(RequestBody):
    record: str
    definition: str


class CommentTarget(Resource):
    space: str
    revision: str
    changeRequest: str | None = None
    review: str | None = None
    """The review this comment was submitted with (a review's `comment`)."""
    page: CommentTargetPage | None = None
    node: CommentTargetNode | None = None
    tableCell: TableCellTarget | None = None


class _Post(Resource):
    """A post in a thread, a comment or a reply: `object` and `id`, who posted it and when,
    its last edit and its reactions, then what its kind adds. Each kind narrows `object` (it
    keeps its place, first)."""

    object: str
    id: str
    postedBy: User
    postedAt: Timestamp
    editedAt: Timestamp | None = None
    reactions: list[EmojiReaction]


class CommentReply(_Post):
    object: Literal["comment-reply"] = "comment-reply"
    body: CommentBody
    urls: CommentUrls
    permissions: CommentPermissions


class Comment(_Post):
    object: Literal["comment"] = "comment"
    replies: Count
    body: CommentBody
    target: CommentTarget
    urls: CommentUrls
    permissions: CommentPermissions
    status: str
    """One of `CommentStatus`."""
    resolvedAt: Timestamp | None = None
    resolvedBy: User | None = None


Reactions = Annotated[list[Emoji], Field(max_length=100)]


class CommentPost(RequestBody):
    body: CommentBodyInput
    page: str | None = None
    node: str | None = None
    tableCell: TableCellInput | None = None
    """With `node` the key of a table block: the cell commented on."""


class CommentReplyPost(RequestBody):
    body: CommentBodyInput


class CommentReplyUpdate(RequestBody):
    body: CommentBodyInput | None = None
    addedReactions: Reactions | None = None
    removedReactions: Reactions | None = None


class CommentUpdate(CommentReplyUpdate):
    resolved: bool | None = None


class CommentersPage(Resource):
    """`listCommentersInSpace` / `...InChangeRequest`: the list envelope of organization
    members, with the `total` platform 0.130.0 marks required (the same as `count`)."""

    # 0.202.0 requires neither: both are then the number of items read.
    _tolerant = read_tolerantly(
        absent={
            "count": lambda data: len(data.get("items") or ()),
            "total": lambda data: data["count"],
        }
    )

    items: list[Member]
    count: Count
    next: NextPage | None = None
    total: Count
