"""Space content over HTTP: revisions, the page tree and paths, page bodies, lists, roles,
deleted spaces, templates and duplicates (links and search: test_content_links.py)."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx

from docdeck.server.content.edits import Draft

from ._content import API_DOCS, _by_title, _edit, _space
from ._support import ADMIN, EDITOR, GUEST, LUMEN_ADMIN, READER, Api, DemoIds, error_of


async def test_the_demo_docs_have_three_levels_files_and_history(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    revision = (await admin.get(_space(ids) + "/content")).json()
    assert revision["object"] == "revision" and revision["type"] == "edits"
    everything = []
    stack = [(p, 1) for p in revision["pages"]]
    while stack:
        page, depth = stack.pop()
        everything.append((page, depth))
        stack += [(c, depth + 1) for c in page.get("pages", [])]
    assert len(everything) >= 30
    assert max(depth for _, depth in everything) == 3
    names = {f["name"] for f in revision["files"]}
    assert {"request-flow.png", "sample-invoice.pdf"} <= names
    image = next(f for f in revision["files"] if f["name"] == "request-flow.png")
    assert image["dimensions"] == {"width": 480, "height": 160}
    assert revision["parents"], "the docs were written over several revisions"
    space = (await admin.get(_space(ids))).json()
    assert space["revision"] == revision["id"]


async def test_paths_follow_renames_and_moves(
    admin: httpx.AsyncClient, ids: DemoIds, sandbox_db: Path
) -> None:
    pages = (await admin.get(_space(ids) + "/content/pages")).json()["pages"]
    guides = _by_title(pages, "Guides")
    orders = next(p for p in guides["pages"] if p["title"] == "Orders")
    assert orders["path"] == "guides/orders"
    lifecycle = _by_title(pages, "Order lifecycle")
    assert lifecycle["path"] == "guides/orders/order-lifecycle"

    def rename_and_move(draft: Draft) -> None:
        draft.rename(orders["id"], "Orders", slug="purchases")
        draft.move(lifecycle["id"], guides["id"])

    _edit(sandbox_db, ids.spaces[API_DOCS], rename_and_move)
    pages = (await admin.get(_space(ids) + "/content/pages")).json()["pages"]
    assert _by_title(pages, "Refunds")["path"] == "guides/purchases/refunds"
    assert _by_title(pages, "Order lifecycle")["path"] == "guides/order-lifecycle"
    by_path = await admin.get(_space(ids) + "/content/path/guides/purchases/refunds")
    assert by_path.json()["title"] == "Refunds"
    gone = await admin.get(_space(ids) + "/content/path/guides/orders/refunds")
    assert "no page at path" in error_of(gone, 404)


async def test_markdown_and_document_formats_of_the_same_page(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    page = (await admin.get(_space(ids) + "/content/path/getting-started/authentication")).json()
    assert "markdown" not in page and "document" not in page  # no body without format
    url = _space(ids) + f"/content/page/{page['id']}"
    markdown = (await admin.get(url, params={"format": "markdown"})).json()["markdown"]
    assert markdown.startswith("# Authentication")
    document = (await admin.get(url, params={"format": "document"})).json()["document"]
    assert document["object"] == "document"
    types = [node["type"] for node in document["nodes"]]
    assert types[0] == "heading-1" and "code" in types and "table" in types and "hint" in types
    keys = [node["key"] for node in document["nodes"]]
    assert len(keys) == len(set(keys))
    again = (await admin.get(url, params={"format": "document"})).json()["document"]
    assert [n["key"] for n in again["nodes"]] == keys, "block keys are stable"
    heading = next(n for n in document["nodes"] if n["type"] == "heading-2")
    assert heading["data"]["id"] == "creating-a-token"
    link = next(
        inline
        for node in document["nodes"]
        if node["type"] == "paragraph"
        for inline in node["nodes"]
        if inline.get("type") == "link"
    )
    assert link["data"]["ref"]["kind"] == "anchor"
    bad = await admin.get(url, params={"format": "html"})
    assert "format: must be one of document, markdown" in error_of(bad, 400)


async def test_a_files_bytes_are_not_a_document(
    admin: httpx.AsyncClient, ids: DemoIds, sandbox_db: Path
) -> None:
    """The space's objects hold its files' bytes too: asked as a document, an image's is a
    404 (the fuzz found it answered 500), a page body's a document."""
    space_id = _space(ids).rsplit("/", 1)[1]
    with sqlite3.connect(sandbox_db) as conn:
        hashes = [
            row[0]
            for row in conn.execute(
                "SELECT hash FROM space_objects WHERE space_id = ?", (space_id,)
            )
        ]
    answers = {h: await admin.get(_space(ids) + f"/documents/{h}") for h in hashes}
    statuses = {answer.status_code for answer in answers.values()}
    assert statuses <= {200, 404}, statuses
    missing = [h for h, answer in answers.items() if answer.status_code == 404]
    assert missing, "the demo's API reference has an image among its objects"
    assert "not found in space" in error_of(answers[missing[0]], 404)
    assert any(answer.status_code == 200 for answer in answers.values())


