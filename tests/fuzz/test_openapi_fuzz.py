"""Fuzz every /v1 operation of the sandbox's own /openapi.json through the ASGI app.

schemathesis generates each operation's parameters and bodies from the document; the hooks
below mix in real ids (so cases reach past the 404s), hostile strings (lone surrogates,
control characters, invisible characters, very long values), arrays over the documented
limit and tampered page cursors. Every response must be: no 5xx, a status the operation
documents, and a body valid against the schema declared for that status.

Bounded for `make test`: schemathesis's examples and coverage phases (deterministic boundary
and negative cases), then DOCDECK_FUZZ_EXAMPLES generated cases per operation (15 by default)
with a fixed seed. `make fuzz` runs the same with many more, positive and negative.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from .hostile import URL_SAFE_HOSTILE, mutated_body, tampered_cursors

EXAMPLES = int(os.environ.get("DOCDECK_FUZZ_EXAMPLES", "15"))
MODE = os.environ.get("DOCDECK_FUZZ_MODE", "positive")
"""The fuzzing phase's generation mode: `positive` (schema-valid cases, made hostile by the
hooks, which reach furthest into the server) for `make test`; `all` adds schema-invalid ones."""
SHARDS = 8
"""The operations are fuzzed in this many tests, each on a sandbox of its own, so that the
suite's workers share them out: as one test it took about a minute, the last to finish of
`make test` when a worker took it up late. An operation's shard is a hash of its method and
path: the same on every run and in every worker, whatever the document's order."""
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    response_schema_conformance,
    content_type_conformance,
]

