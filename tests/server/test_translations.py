"""Translations: the API, and jobs through a translator (none, pseudo, or a command)."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from docdeck.server import create_app
from docdeck.server.translations.translator import CommandTranslator, PseudoTranslator

from ._support import ADMIN, EDITOR, LUMEN_ADMIN, DemoIds, error_of

DOC = {
    "object": "document",
    "data": {},
    "nodes": [{"object": "block", "type": "paragraph", "nodes": []}],
}


async def test_demo_translation_waits_for_a_translator(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    items = (await admin.get(f"/v1/orgs/{ids.northwind}/translations")).json()["items"]
    assert [(t["status"], t["language"]) for t in items] == [("pending", "fr")]
    assert items[0]["stats"]["runs"] == 0 and "result" not in items[0]


async def test_life_cycle_without_translator(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    base = f"/v1/orgs/{ids.northwind}/translations"
    source = {"space": ids.spaces["Webhooks Guide"], "language": "en"}
    made = await admin.post(base, json={"language": "de", "source": source})
    assert made.status_code == 201, made.text
    translation = made.json()
    assert translation["status"] == "pending"
    assert translation["instructions"] == {"object": "document", "data": {}, "nodes": []}
    path = f"{base}/{translation['id']}"
    assert (await admin.get(path)).json() == translation
    updated = await admin.put(path, json={"instructions": DOC})
    assert updated.status_code == 200 and updated.json()["instructions"] == DOC
    assert "instructions" in error_of(await admin.put(path, json={}), 400)
    assert (await admin.delete(path)).status_code == 205
    assert (await admin.delete(path)).status_code == 204
    error_of(await admin.get(path), 404)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"language": "xx", "source": {"space": "s", "language": "en"}}, "language"),
        ({"language": "fr"}, "source"),
        ({"language": "fr", "source": {"space": "nope", "language": "en"}}, "source.space"),
        ({"language": "en", "source": {"space": "s", "language": "en"}}, "language"),
        (
            {"language": "fr", "source": {"space": "s", "language": "en"}, "instructions": {}},
            "instructions",
        ),
        ({"language": "fr", "source": {"space": "s", "language": "en"}, "x": 1}, "x"),
    ],
)
async def test_bad_bodies(
    admin: httpx.AsyncClient, ids: DemoIds, body: dict[str, Any], field: str
) -> None:
    message = error_of(await admin.post(f"/v1/orgs/{ids.northwind}/translations", json=body), 400)
    assert field in message


async def test_roles_and_hostile_text(api: Any, ids: DemoIds) -> None:
    base = f"/v1/orgs/{ids.northwind}/translations"
    source = {"space": ids.spaces["Webhooks Guide"], "language": "en"}
    error_of(await api(EDITOR).post(base, json={"language": "fr", "source": source}), 403)
    error_of(await api(LUMEN_ADMIN).get(base), 404)
    lone = b'{"language": "fr", "source": {"space": "\\ud800", "language": "en"}}'
    response = await api(ADMIN).post(
        base, content=lone, headers={"Content-Type": "application/json"}
    )
    error_of(response, 400)


async def _completed(client: httpx.AsyncClient, path: str) -> dict[str, Any]:
    ends = time.monotonic() + 60
    while True:
        body: dict[str, Any] = (await client.get(path)).json()
        if body["status"] == "completed" or body.get("stats", {}).get("runs"):
            return body
        assert time.monotonic() < ends, body
        await asyncio.sleep(0.05)


@pytest.mark.parametrize("kind", ["pseudo", "command"])
async def test_job_translates_every_page(
    sandbox_db: Path, token_for: Any, ids: DemoIds, kind: str, tmp_path: Path
) -> None:
    app: FastAPI = create_app(sandbox_db, public_url="http://sandbox.test")
    if kind == "pseudo":
        app.state.translator = PseudoTranslator()
    else:
        script = tmp_path / "upper.py"
        script.write_text("import sys\nsys.stdout.write(sys.stdin.read().upper())\n")
        app.state.translator = CommandTranslator((sys.executable, str(script)))
    headers = {"Authorization": f"Bearer {token_for(ADMIN)}"}
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://sandbox.test", headers=headers
    ) as client:
        base = f"/v1/orgs/{ids.northwind}/translations"
        source = {"space": ids.spaces["Webhooks Guide"], "language": "en"}
        made = (await client.post(base, json={"language": "fr", "source": source})).json()
        done = await _completed(client, f"{base}/{made['id']}")
        assert done["status"] == "completed", done
        assert done["stats"]["runs"] == 1 and done["stats"]["totalPages"] > 0
        result = done["result"]
        pages = (await client.get(f"/v1/spaces/{result['space']}/content/pages")).json()["pages"]
        titles = [p["title"] for p in pages]
        if kind == "pseudo":
            assert all(t.startswith("⟦") for t in titles), titles
        else:
            assert all(t == t.upper() for t in titles), titles
