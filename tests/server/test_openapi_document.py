"""The server's own `/openapi.json` says what the server really does: the statuses each
operation answers (never the unused 422), one error body, the bearer scheme, and the
platform's operation ids, so it can be compared with the platform's document op by op."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI

from ._support import ADMIN, GUEST, READER, Api, DemoIds, served_document
from .test_every_endpoint import ENDPOINTS, demo_values, fill, fill_body

METHODS = ("get", "put", "post", "patch", "delete")


async def _document(app: FastAPI) -> dict[str, Any]:
    return await served_document(app)


def _operations(document: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (method, path): operation
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    }


async def test_no_422_and_every_error_has_the_one_error_body(sandbox_app: FastAPI) -> None:
    document = await _document(sandbox_app)
    text = json.dumps(document)
    assert '"422"' not in text and "HTTPValidationError" not in text
    error = document["components"]["schemas"]["ErrorBody"]
    assert error["required"] == ["error"]
    detail = document["components"]["schemas"]["ErrorDetail"]
    assert set(detail["required"]) == {"code", "message"}
    operations = _operations(document)
    assert len(operations) >= 40
    for (method, path), operation in operations.items():
        responses = operation["responses"]
        assert "401" in responses, (method, path)
        assert "400" in responses, (method, path)  # the intake checks every path
        assert ("413" in responses) == (method != "get"), (method, path)
        for status, response in responses.items():
            if status.startswith("4"):
                schema = response["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/ErrorBody"}, (method, path)


async def test_the_bearer_scheme_is_documented(sandbox_app: FastAPI) -> None:
    document = await _document(sandbox_app)
    assert document["components"]["securitySchemes"] == {
        "user": {"type": "http", "scheme": "bearer"}
    }
    assert document["security"] == [{"user": []}]


def _platform_operations() -> dict[tuple[str, str], str]:
    configured = os.environ.get("DOCDECK_PLATFORM_OPENAPI")
    root = Path(__file__).resolve().parents[2].parent
    path = Path(configured) if configured else root / "shared/reference/platform-openapi.json"
    if not path.exists():
        pytest.skip(
            "platform OpenAPI document not found: set DOCDECK_PLATFORM_OPENAPI or place it at "
            "../shared/reference/platform-openapi.json next to the repository"
        )

    def of(document: Path) -> dict[tuple[str, str], str]:
        platform = json.loads(document.read_text())
        return {
            (method, "/v1" + route): operation["operationId"]
            for route, item in platform["paths"].items()
            for method, operation in item.items()
            if method in METHODS
        }

    found = of(path)
    newer = path.with_name("platform-openapi-newer.json")
    if newer.exists():  # operations 0.130.0 lacks and DESIGN.md takes from the newer release
        for key, operation_id in of(newer).items():
            if operation_id in NEWER_OPERATIONS:
                found.setdefault(key, operation_id)
    return found


NEWER_OPERATIONS = {"updateChangeRequestContent"}


async def test_operation_ids_methods_and_paths_are_the_platforms(sandbox_app: FastAPI) -> None:
    platform = _platform_operations()
    ours = {key: op["operationId"] for key, op in _operations(await _document(sandbox_app)).items()}
    assert {key: platform.get(key) for key in ours} == ours


_PLACEHOLDERS = {
    "org": "organizationId",
    "team": "teamId",
    "user": "userId",
    "coll": "collectionId",
    "space": "spaceId",
    "invite": "inviteId",
    "emailDomain": "emailDomain",
    "page": "pageId",
    "file": "fileId",
    "revision": "revisionId",
    "document": "documentId",
    "pagePath": "pagePath",
    "cr": "changeRequestId",
    "comment": "commentId",
    "crcomment": "commentId",
    "reply": "commentReplyId",
    "crreply": "commentReplyId",
}


def _template(path: str) -> str:
    path = path.split("?")[0].replace("northwind.dev", "{emailDomain}")
    return re.sub(r"\{(\w+)\}", lambda m: "{" + _PLACEHOLDERS[m.group(1)] + "}", path)


@pytest.mark.parametrize(("method", "path", "body"), ENDPOINTS)
async def test_every_status_an_operation_answers_is_documented(
    sandbox_app: FastAPI,
    api: Api,
    ids: DemoIds,
    method: str,
    path: str,
    body: dict[str, object] | None,
) -> None:
    """Each endpoint called without a token, with a bad query value, with unknown ids, as a
    guest, a reader and the admin: every status it answers is one its operation documents."""
    operation = _operations(await _document(sandbox_app))[(method.lower(), _template(path))]
    documented = set(operation["responses"])
    values = demo_values(ids)
    unknown = {k: "unknown-id" for k in values} | {"lumen": ids.lumen}
    calls = [
        (None, values, body),
        (GUEST, values, body),
        (READER, values, body),
        (ADMIN, unknown, body),
        (ADMIN, values, {"unknownField": 1} if body is not None else None),
        (ADMIN, values, body),
    ]
    answered = set()
    for who, names, sent in calls:
        url = fill(path, names)
        if method == "GET":
            url += ("&" if "?" in url else "?") + "limit=-1"
        response = await api(who).request(method, url, json=fill_body(sent, names))
        answered.add(str(response.status_code))
        if method == "GET":
            response = await api(who).request(method, fill(path, names))
            answered.add(str(response.status_code))
    assert answered <= documented, (method, path, answered - documented)


def test_the_document_is_the_same_when_fastapi_is_imported_with_deferred_models(
    tmp_path: Path,
) -> None:
    """`docdeck serve` imports FastAPI with its own models built on first use (a tenth of a
    first start); the served document, built from those models, must not change."""
    import subprocess
    import sys

    from docdeck.server import create_app

    code = (
        "import json, sys\n"
        "from docdeck.server.http.lean_imports import import_fastapi\n"
        "import_fastapi()\n"
        "import fastapi.openapi.models as m\n"
        "assert not m.OpenAPI.__pydantic_complete__, 'not deferred'\n"
        "assert sys.modules['pydantic.v1'] is None\n"
        "from docdeck.server import create_app\n"
        "app = create_app(sys.argv[1], public_url='http://sandbox.test')\n"
        "print(json.dumps(app.openapi(), sort_keys=True))\n"
    )
    lean = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "lean.db")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    usual = create_app(tmp_path / "usual.db", public_url="http://sandbox.test").openapi()
    assert json.loads(lean) == usual
