"""A page read for its text alone: its own module, so a change request's first diff, which
reads both sides of a page as markdown, builds none of the page union's classes
(`content`: ~7.5 ms of a first diff's imports)."""

from docdeck.models._base import Resource


class PageMarkdown(Resource):
    """A page read as `format=markdown` for its text alone (a diff's side): its id and title,
    `markdown` (absent on a page without a body, a group or a link), every other field kept
    as an extra, unread. Its validator is built in a fraction of the page union's, which a
    change request's first diff otherwise built for nothing but this text."""

    id: str
    title: str
    markdown: str | None = None
