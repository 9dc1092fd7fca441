"""Sites: create and update validation, share links and share keys, the adaptive schema and
conditions, publishing with its checkout branch, preview and the published view."""

from __future__ import annotations

import copy

import httpx
import pytest

from ._support import ADMIN, Api, DemoIds, error_of

PORTAL = "Developer Portal"


def st(ids: DemoIds, title: str = PORTAL) -> str:
    org = ids.lumen if title == "Lumen Docs" else ids.northwind
    return f"/v1/orgs/{org}/sites/{ids.sites[title]}"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"title": "x"}, "title"),
        ({"title": "x" * 129}, "title"),
        ({"basename": ""}, "basename"),
        ({"basename": "a/b"}, "basename"),
        ({"basename": "handbook"}, "basename"),
        ({"proxy": "not a proxy"}, "proxy"),
        ({"hostname": "Docs.Example.com"}, "hostname"),
        ({"visibility": "secret"}, "visibility"),
        ({"agentsContext": "maybe"}, "agentsContext"),
        ({"adaptiveContent": {"enabled": "yes"}}, "adaptiveContent.enabled"),
        ({"defaultSiteSpace": "nope"}, "defaultSiteSpace"),
        ({"title": None}, "title"),
        ({"colour": "red"}, "colour"),
    ],
)
async def test_site_update_validation(
    admin: httpx.AsyncClient, ids: DemoIds, body: dict[str, object], field: str
) -> None:
    before = (await admin.get(st(ids))).json()
    message = error_of(await admin.patch(st(ids), json=body), 400)
    assert message.startswith(f"{field}:"), message
    assert (await admin.get(st(ids))).json() == before


