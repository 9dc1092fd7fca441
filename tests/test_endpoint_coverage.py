"""Which of the reference's 135 endpoints the sandbox serves and the gateway covers.

Endpoints of finished areas must be both served and covered; the rest are
reported as skipped with what is missing, so the summary doubles as a to-do list.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from docdeck.gateway import COVERED_ENDPOINTS

ENDPOINTS_FILE = Path(__file__).resolve().parents[1] / "docs" / "endpoints.txt"
ENDPOINTS = [line.strip() for line in ENDPOINTS_FILE.read_text().splitlines() if line.strip()]
EXTRAS_FILE = ENDPOINTS_FILE.with_name("platform-extras.txt")
EXTRAS = [line.strip() for line in EXTRAS_FILE.read_text().splitlines() if line.strip()]
"""Operations of the platform's OpenAPI document beyond the reference's 135, served because
the TUI needs them against the hosted platform too; all must be served and covered."""

# The reference's "Space content" rows.
SPACE_CONTENT = {
    "POST /v1/spaces/{spaceId}/content/import",
    "GET /v1/spaces/{spaceId}/search",
    "GET /v1/spaces/{spaceId}/content",
    "POST /v1/spaces/{spaceId}/content/template",
    "GET /v1/spaces/{spaceId}/content/pages",
    "GET /v1/spaces/{spaceId}/content/files",
    "GET /v1/spaces/{spaceId}/content/files/{fileId}",
    "GET /v1/spaces/{spaceId}/content/files/{fileId}/backlinks",
    "GET /v1/spaces/{spaceId}/content/page/{pageId}",
    "GET /v1/spaces/{spaceId}/content/page/{pageId}/links",
    "GET /v1/spaces/{spaceId}/links",
}

# The reference's "Change requests" and "Change request content" rows done so far.
CHANGE_REQUESTS = {
    "GET /v1/spaces/{spaceId}/change-requests",
    "POST /v1/spaces/{spaceId}/change-requests",
    "GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}",
    "PATCH /v1/spaces/{spaceId}/change-requests/{changeRequestId}",
    "POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge",
    "POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/update",
    "GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf",
    "GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content",
    "POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/import",
    "GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages",
    "GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files",
    "GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}",
    "GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks",
    "GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}",
    "GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links",
}

# The reference's "Space comments" (9) and "Change request comments" (8) rows.
COMMENTS = {e for e in ENDPOINTS if re.search(r"/comments(/|$)", e)}

# Areas whose every endpoint must be served and covered (grows with each issue).
REQUIRED_PREFIXES = (
    "/v1/orgs",  # organizations, members, teams, org spaces/collections listing
    "/v1/email-domains/",
    "/v1/collections/",
    "/v1/spaces/{spaceId}",
)
NOT_YET_REQUIRED = re.compile(r"^/v1/spaces/\{spaceId\}/.+")
SLICE_SPACE_ACTIONS = {"duplicate", "restore", "move", "transfer"}


def _shape(path: str) -> str:
    return re.sub(r"\{[^}]+\}", "{}", path)


def required(endpoint: str) -> bool:
    if endpoint in SPACE_CONTENT or endpoint in CHANGE_REQUESTS or endpoint in COMMENTS:
        return True
    _, path = endpoint.split(" ", 1)
    if not path.startswith(REQUIRED_PREFIXES):
        return False
    match = re.fullmatch(r"/v1/spaces/\{spaceId\}/(\w+)", path)
    if match:
        return match.group(1) in SLICE_SPACE_ACTIONS
    return not NOT_YET_REQUIRED.match(path)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    from fastapi.routing import APIRoute

    from docdeck.server import create_app

    app = create_app(tmp_path_factory.mktemp("coverage") / "coverage.db")
    out: set[str] = set()
    for route in app.routes:
        if isinstance(route, APIRoute):
            for method in route.methods:
                out.add(f"{method} {_shape(route.path)}")
    return out


def test_endpoint_list_is_the_reference() -> None:
    assert len(ENDPOINTS) == 135
    assert len(set(ENDPOINTS)) == 135


def test_required_endpoints() -> None:
    """The first slice's 40, the sites' 30 (issue 14), space content, change requests and
    comments (issue 11), and organization administration's 22 (issue 27): all 135."""
    assert len(COMMENTS) == 17
    expected = 40 + 30 + 22 + len(SPACE_CONTENT) + len(CHANGE_REQUESTS) + len(COMMENTS)
    assert expected == 135
    assert sum(required(e) for e in ENDPOINTS) == expected
    assert set(ENDPOINTS) >= SPACE_CONTENT | CHANGE_REQUESTS


@pytest.mark.parametrize("endpoint", EXTRAS)
def test_platform_extra(endpoint: str, served: set[str]) -> None:
    method, path = endpoint.split(" ", 1)
    assert endpoint not in ENDPOINTS
    assert f"{method} {_shape(path)}" in served, f"the sandbox does not serve {endpoint}"
    assert endpoint in COVERED_ENDPOINTS, f"the gateway has no method for {endpoint}"


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_endpoint(endpoint: str, served: set[str]) -> None:
    method, path = endpoint.split(" ", 1)
    is_served = f"{method} {_shape(path)}" in served
    is_covered = endpoint in COVERED_ENDPOINTS
    if required(endpoint):
        assert is_served, f"the sandbox does not serve {endpoint}"
        assert is_covered, f"the gateway has no method for {endpoint}"
    elif not (is_served and is_covered):
        missing = [name for name, ok in (("server", is_served), ("gateway", is_covered)) if not ok]
        pytest.skip(f"not yet done ({', '.join(missing)})")
