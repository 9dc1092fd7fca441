"""The sandbox serves a published site as plain HTML at its published URL, honouring
publication, visibility, share keys, preview tokens, defaults and redirects."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from ._support import Api, DemoIds


def _path(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


@pytest.fixture
def browser(api: Api) -> httpx.AsyncClient:
    """A client without a token, as a browser opening the published URL."""
    return api(None)


async def _visit(browser: httpx.AsyncClient, url: str) -> httpx.Response:
    return await browser.get(_path(url))


def _where(page: httpx.Response) -> str:
    """The line above the heading naming the section and space the page belongs to."""
    found = re.search(r"<p class='where'>(.*?)</p>", page.text)
    assert found is not None, page.text
    return found.group(1)


async def test_a_public_site_and_its_default(
    admin: httpx.AsyncClient, browser: httpx.AsyncClient, ids: DemoIds
) -> None:
    st = f"/v1/orgs/{ids.northwind}/sites/{ids.sites['Handbook']}"
    site = (await admin.get(st)).json()
    page = await _visit(browser, site["urls"]["published"])
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert _where(page) == "👋 Onboarding"  # the default site space
    assert "Design System" in page.text and "noindex" not in page.text
    other = (await admin.get(f"{st}/site-spaces", params={"default": "false"})).json()["items"]
    page = await _visit(browser, other[0]["urls"]["published"])
    assert _where(page) == "🎨 Design System"
    # Restructuring shows at once: make Design System the default.
    await admin.patch(st, json={"defaultSiteSpace": other[0]["id"]})
    page = await _visit(browser, site["urls"]["published"])
    assert _where(page) == "🎨 Design System"
    missing = await _visit(browser, site["urls"]["published"] + "nope/")
    assert missing.status_code == 404


async def test_share_link_site_needs_an_active_key(
    admin: httpx.AsyncClient, browser: httpx.AsyncClient, ids: DemoIds
) -> None:
    st = f"/v1/orgs/{ids.northwind}/sites/{ids.sites['Developer Portal']}"
    site = (await admin.get(st)).json()
    assert (await _visit(browser, site["urls"]["published"])).status_code == 403
    links = {
        link["name"]: link["urls"]["published"]
        for link in (await admin.get(f"{st}/share-links")).json()["items"]
    }
    assert (await _visit(browser, links["Old beta testers"])).status_code == 403
    page = await _visit(browser, links["Partners"])
    assert page.status_code == 200
    assert "Build" in page.text and "Operate" in page.text  # the section groups
    assert _where(page) == "API › 📘 Public API Reference"
    # The variant with its condition, through a URL the API hands out with the key.
    key = links["Partners"].split("shareKey=")[1]
    variants = (await admin.get(f"{st}/site-spaces", params={"shareKey": key})).json()["items"]
    beta = next(v for v in variants if v["path"] == "webhooks-beta")
    page = await _visit(browser, beta["urls"]["published"])
    assert _where(page) == "API › 🪝 Webhooks Guide"
    assert "visitor.claims.isBeta === true" in page.text
    assert f"shareKey={key}" in page.text  # navigation keeps the key


async def test_unpublished_sites_and_previews(
    admin: httpx.AsyncClient, browser: httpx.AsyncClient, ids: DemoIds, clock: Any
) -> None:
    st = f"/v1/orgs/{ids.northwind}/sites/{ids.sites['Internal Drafts']}"
    assert (await _visit(browser, "http://t/s/northwind/drafts/")).status_code == 404
    preview = (await admin.get(f"{st}/publishing/preview")).json()["url"]
    page = await _visit(browser, preview)
    assert page.status_code == 200 and "Release Notes" in page.text
    clock.advance(timedelta(hours=2))
    assert (await _visit(browser, preview)).status_code == 404  # as if there were no site
    published = (await admin.post(f"{st}/publish")).json()
    page = await _visit(browser, published["urls"]["published"])
    assert page.status_code == 200 and "noindex" in page.text  # unlisted


async def test_visitor_auth_sites_are_refused(
    admin: httpx.AsyncClient, browser: httpx.AsyncClient, ids: DemoIds
) -> None:
    assert (await _visit(browser, "http://t/s/lumen/docs/")).status_code == 404  # unpublished
    body = {"type": "ultimate", "visibility": "visitor-auth", "title": "Members only"}
    created = (await admin.post(f"/v1/orgs/{ids.northwind}/sites", json=body)).json()
    st = f"/v1/orgs/{ids.northwind}/sites/{created['id']}"
    await admin.post(f"{st}/site-spaces", json={"spaceId": ids.spaces["Onboarding"]})
    published = (await admin.post(f"{st}/publish")).json()
    assert published["published"] is True
    assert (await _visit(browser, published["urls"]["published"])).status_code == 403
    preview = (await admin.get(f"{st}/publishing/preview")).json()["url"]
    assert (await _visit(browser, preview)).status_code == 200


async def test_the_app_url_opens(
    admin: httpx.AsyncClient, browser: httpx.AsyncClient, ids: DemoIds
) -> None:
    site = (await admin.get(f"/v1/orgs/{ids.northwind}/sites/{ids.sites['Handbook']}")).json()
    page = await _visit(browser, site["urls"]["app"])
    assert page.status_code == 200 and "Handbook" in page.text


async def test_published_pages_cannot_be_framed_or_leak_their_key(
    admin: httpx.AsyncClient, browser: httpx.AsyncClient, ids: DemoIds
) -> None:
    st = f"/v1/orgs/{ids.northwind}/sites/{ids.sites['Developer Portal']}"
    link = (await admin.get(f"{st}/share-links")).json()["items"]
    page = await _visit(
        browser, next(i for i in link if i["name"] == "Partners")["urls"]["published"]
    )
    assert page.status_code == 200
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert page.headers["referrer-policy"] == "no-referrer"
    refused = await _visit(browser, "http://t/s/northwind/developers/")
    assert "frame-ancestors 'none'" in refused.headers["content-security-policy"]


async def test_a_bad_preview_tells_nothing_about_basenames(
    browser: httpx.AsyncClient, ids: DemoIds
) -> None:
    unpublished = await _visit(browser, "http://t/s/northwind/drafts/?preview=x")
    missing = await _visit(browser, "http://t/s/northwind/no-such-site/?preview=x")
    assert unpublished.status_code == missing.status_code == 404
    assert unpublished.text == missing.text
    plain = await _visit(browser, "http://t/s/northwind/drafts/")
    assert plain.text == missing.text
    public = await _visit(browser, "http://t/s/northwind/handbook/?preview=x")
    assert public.status_code == 200 and "Onboarding" in public.text
    shared = await _visit(browser, "http://t/s/northwind/developers/?preview=x")
    assert shared.status_code == 403  # a share-link site still needs its key


async def test_a_change_requests_app_url_opens(
    admin: httpx.AsyncClient, browser: httpx.AsyncClient, ids: DemoIds
) -> None:
    space = ids.spaces["Webhooks Guide"]
    crs = (await admin.get(f"/v1/spaces/{space}/change-requests")).json()["items"]
    page = await _visit(browser, crs[0]["urls"]["app"])
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert f"#{crs[0]['number']}" in page.text
    missing = await _visit(browser, f"http://t/app/spaces/{space}/change-requests/99999")
    assert missing.status_code == 404