_CONTENT_ITEMS = (
    "SELECT DISTINCT r.space_id, e.item_id FROM revision_entries e"
    " JOIN revisions r ON r.id = e.revision_id WHERE e.kind = '{kind}'"
)
_REVISION_ITEMS = (
    "SELECT r.id, r.space_id, e.item_id FROM revision_entries e"
    " JOIN revisions r ON r.id = e.revision_id WHERE e.kind = '{kind}'"
)
_CHANGE_REQUEST_ITEMS = (
    "SELECT c.space_id, c.id, e.item_id FROM change_requests c"
    " JOIN revision_entries e ON e.revision_id = c.revision_id WHERE e.kind = '{kind}'"
)
_COMBINATIONS = {
    ("organizationId",): "SELECT id AS organizationId FROM organizations",
    ("spaceId",): "SELECT id AS spaceId FROM spaces WHERE deleted_at IS NULL",
    ("collectionId",): "SELECT id AS collectionId FROM collections",
    ("userId",): "SELECT id AS userId FROM users",
    ("organizationId", "teamId"): "SELECT organization_id, id FROM teams",
    ("organizationId", "userId"): "SELECT organization_id, user_id FROM members",
    ("organizationId", "teamId", "userId"): "SELECT t.organization_id, t.id, tm.user_id"
    " FROM teams t JOIN team_members tm ON tm.team_id = t.id",
    ("organizationId", "inviteId"): "SELECT organization_id, id FROM link_invites",
    ("organizationId", "siteId"): "SELECT organization_id, id FROM sites",
    ("organizationId", "siteId", "siteSectionId"): "SELECT s.organization_id, s.id, x.id"
    " FROM sites s JOIN site_sections x ON x.site_id = s.id",
    ("organizationId", "siteId", "siteSectionGroupId"): "SELECT s.organization_id, s.id, x.id"
    " FROM sites s JOIN site_section_groups x ON x.site_id = s.id",
    ("organizationId", "siteId", "siteSectionGroupId", "siteSectionId"): "SELECT"
    " s.organization_id, s.id, x.group_id, x.id FROM sites s JOIN site_sections x"
    " ON x.site_id = s.id WHERE x.group_id IS NOT NULL",
    ("organizationId", "siteId", "siteSpaceId"): "SELECT s.organization_id, s.id, x.id"
    " FROM sites s JOIN site_spaces x ON x.site_id = s.id",
    ("organizationId", "siteId", "shareLinkId"): "SELECT s.organization_id, s.id, x.id"
    " FROM sites s JOIN site_share_links x ON x.site_id = s.id",
    ("organizationId", "siteId", "siteRedirectId"): "SELECT s.organization_id, s.id, x.id"
    " FROM sites s JOIN site_redirects x ON x.site_id = s.id",
    # Space content: ids from the stored revisions (a page or file may since be deleted).
    ("spaceId", "revisionId"): "SELECT space_id, id FROM revisions",
    ("spaceId", "pageId"): _CONTENT_ITEMS.format(kind="page"),
    ("spaceId", "fileId"): _CONTENT_ITEMS.format(kind="file"),
    ("revisionId", "spaceId", "pageId"): _REVISION_ITEMS.format(kind="page"),
    ("revisionId", "spaceId", "fileId"): _REVISION_ITEMS.format(kind="file"),
    ("spaceId", "documentId"): "SELECT space_id, hash FROM space_objects",
    # Change requests: by id and by number, their own revision's pages and files, and the
    # reviewers asked (so DELETE requested-reviewers/{userId} reaches a real request).
    ("spaceId", "changeRequestId"): "SELECT space_id, id FROM change_requests UNION ALL"
    " SELECT space_id, CAST(number AS TEXT) FROM change_requests",
    ("spaceId", "changeRequestId", "pageId"): _CHANGE_REQUEST_ITEMS.format(kind="page"),
    ("spaceId", "changeRequestId", "fileId"): _CHANGE_REQUEST_ITEMS.format(kind="file"),
    ("spaceId", "changeRequestId", "userId"): "SELECT c.space_id, c.id, q.user_id"
    " FROM change_requests c JOIN change_request_requested_reviewers q"
    " ON q.change_request_id = c.id",
    # Comments: a space's own and a change request's (by id and by number), with replies.
    ("spaceId", "commentId"): "SELECT space_id, id FROM comments WHERE change_request_id IS NULL",
    ("spaceId", "commentId", "commentReplyId"): "SELECT c.space_id, c.id, r.id FROM comments c"
    " JOIN comment_replies r ON r.comment_id = c.id WHERE c.change_request_id IS NULL",
    ("spaceId", "changeRequestId", "commentId"): "SELECT c.space_id, c.change_request_id, c.id"
    " FROM comments c WHERE c.change_request_id IS NOT NULL UNION ALL"
    " SELECT c.space_id, CAST(x.number AS TEXT), c.id FROM comments c"
    " JOIN change_requests x ON x.id = c.change_request_id",
    ("spaceId", "changeRequestId", "commentId", "commentReplyId"): "SELECT c.space_id,"
    " c.change_request_id, c.id, r.id FROM comments c JOIN comment_replies r"
    " ON r.comment_id = c.id WHERE c.change_request_id IS NOT NULL",
    ("organizationId", "specSlug"): "SELECT organization_id, slug FROM openapi_specs",
    ("organizationId", "specSlug", "versionId"): "SELECT s.organization_id, s.slug, v.id"
    " FROM openapi_specs s JOIN openapi_spec_versions v ON v.spec_id = s.id",
    ("organizationId", "samlProviderId"): "SELECT organization_id, id FROM saml_providers",
    ("organizationId", "translationId"): "SELECT organization_id, id FROM translations",
}


_EMAIL_DOMAINS = [{"emailDomain": d} for d in ("northwind.dev", "lumen-project.org")]


def _real_rows(conn: sqlite3.Connection, names: frozenset[str]) -> list[dict[str, str]]:
    """Path parameters `names` that name things that exist and belong together (a team of
    that organization), so generated cases get past the 404s to the code that uses the body.
    Read at each draw (earlier cases delete things), with only that combination's statement:
    running all of them each time was some 8% of the fuzz test's time. `conn` is in
    autocommit mode: each statement reads what is committed when it runs."""
    if names == frozenset({"emailDomain"}):
        return _EMAIL_DOMAINS
    for combination, sql in _COMBINATIONS.items():
        if frozenset(combination) == names:
            return [dict(zip(combination, row, strict=True)) for row in conn.execute(sql)]
    return []


async def _genuine_cursors(app: FastAPI, token: str, orgs: list[str]) -> list[str]:
    paths = ["/v1/orgs"] + [f"/v1/orgs/{org}/spaces" for org in orgs]
    paths += [f"/v1/orgs/{org}/members" for org in orgs]
    cursors = []
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url="http://fuzz",
        headers={"Authorization": f"Bearer {token}"},
    ) as client:
        for path in paths:
            body = (await client.get(path, params={"limit": 1})).json()
            if "next" in body:
                cursors.append(body["next"]["page"])
    assert cursors, "the demo workspace has lists longer than one item"
    return cursors


