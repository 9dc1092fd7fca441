"""GET {CR}/pdf: a signed, expiring URL served by the sandbox to a PDF that a PDF library
opens, whose text holds the pages' headings."""

from __future__ import annotations

import io
import sqlite3
from datetime import UTC, datetime, timedelta

import httpx
import pypdf

from ._support import ADMIN, READER, Api, DemoIds, error_of


async def _pdf_text(client: httpx.AsyncClient, url: str) -> str:
    response = await client.get(url.removeprefix("http://sandbox.test"))
    assert response.status_code == 200, response.text
    assert response.content.startswith(b"%PDF")
    reader = pypdf.PdfReader(io.BytesIO(response.content))
    return "\n".join(page.extract_text() for page in reader.pages)


async def test_pdf_of_a_change_request(api: Api, ids: DemoIds, clock) -> None:
    admin = api(ADMIN)
    space = ids.spaces["Webhooks Guide"]
    created = (await admin.post(f"/v1/spaces/{space}/change-requests", json={})).json()
    cr = f"/v1/spaces/{space}/change-requests/{created['id']}"
    change = {
        "operation": "insert_page",
        "title": "Release checklist",
        "document": {
            "markdown": "## Steps\n\n1. Build\n2. Ship\n\n```sh\nmake release\n```\n\n"
            "| a | b |\n|---|---|\n| 1 | 2 |\n"
        },
    }
    await admin.post(f"{cr}/content", json={"changes": [change]})
    url = (await admin.get(f"{cr}/pdf")).json()["url"]
    assert "signature=" in url and "expires=" in url
    text = await _pdf_text(api(None), url)
    assert "Release checklist" in text and "Steps" in text and "make release" in text
    assert "Setup" in text  # the demo guide's pages are there too
    page = ids.content["page"]
    only = (await admin.get(f"{cr}/pdf", params={"page": page, "only": "true"})).json()["url"]
    only_text = await _pdf_text(admin, only)
    assert "Setup" in only_text and "Release checklist" not in only_text
    # a reader may ask too; the link is theirs
    assert (await api(READER).get(f"{cr}/pdf")).status_code == 200
    clock.advance(timedelta(days=2))
    expired = await api(None).get(url.removeprefix("http://sandbox.test"))
    assert expired.status_code == 403
    assert "page" in error_of(await admin.get(f"{cr}/pdf", params={"only": "true"}), 400)
    error_of(await admin.get(f"{cr}/pdf", params={"page": "nope"}), 404)
    error_of(await api(None).get(f"{cr}/pdf"), 401)
    error_of(await admin.get(f"/v1/spaces/{space}/change-requests/nope/pdf"), 404)


async def test_asking_again_for_the_same_content_stores_no_new_pdf(
    api: Api, ids: DemoIds, sandbox_db, clock
) -> None:
    """The PDF is dated with the revision's time, not the time of rendering: the same
    content gives the same bytes (the same stored object), so asking again does not grow
    the database by a copy each time."""
    clock.advance(timedelta(days=-1))  # the revision is a day older than the rendering
    admin = api(ADMIN)
    space = ids.spaces["Webhooks Guide"]
    created = (await admin.post(f"/v1/spaces/{space}/change-requests", json={})).json()
    cr = f"/v1/spaces/{space}/change-requests/{created['id']}"
    revision = (await admin.get(f"{cr}/content")).json()
    first = (await admin.get(f"{cr}/pdf")).json()["url"]
    response = await admin.get(first.removeprefix("http://sandbox.test"))
    reader = pypdf.PdfReader(io.BytesIO(response.content))
    assert reader.metadata is not None and reader.metadata.creation_date is not None
    made = reader.metadata.creation_date.astimezone(UTC)
    assert made == datetime.fromisoformat(revision["createdAt"]).replace(microsecond=0)
    conn = sqlite3.connect(sandbox_db)
    try:
        before = conn.execute("SELECT COUNT(*) FROM space_objects").fetchone()[0]
        second = (await admin.get(f"{cr}/pdf")).json()["url"]
        after = conn.execute("SELECT COUNT(*) FROM space_objects").fetchone()[0]
    finally:
        conn.close()
    assert after == before
    assert first.split("?")[0] == second.split("?")[0]


async def test_rendering_holds_no_transaction(
    api: Api, ids: DemoIds, sandbox_db, monkeypatch
) -> None:
    """Laying out a large change request takes seconds; while it runs, another writer must
    get the database (the handler used to render inside its write transaction)."""
    from docdeck.server.change_requests import pdf

    writes_during_render: list[str] = []
    real_render = pdf.render_pdf

    def render_and_write(*args, **kwargs):  # type: ignore[no-untyped-def]
        other = sqlite3.connect(sandbox_db, timeout=0)
        try:
            other.execute("BEGIN IMMEDIATE")
            other.execute("ROLLBACK")
            writes_during_render.append("ok")
        except sqlite3.OperationalError as exc:
            writes_during_render.append(str(exc))
        finally:
            other.close()
        return real_render(*args, **kwargs)

    monkeypatch.setattr(pdf, "render_pdf", render_and_write)
    space = ids.spaces["Webhooks Guide"]
    admin = api(ADMIN)
    created = (await admin.post(f"/v1/spaces/{space}/change-requests", json={})).json()
    response = await admin.get(f"/v1/spaces/{space}/change-requests/{created['id']}/pdf")
    assert response.status_code == 200, response.text
    assert writes_during_render == ["ok"]
