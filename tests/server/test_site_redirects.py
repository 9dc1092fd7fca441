"""Site redirects: create, update, delete, list, resolve, validation, and the published HTML
following them."""

from __future__ import annotations

from urllib.parse import urlsplit

import httpx
import pytest

from ._support import Api, DemoIds, error_of


def st(ids: DemoIds) -> str:
    return f"/v1/orgs/{ids.northwind}/sites/{ids.sites['Developer Portal']}"


async def test_demo_redirects_resolve(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    listed = (await admin.get(f"{st(ids)}/redirects")).json()
    assert [r["source"] for r in listed["items"]] == ["/api-reference", "/guides/webhooks"]
    found = await admin.get(f"{st(ids)}/redirect", params={"source": "/guides/webhooks"})
    assert found.status_code == 200
    assert found.json()["target"].endswith("/s/northwind/developers/api/webhooks-beta/")
    error_of(await admin.get(f"{st(ids)}/redirect", params={"source": "/nope"}), 404)


async def test_create_update_delete(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    sections = (await admin.get(f"{st(ids)}/sections")).json()["items"]
    design = next(s for s in sections if s["title"] == "Design")
    body = {
        "source": "/look",
        "destination": {"kind": "site-section", "siteSectionId": design["id"]},
    }
    created = await admin.post(f"{st(ids)}/redirects", json=body)
    assert created.status_code == 201, created.text
    redirect = created.json()
    assert (
        redirect["object"] == "site-redirect" and redirect["destination"]["kind"] == "site-section"
    )
    assert error_of(await admin.post(f"{st(ids)}/redirects", json=body), 400).startswith("source:")
    # After a path change, the redirect still leads to the section's new URL.
    await admin.patch(f"{st(ids)}/sections/{design['id']}", json={"path": "design-system"})
    target = (await admin.get(f"{st(ids)}/redirect", params={"source": "/look"})).json()["target"]
    assert target.endswith("/developers/design-system/")
    ss = design["siteSpaces"][0]["id"]
    updated = await admin.patch(
        f"{st(ids)}/redirects/{redirect['id']}",
        json={
            "source": "/looks",
            "destination": {"kind": "site-page", "siteSpaceId": ss, "pageId": "p1"},
        },
    )
    assert updated.status_code == 200 and updated.json()["source"] == "/looks"
    assert (await admin.delete(f"{st(ids)}/redirects/{redirect['id']}")).status_code == 204
    error_of(await admin.get(f"{st(ids)}/redirect", params={"source": "/looks"}), 404)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (
            {"source": "no-slash", "destination": {"kind": "site-space", "siteSpaceId": "x"}},
            "source",
        ),
        ({"source": "/a/", "destination": {"kind": "site-space", "siteSpaceId": "x"}}, "source"),
        (
            {"source": "/a", "destination": {"kind": "site-space", "siteSpaceId": "x"}},
            "destination.siteSpaceId",
        ),
        ({"source": "/a", "destination": {"kind": "elsewhere"}}, "destination"),
        ({"source": "/a"}, "destination"),
    ],
)
async def test_validation(
    admin: httpx.AsyncClient, ids: DemoIds, body: dict[str, object], field: str
) -> None:
    message = error_of(await admin.post(f"{st(ids)}/redirects", json=body), 400)
    assert message.startswith(f"{field}"), message


async def test_the_published_html_follows_redirects(
    admin: httpx.AsyncClient, api: Api, ids: DemoIds
) -> None:
    links = (await admin.get(f"{st(ids)}/share-links")).json()["items"]
    url = next(link for link in links if link["name"] == "Partners")["urls"]["published"]
    parts = urlsplit(url)
    response = await api(None).get(f"{parts.path}guides/webhooks/?{parts.query}")
    assert response.status_code == 302
    assert (
        response.headers["location"] == f"/s/northwind/developers/api/webhooks-beta/?{parts.query}"
    )
    followed = await api(None).get(response.headers["location"])
    assert "Webhooks Guide" in followed.text
