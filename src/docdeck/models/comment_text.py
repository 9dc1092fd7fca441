"""The one limit of comment text, as types: a comment's or reply's markdown and a review's
comment. Apart from the comment models so that a change request's models (a review carries a
comment) do not build every comment model on the way to a change request's first screen."""

from typing import Annotated, Any

from pydantic import AfterValidator

MAX_COMMENT_CHARS = 65_536
"""Characters of markdown in any comment text: a comment, a reply, a review's comment."""


def comment_length(text: str) -> str:
    """The one limit of comment text (a validator: the limit belongs to the type, so every
    request body that carries comment text refuses the same text the same way)."""
    if len(text) > MAX_COMMENT_CHARS:
        raise ValueError(f"must be at most {MAX_COMMENT_CHARS:,} characters (got {len(text):,})")
    return text


CommentMarkdown = Annotated[str, AfterValidator(comment_length)]
"""Comment text as a caller writes it (the JSON schema is that of a plain string)."""


def _review_comment_length(comment: dict[str, Any]) -> dict[str, Any]:
    markdown = comment.get("markdown")
    if isinstance(markdown, str):
        comment_length(markdown)
    return comment


ReviewComment = Annotated[dict[str, Any], AfterValidator(_review_comment_length)]
"""A review's comment (`{markdown}` or a document): it becomes a comment thread, so its
markdown has the limit of comment text; a document's is checked once turned to markdown."""
