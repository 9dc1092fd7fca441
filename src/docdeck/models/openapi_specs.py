"""OpenAPI specifications of an organization and their versions."""

from typing import Annotated, Any, Literal

from pydantic import Field

from docdeck.models._base import RequestBody, Resource, Timestamp, Url, read_tolerantly

OPENAPI_SPEC_SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
OpenAPISpecSlug = Annotated[
    str, Field(min_length=1, max_length=100, pattern=OPENAPI_SPEC_SLUG_PATTERN)
]
OpenAPISpecProcessingState = Literal["pending", "progress", "complete"]
OpenAPISpecProcessingErrorCode = Literal["FETCH_TIMEOUT", "FETCH_ERROR", "PARSE_ERROR"]
OpenAPISpecVisibility = Literal["private", "public"]


class OpenAPISpecPermissions(Resource):
    view: bool
    edit: bool


class OpenAPISpecUrls(Resource):
    location: str
    app: str | None = None
    published: str | None = None
    """Only for public specs."""


class OpenAPISpec(Resource):
    """Enumerations keep values a newer platform adds (`| str`)."""

    object: Literal["openapi-spec"] = "openapi-spec"
    id: str
    createdAt: Timestamp
    updatedAt: Timestamp
    slug: str
    sourceURL: str | None = None
    processingState: OpenAPISpecProcessingState | str
    visibility: OpenAPISpecVisibility | str | None = None
    lastVersion: str | None = None
    lastProcessedAt: Timestamp | None = None
    lastProcessErrorCode: OpenAPISpecProcessingErrorCode | str | None = None
    permissions: OpenAPISpecPermissions
    urls: OpenAPISpecUrls


class OpenAPISpecVersionUrls(Resource):
    location: str


class OpenAPISpecVersion(Resource):
    object: Literal["openapi-spec-version"] = "openapi-spec-version"
    id: str
    createdAt: Timestamp | None = None
    url: str
    urls: OpenAPISpecVersionUrls


def _content_url(data: dict[str, Any]) -> str:
    urls = data.get("urls")
    if isinstance(urls, dict):
        return str(urls.get("source") or urls.get("public") or "")
    return ""


class OpenAPISpecContent(Resource):
    """`filesystem` is the parsed specification (the sandbox writes it as one JSON object)."""

    filesystem: dict[str, Any]
    url: str
    # 0.202.0 sends `urls {source, public}` in place of `url`: read its source (or public) URL.
    _tolerant = read_tolerantly(absent={"url": _content_url})


class OpenAPISpecSourceURL(RequestBody):
    url: Url


class OpenAPISpecSourceText(RequestBody):
    text: Annotated[str, Field(min_length=1)]


OpenAPISpecSource = OpenAPISpecSourceURL | OpenAPISpecSourceText


class OpenAPISpecCreate(RequestBody):
    slug: OpenAPISpecSlug
    source: OpenAPISpecSource


class OpenAPISpecPut(RequestBody):
    source: OpenAPISpecSource


class OpenAPISpecUpdate(RequestBody):
    visibility: OpenAPISpecVisibility
