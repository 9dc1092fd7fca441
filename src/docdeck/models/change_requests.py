"""Change requests: an isolated copy of a space's content that is edited, reviewed, brought
up to date with the space (update) and merged back.

Fields follow the platform's `ChangeRequest` (0.130.0) plus `mergedBy`/`mergedAt` of the
newer document, present only once merged.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from docdeck.models._base import RequestBody, Resource, Timestamp
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
    number: int
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
    comments: int
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