async def test_site_update_every_field(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    body = {
        "title": "Portal",
        "basename": "portal",
        "hostname": "docs.northwind.dev",
        "proxy": "northwind.dev/docs",
        "agentsContext": "excluded",
        "adaptiveContent": {"enabled": False},
    }
    site = (await admin.patch(st(ids), json=body)).json()
    assert site["title"] == "Portal" and site["basename"] == "portal"
    assert site["hostname"] == "docs.northwind.dev"
    assert site["proxy"]["origin"] == "northwind.dev/docs"
    assert site["agentsContext"] == "excluded" and site["adaptiveContent"] == {"enabled": False}
    assert site["urls"]["published"].endswith("/s/northwind/portal/")
    assert "proxy" not in (await admin.patch(st(ids), json={"proxy": None})).json()


async def test_create_with_a_new_space_and_list_filters(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    org = f"/v1/orgs/{ids.northwind}"
    created = await admin.post(f"{org}/sites", json={"title": "Fresh", "spaces": "empty"})
    assert created.status_code == 201 and created.headers["location"].endswith(created.json()["id"])
    assert created.json()["siteSpaces"] == 1 and created.json()["type"] == "basic"
    spaces = (await admin.get(f"{org}/spaces", params={"limit": 1000})).json()["items"]
    assert "Fresh" in [s["title"] for s in spaces]
    message = error_of(await admin.post(f"{org}/sites", json={"spaces": ["nope"]}), 400)
    assert message.startswith("spaces[0]:")
    error_of(await admin.post(f"{org}/sites", json={"spaces": "bogus"}), 400)
    titles = lambda body: sorted(s["title"] for s in body["items"])  # noqa: E731
    assert titles((await admin.get(f"{org}/sites", params={"title": "PORTAL"})).json()) == [PORTAL]
    unpublished = (await admin.get(f"{org}/sites", params={"published": "false"})).json()
    assert titles(unpublished) == ["Fresh", "Internal Drafts"]
    using = (await admin.get(f"{org}/sites", params={"space": ids.spaces["Release Notes"]})).json()
    assert titles(using) == [PORTAL, "Internal Drafts"]


async def test_share_links_and_share_keys(api: Api, ids: DemoIds) -> None:
    admin = api(ADMIN)
    links = (await admin.get(f"{st(ids)}/share-links")).json()["items"]
    assert {(link["name"], link["active"]) for link in links} == {
        ("Partners", True),
        ("Old beta testers", False),
    }
    keys = {link["name"]: link["urls"]["published"].split("shareKey=")[1] for link in links}
    assert all(len(key) >= 32 for key in keys.values())
    created = (await admin.post(f"{st(ids)}/share-links", json={"name": "Press"})).json()
    new_key = created["urls"]["published"].split("shareKey=")[1]
    assert new_key not in keys.values()
    error_of(await admin.post(f"{st(ids)}/share-links", json={"name": "x" * 51}), 400)
    error_of(await admin.post(f"{st(ids)}/share-links", json={}), 400)
    error_of(await admin.patch(f"{st(ids)}/share-links/{created['id']}", json={}), 400)
    # A share key resolves published URLs everywhere it is accepted.
    for path in ("/published", "/structure", "/sections", "/site-spaces"):
        response = await admin.get(f"{st(ids)}{path}", params={"shareKey": keys["Partners"]})
        assert response.status_code == 200, (path, response.text)
        assert f"shareKey={keys['Partners']}" in response.text, path
        inactive = await admin.get(
            f"{st(ids)}{path}", params={"shareKey": keys["Old beta testers"]}
        )
        assert error_of(inactive, 400).startswith("shareKey:")
        assert error_of(
            await admin.get(f"{st(ids)}{path}", params={"shareKey": "guess"}), 400
        ).startswith("shareKey:")
    # Deactivating refuses the key; renaming keeps it.
    link_id = next(link["id"] for link in links if link["name"] == "Partners")
    renamed = await admin.patch(
        f"{st(ids)}/share-links/{link_id}", json={"name": "Partners 2", "active": False}
    )
    assert renamed.json()["name"] == "Partners 2" and renamed.json()["active"] is False
    refused = await admin.get(f"{st(ids)}/published", params={"shareKey": keys["Partners"]})
    error_of(refused, 400)
    assert (await admin.delete(f"{st(ids)}/share-links/{link_id}")).status_code == 204
    assert len((await admin.get(f"{st(ids)}/share-links")).json()["items"]) == 2


VALID_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "plan": {"type": "string", "enum": ["free", "pro"], "description": "Plan"},
        "seats": {"type": "number", "description": "Seats"},
        "roles": {
            "type": "array",
            "description": "Roles",
            "items": {"type": "string", "enum": ["dev", "ops"], "description": "Role"},
        },
        "company": {
            "type": "object",
            "description": "Company",
            "properties": {"vip": {"type": "boolean", "description": "VIP"}},
            "additionalProperties": False,
        },
        "unsigned": {
            "type": "object",
            "description": "Unsigned claims of the site visitor.",
            "properties": {"beta": {"type": "boolean", "description": "Beta"}},
            "additionalProperties": False,
        },
    },
    "additionalProperties": False,
}


def _broken(change: str) -> dict[str, object]:
    schema = copy.deepcopy(VALID_SCHEMA)
    props = schema["properties"]
    assert isinstance(props, dict)
    if change == "extra-top":
        schema["additionalProperties"] = True
    elif change == "no-description":
        del props["seats"]["description"]
    elif change == "bad-type":
        props["seats"]["type"] = "integer"
    elif change == "nested-open":
        props["company"]["additionalProperties"] = True
    elif change == "not-object":
        schema["type"] = "array"
    return schema


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ("extra-top", "jsonSchema.additionalProperties"),
        ("no-description", "jsonSchema.properties.seats"),
        ("bad-type", "jsonSchema.properties.seats"),
        ("nested-open", "jsonSchema.properties.company"),
        ("not-object", "jsonSchema.type"),
    ],
)
async def test_adaptive_schema_is_validated(
    admin: httpx.AsyncClient, ids: DemoIds, change: str, where: str
) -> None:
    before = (await admin.get(f"{st(ids)}/adaptive-schema")).json()
    response = await admin.put(f"{st(ids)}/adaptive-schema", json={"jsonSchema": _broken(change)})
    message = error_of(response, 400)
    assert message.startswith(where), message
    assert (await admin.get(f"{st(ids)}/adaptive-schema")).json() == before


