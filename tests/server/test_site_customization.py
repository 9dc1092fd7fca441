"""Site customization: read the defaults, replace them as a whole (validated against the
platform's schema, naming where it fails), and per-site-space overrides."""

from __future__ import annotations

import copy
from urllib.parse import urlsplit

import httpx
import pytest

from ._support import Api, DemoIds, error_of


def st(ids: DemoIds) -> str:
    return f"/v1/orgs/{ids.northwind}/sites/{ids.sites['Handbook']}"


async def test_replace_and_read_back(admin: httpx.AsyncClient, api: Api, ids: DemoIds) -> None:
    settings = (await admin.get(f"{st(ids)}/customization")).json()
    assert settings["internationalization"] == {"locale": "en"}
    settings["title"] = "Northwind Handbook"
    settings["styling"]["theme"] = "bold"
    saved = await admin.put(f"{st(ids)}/customization", json=settings)
    assert saved.status_code == 200 and saved.json() == settings
    assert (await admin.get(f"{st(ids)}/customization")).json() == settings
    published = (await admin.get(st(ids))).json()["urls"]["published"]
    page = await api(None).get(urlsplit(published).path)
    assert "<h2>Northwind Handbook</h2>" in page.text


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda s: s["styling"].update(theme="pink"), "styling.theme"),
        (lambda s: s.pop("pdf"), "pdf"),
        (lambda s: s["styling"]["primaryColor"].update(light="blue"), "styling.primaryColor.light"),
        (lambda s: s.update(colour="red"), "colour"),
        (lambda s: s.update(title="x"), "title"),
    ],
)
async def test_replacement_is_validated(
    admin: httpx.AsyncClient, ids: DemoIds, change: object, where: str
) -> None:
    before = (await admin.get(f"{st(ids)}/customization")).json()
    settings = copy.deepcopy(before)
    change(settings)  # type: ignore[operator]
    message = error_of(await admin.put(f"{st(ids)}/customization", json=settings), 400)
    assert message.startswith(f"{where}:"), message
    assert (await admin.get(f"{st(ids)}/customization")).json() == before


async def test_site_space_overrides(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    site_space = (await admin.get(f"{st(ids)}/site-spaces")).json()["items"][0]["id"]
    url = f"{st(ids)}/site-spaces/{site_space}/customization"
    assert (await admin.delete(url)).status_code == 204  # nothing to remove
    patched = await admin.patch(url, json={"styling": {"theme": "muted"}, "title": "Welcome"})
    assert patched.status_code == 200, patched.text
    assert patched.json()["styling"]["theme"] == "muted"
    assert patched.json()["styling"]["corners"] == "rounded"  # the site's, untouched
    assert (await admin.get(url)).json() == patched.json()
    view = (await admin.get(f"{st(ids)}/published")).json()
    # the platform documents each entry as a whole customization: the site's with the override
    assert view["customizations"]["siteSpaces"][site_space] == patched.json()
    reset = (await admin.patch(url, json={"styling": {"theme": None}})).json()
    assert reset["styling"]["theme"] == "clean" and reset["title"] == "Welcome"
    message = error_of(await admin.patch(url, json={"styling": {"theme": "pink"}}), 400)
    assert message.startswith("styling.theme:")
    assert (await admin.delete(url)).status_code == 205
    assert "title" not in (await admin.get(url)).json()
    error_of(await admin.get(f"{st(ids)}/site-spaces/nope/customization"), 404)


async def test_the_site_icon_is_its_favicon(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    assert (await admin.get(st(ids))).json()["icon"] is None
    settings = (await admin.get(f"{st(ids)}/customization")).json()
    settings["favicon"] = {"emoji": "📘"}
    assert (await admin.put(f"{st(ids)}/customization", json=settings)).status_code == 200
    assert (await admin.get(st(ids))).json()["icon"] == {"emoji": "📘"}