async def test_block_keys_survive_an_edit_elsewhere_in_the_page(
    admin: httpx.AsyncClient, ids: DemoIds, sandbox_db: Path
) -> None:
    page = (await admin.get(_space(ids) + "/content/path/guides/pagination")).json()
    url = _space(ids) + f"/content/page/{page['id']}"
    before = (await admin.get(url, params={"format": "document"})).json()["document"]["nodes"]
    markdown = (await admin.get(url, params={"format": "markdown"})).json()["markdown"]
    _edit(
        sandbox_db,
        ids.spaces[API_DOCS],
        lambda d: d.set_markdown(page["id"], markdown + "\nA new closing paragraph.\n"),
    )
    after = (await admin.get(url, params={"format": "document"})).json()["document"]["nodes"]
    assert [n["key"] for n in after[: len(before)]] == [n["key"] for n in before]
    assert len(after) == len(before) + 1


async def test_evaluated_replaces_variables(
    admin: httpx.AsyncClient, ids: DemoIds, sandbox_db: Path
) -> None:
    page = (await admin.get(_space(ids) + "/content/path/glossary")).json()

    def change(draft: Draft) -> None:
        draft.variables["version"] = "2.6"
        draft.set_markdown(page["id"], "# Glossary\n\nCurrent: {{ space.vars.version }}.\n")

    _edit(sandbox_db, ids.spaces[API_DOCS], change)
    url = _space(ids) + f"/content/page/{page['id']}"
    raw = (await admin.get(url, params={"format": "markdown"})).json()["markdown"]
    done = (await admin.get(url, params={"format": "markdown", "evaluated": "true"})).json()
    assert "{{ space.vars.version }}" in raw
    assert "Current: 2.6." in done["markdown"]


async def test_revisions_are_immutable_snapshots(
    admin: httpx.AsyncClient, ids: DemoIds, sandbox_db: Path
) -> None:
    before = (await admin.get(_space(ids) + "/content")).json()
    page = _by_title(before["pages"], "Errors")
    _edit(sandbox_db, ids.spaces[API_DOCS], lambda d: d.remove(page["id"]))
    now = (await admin.get(_space(ids) + "/content")).json()
    assert now["parents"] == [before["id"]]
    old = await admin.get(_space(ids) + f"/revisions/{before['id']}/page/{page['id']}")
    assert old.json()["title"] == "Errors"
    gone = await admin.get(_space(ids) + f"/content/page/{page['id']}")
    assert "not found in revision" in error_of(gone, 404)
    changes = (await admin.get(_space(ids) + f"/revisions/{now['id']}/changes")).json()
    assert changes["changes"] == [
        {
            "type": "page_deleted",
            "page": {"id": page["id"], "type": "document", "title": "Errors", "path": page["path"]},
        }
    ]