async def test_adaptive_schema_conditions_and_templates(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    handbook = st(ids, "Handbook")
    error_of(await admin.get(f"{handbook}/adaptive-schema"), 404)
    assert (await admin.get(f"{handbook}/adaptive-schema/template-conditions")).json() == {
        "items": []
    }
    saved = await admin.put(f"{handbook}/adaptive-schema", json={"jsonSchema": VALID_SCHEMA})
    assert saved.status_code == 200 and saved.json()["jsonSchema"] == VALID_SCHEMA
    templates = (await admin.get(f"{handbook}/adaptive-schema/template-conditions")).json()
    conditions = [t["condition"] for t in templates["items"]]
    assert 'visitor.claims.plan === "pro"' in conditions
    assert 'visitor.claims.roles.includes("ops")' in conditions
    assert "visitor.claims.company.vip === true" in conditions
    assert "visitor.claims.unsigned.beta === true" in conditions
    site_space = (await admin.get(f"{handbook}/site-spaces")).json()["items"][0]["id"]
    url = f"{handbook}/site-spaces/{site_space}"
    for condition in conditions:
        response = await admin.patch(url, json={"condition": condition})
        assert response.status_code == 200, (condition, response.text)
    message = error_of(
        await admin.patch(url, json={"condition": "visitor.claims.company.size > 10"}), 400
    )
    assert "'visitor.claims.company.size'" in message and message.startswith("condition:")
    error_of(await admin.patch(url, json={"condition": "visitor.claims.nope"}), 400)
    assert (await admin.get(url.rsplit("/", 2)[0] + "/site-spaces")).status_code == 200


async def test_publish_unpublish_and_checkout(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    drafts = st(ids, "Internal Drafts")
    error_of(await admin.get(f"{drafts}/published"), 404)
    published = (await admin.post(f"{drafts}/publish")).json()
    assert published["published"] is True and "published" in published["urls"]
    view = (await admin.get(f"{drafts}/published")).json()
    assert view["object"] == "published-content-site"
    assert view["structure"]["type"] == "siteSpaces"
    assert view["customizations"]["site"]["internationalization"] == {"locale": "en"}
    assert view["scripts"] == []
    unpublished = (await admin.post(f"{drafts}/unpublish")).json()
    assert unpublished["published"] is False and "published" not in unpublished["urls"]
    # Lumen Docs: a basic site with visitor authentication, which needs the ultimate plan.
    lumen = st(ids, "Lumen Docs")
    checkout = await admin.post(f"{lumen}/publish")
    assert checkout.status_code == 200
    assert checkout.json()["type"] == "checkout" and checkout.json()["sessionId"]
    assert (await admin.get(lumen)).json()["published"] is False


async def test_preview_url(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    drafts = st(ids, "Internal Drafts")
    url = (await admin.get(f"{drafts}/publishing/preview")).json()["url"]
    assert "/s/northwind/drafts/?preview=" in url
    error_of(await admin.get(f"{drafts}/publishing/preview", params={"siteSpace": "x"}), 400)


async def test_the_share_link_flow_can_be_tried_on_the_demo(
    admin: httpx.AsyncClient, api: Api, ids: DemoIds
) -> None:
    """Internal Drafts' plan has share links: publish it shared by link, open it with a key."""
    drafts = st(ids, "Internal Drafts")
    patched = await admin.patch(drafts, json={"visibility": "share-link"})
    assert patched.status_code == 200, patched.text
    link = (await admin.post(f"{drafts}/share-links", json={"name": "Reviewers"})).json()
    published = (await admin.post(f"{drafts}/publish")).json()
    assert published.get("published") is True, published  # not a checkout
    browser = api(None)
    page = await browser.get(link["urls"]["published"].removeprefix("http://sandbox.test"))
    assert page.status_code == 200 and "Release Notes" in page.text
    bare = published["urls"]["published"].removeprefix("http://sandbox.test")
    assert (await browser.get(bare)).status_code == 403