@pytest.fixture
def api_schema(sandbox_app: FastAPI, sandbox_db: Path, admin_token: str) -> Iterator[Any]:
    # One connection for every draw: one opened per draw parsed the database's whole schema
    # again each time (SQLite does for every connection it opens).
    rows_db = sqlite3.connect(sandbox_db, isolation_level=None, check_same_thread=False)
    try:
        yield _api_schema(sandbox_app, rows_db, admin_token)
    finally:
        rows_db.close()


def _api_schema(sandbox_app: FastAPI, rows_db: sqlite3.Connection, admin_token: str) -> Any:
    orgs = [row["organizationId"] for row in _real_rows(rows_db, frozenset({"organizationId"}))]
    cursors = tampered_cursors(asyncio.run(_genuine_cursors(sandbox_app, admin_token, orgs)))
    config = schemathesis.config.SchemathesisConfig.from_dict(
        {"phases": {"fuzzing": {"generation": {"mode": MODE}}}}
    )
    # The operations to fuzz are chosen where the test is declared (`_shard`): schemathesis
    # replaces the filters of the schema a fixture gives with those of the test's own.
    loaded = schemathesis.openapi.from_asgi("/openapi.json", sandbox_app, config=config)

    def flatmap_path_parameters(context: Any, path_parameters: dict[str, Any] | None) -> Any:
        if not path_parameters:
            return st.just(path_parameters)
        wanted = frozenset(path_parameters)

        def pick(index: int) -> dict[str, Any]:
            # Read at draw time, not once: earlier cases delete spaces, teams and members. The
            # draw itself (an index) stays the same, so hypothesis sees a stable strategy.
            rows = _real_rows(rows_db, wanted) or [path_parameters]
            return rows[index % len(rows)]

        real = st.integers(0, 2**16).map(pick)
        hostile = st.builds(
            lambda name, text: {**path_parameters, name: text},
            st.sampled_from(sorted(path_parameters)),
            URL_SAFE_HOSTILE,
        )
        return st.one_of(real, real, st.just(path_parameters), hostile)

    def flatmap_query(context: Any, query: dict[str, Any] | None) -> Any:
        if query is None and not any(p.name == "page" for p in context.operation.query):
            return st.just(query)
        query = dict(query or {})
        options: list[Any] = [st.just(query)]
        names = [n for n, v in query.items() if isinstance(v, str) and n != "page"]
        if names:
            options.append(
                st.builds(
                    lambda name, text: {**query, name: text},
                    st.sampled_from(names),
                    URL_SAFE_HOSTILE,
                )
            )
        operation = context.operation
        if operation is not None and any(p.name == "page" for p in operation.query):
            options.append(cursors.map(lambda cursor: {**query, "page": cursor}))
        return st.one_of(options)

    def flatmap_body(context: Any, body: Any) -> Any:
        return mutated_body(body)

    for hook in (flatmap_path_parameters, flatmap_query, flatmap_body):
        loaded.hook(hook)
    return loaded


schema = schemathesis.pytest.from_fixture("api_schema")


def _shard(index: int) -> Any:
    """The test of the operations whose method and path hash to `index`."""

    def in_shard(ctx: Any) -> bool:
        return zlib.crc32(ctx.operation.label.encode()) % SHARDS == index

    # One include with both criteria: the operations that meet both (two includes: either).
    @schema.include(in_shard, path_regex=r"^/v1/").parametrize()
    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    def test_every_operation_answers_hostile_input_as_documented(
        case: Any, admin_token: str
    ) -> None:
        # The generated Authorization header (the security scheme's) is replaced by a real
        # token: the point is to reach the code behind authentication; 401s have tests of
        # their own.
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {admin_token}"}
        case.call_and_validate(checks=CHECKS)

    return test_every_operation_answers_hostile_input_as_documented


for _index in range(SHARDS):
    globals()[f"test_every_operation_answers_hostile_input_as_documented_{_index}"] = _shard(_index)