async def test_a_one_page_revision_stores_only_what_changed(
    admin: httpx.AsyncClient, ids: DemoIds, sandbox_db: Path
) -> None:
    page = (await admin.get(_space(ids) + "/content/path/guides/pagination")).json()
    conn = sqlite3.connect(sandbox_db)
    objects_before = conn.execute("SELECT COUNT(*) FROM objects").fetchone()[0]
    revision = _edit(
        sandbox_db,
        ids.spaces[API_DOCS],
        lambda d: d.set_markdown(page["id"], "# Pagination\n\nShorter.\n"),
    )
    entries = conn.execute(
        "SELECT COUNT(*) FROM revision_entries WHERE revision_id = ?", (revision,)
    ).fetchone()[0]
    objects_after = conn.execute("SELECT COUNT(*) FROM objects").fetchone()[0]
    conn.close()
    assert entries == 1  # the page's entry; every other entry is shared
    assert objects_after - objects_before == 2  # the new entry and the new body


async def test_changes_limit_and_more(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    first = (await admin.get(_space(ids) + "/content")).json()
    parent = (await admin.get(_space(ids) + f"/revisions/{first['parents'][0]}")).json()
    while parent["parents"]:  # walk back to the import that followed the empty first revision
        first, parent = (
            parent,
            (await admin.get(_space(ids) + f"/revisions/{parent['parents'][0]}")).json(),
        )
    empty = await admin.get(_space(ids) + f"/revisions/{parent['id']}/changes")
    assert empty.json() == {"changes": []}
    body = (
        await admin.get(_space(ids) + f"/revisions/{first['id']}/changes", params={"limit": 3})
    ).json()
    assert len(body["changes"]) == 3 and body["more"] > 0
    assert {c["type"] for c in body["changes"]} == {"page_created"}


async def test_revision_ids_are_checked(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    other = (await admin.get(_space(ids, "Release Notes") + "/content")).json()["id"]
    wrong = await admin.get(_space(ids) + f"/revisions/{other}")
    assert "not found in space" in error_of(wrong, 404)
    unknown = await admin.get(_space(ids) + "/revisions/nope/pages")
    assert "revision 'nope' not found" in error_of(unknown, 404)


async def test_lists_page_and_refuse_bad_limits(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    seen: list[str] = []
    params: dict[str, Any] = {"limit": 1}
    while True:
        body = (await admin.get(_space(ids) + "/content/files", params=params)).json()
        seen += [f["id"] for f in body["items"]]
        if "next" not in body:
            break
        params["page"] = body["next"]["page"]
    assert len(seen) == len(set(seen)) == body["count"] == 3
    too_many = await admin.get(_space(ids) + "/content/files", params={"limit": 1001})
    assert "limit: must be at most 1000" in error_of(too_many, 400)
    foreign = await admin.get(_space(ids) + "/links", params={"page": params["page"]})
    assert "page:" in error_of(foreign, 400)


async def test_who_may_read_content(api: Api, ids: DemoIds) -> None:
    url = _space(ids) + "/content/pages"
    assert (await api(READER).get(url)).status_code == 200
    assert "not found" in error_of(await api(LUMEN_ADMIN).get(url), 404)
    assert error_of(await api(None).get(url), 401)
    guest_space = _space(ids, "Webhooks Guide") + "/content/pages"
    assert (await api(GUEST).get(guest_space)).status_code == 200
    private = _space(ids, "Architecture Decisions") + "/content/pages"
    assert "not found" in error_of(await api(GUEST).get(private), 404)


async def test_a_deleted_space_has_no_content(api: Api, ids: DemoIds) -> None:
    admin = api(ADMIN)
    assert (await admin.delete(_space(ids))).status_code in (204, 205)
    response = await admin.get(_space(ids) + "/content")
    assert "is deleted" in error_of(response, 404)


async def test_templates(api: Api, ids: DemoIds) -> None:
    admin, editor, reader = api(ADMIN), api(EDITOR), api(READER)
    created = await admin.post(
        f"/v1/orgs/{ids.northwind}/spaces",
        json={"title": "New API", "template": {"id": "api-reference"}},
    )
    assert created.status_code == 201, created.text
    space = f"/v1/spaces/{created.json()['id']}"
    pages = (await admin.get(space + "/content/pages")).json()["pages"]
    assert [p["title"] for p in pages] == ["Overview", "Endpoints"]
    assert [c["title"] for c in pages[0]["pages"]] == ["Errors", "Pagination"]
    applied = await editor.post(space + "/content/template", json={"id": "changelog"})
    assert applied.status_code == 201 and applied.content == b""
    pages = (await admin.get(space + "/content/pages")).json()["pages"]
    assert [p["title"] for p in pages] == ["Overview", "Endpoints", "Changelog"]
    unknown = await editor.post(space + "/content/template", json={"id": "blog"})
    message = error_of(unknown, 400)
    assert "no template 'blog'" in message and "api-reference, changelog" in message
    forbidden = await reader.post(space + "/content/template", json={"id": "changelog"})
    assert "edit role" in error_of(forbidden, 403)
    bad = await admin.post(f"/v1/orgs/{ids.northwind}/spaces", json={"template": {"id": "nope"}})
    assert "template.id: no template 'nope'" in error_of(bad, 400)
    missing = await editor.post(space + "/content/template", json={})
    assert "id: is required" in error_of(missing, 400)


async def test_duplicate_copies_content(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    copy = (await admin.post(_space(ids) + "/duplicate")).json()
    original = (await admin.get(_space(ids) + "/content/pages")).json()
    copied = (await admin.get(f"/v1/spaces/{copy['id']}/content/pages")).json()
    assert copied == original or [p["title"] for p in copied["pages"]] == [
        p["title"] for p in original["pages"]
    ]
    files = (await admin.get(f"/v1/spaces/{copy['id']}/content/files")).json()["items"]
    url = files[0]["downloadURL"].removeprefix("http://sandbox.test")
    assert (await admin.get(url)).status_code == 200


async def test_a_purged_space_leaves_no_content_behind_but_shared_objects_stay(
    api: Api, ids: DemoIds, sandbox_db: Path, clock: Any
) -> None:
    admin = api(ADMIN)
    copy = (await admin.post(_space(ids) + "/duplicate")).json()["id"]
    assert (await admin.delete(_space(ids))).status_code in (204, 205)
    clock.advance(timedelta(days=8))
    await admin.get("/v1/orgs")  # the lazy purge runs on the next request
    conn = sqlite3.connect(sandbox_db)
    indexed = conn.execute(
        "SELECT COUNT(*) FROM search_sections WHERE space_id = ?", (ids.spaces[API_DOCS],)
    ).fetchone()[0]
    conn.close()
    assert indexed == 0
    files = (await admin.get(f"/v1/spaces/{copy}/content/files")).json()["items"]
    url = files[0]["downloadURL"].removeprefix("http://sandbox.test")
    assert (await admin.get(url)).status_code == 200, "the copy's bytes are still there"
    hits = await admin.get(f"/v1/spaces/{copy}/search", params={"query": "idempotency"})
    assert hits.json()["items"]


async def test_page_and_revision_app_urls_open(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    revision = (await admin.get(_space(ids) + "/content")).json()
    page = revision["pages"][0]
    for url in (page["urls"]["app"], revision["urls"]["app"]):
        response = await admin.get(url.removeprefix("http://sandbox.test"))
        assert response.status_code == 200 and "text/html" in response.headers["content-type"]
    assert page["title"] in (await admin.get(page["urls"]["app"])).text
