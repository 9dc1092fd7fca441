"""Change requests: an isolated copy of a space's content that is edited, reviewed, brought
up to date with the space (update) and merged back.

Fields follow the platform's `ChangeRequest` (0.130.0) plus `mergedBy`/`mergedAt` of the
newer document, present only once merged.
"""

from typing import Annotated, Literal

from pydantic import Field

from docdeck.models._base import Count, RequestBody, Resource, Timestamp
from docdeck.models.comment_text import ReviewComment
from docdeck.models.users import User

ChangeRequestStatus = Literal["draft", "open", "archived", "merged"]
ChangeRequestSettableStatus = Literal["draft", "open", "archived"]
"""`merged` is reached only by merging, never by PATCH."""
ChangeRequestSubject = Annotated[str, Field(max_length=100)]


class ChangeRequestUrls(Resource):
    app: str
    location: str


class ChangeRequest(Resource):
    object: Literal["change-request"] = "change-request"
    id: str
    number: Count
    status: str
    """One of `ChangeRequestStatus`; kept a string so a newer platform's status parses."""
    subject: str
    createdBy: User
    createdAt: Timestamp
    updatedAt: Timestamp
    revision: str
    revisionInitial: str
    revisionMergedAncestor: str | None = None
    revisionMerged: str | None = None
    comments: Count
    outdated: bool
    urls: ChangeRequestUrls
    mergedBy: User | None = None
    mergedAt: Timestamp | None = None


class ChangeRequestCreate(RequestBody):
    subject: ChangeRequestSubject | None = None
    agentTaskId: str | None = None
    """An agent task to implement; the sandbox has no agents and only records nothing."""


class ChangeRequestUpdate(RequestBody):
    subject: ChangeRequestSubject | None = None
    status: ChangeRequestSettableStatus | None = None


class ChangeRequestMergeResult(Resource):
    revision: str
    result: Literal["merge", "conflicts"] | str


class ChangeRequestUpdateResult(Resource):
    revision: str
    result: Literal["update", "conflicts"] | str


ChangeRequestReviewStatus = Literal["changes-requested", "approved"]


class ChangeRequestReviewUrls(Resource):
    location: str


class ChangeRequestReview(Resource):
    object: Literal["change-request-review"] = "change-request-review"
    id: str
    revision: str
    reviewer: User
    requestedBy: User | None = None
    status: str
    """One of `ChangeRequestReviewStatus`."""
    outdated: bool | None = None
    """From the newer platform document: superseded by a newer submission or request."""
    createdAt: Timestamp
    updatedAt: Timestamp
    urls: ChangeRequestReviewUrls | None = None


class ChangeRequestReviewSubmit(RequestBody):
    status: ChangeRequestReviewStatus
    comment: ReviewComment | None = None
    """A Document (`{markdown}`); kept with the review."""


class ChangeRequestRequestedReviewer(Resource):
    object: Literal["change-request-requested-reviewer"] = "change-request-requested-reviewer"
    revision: str
    requestedBy: User
    createdAt: Timestamp
    kind: str
    user: User | None = None


class RequestReviewers(RequestBody):
    users: list[str]
    subject: ChangeRequestSubject | None = None


class RequestedReviewers(Resource):
    users: list[ChangeRequestRequestedReviewer] | None = None


class ChangeRequestPDF(Resource):
    url: str
    """A signed link to the PDF, valid for a limited time."""
