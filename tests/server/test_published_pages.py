"""The pages of a published site: each site space's page tree as navigation, each page's
markdown as safe HTML, links between pages resolved to published URLs, files through the
site, and hostile paths and bodies answered plainly (never a 500, never markup)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from docdeck.server.content.edits import Draft

from ._content import _edit
from ._support import Api, DemoIds

HANDBOOK = "/s/northwind/handbook/"
PORTAL = "/s/northwind/developers/"


@pytest.fixture
def browser(api: Api) -> httpx.AsyncClient:
    """A client without a token, as a browser opening the published URL."""
    return api(None)


@pytest.fixture
async def partners_key(admin: httpx.AsyncClient, ids: DemoIds) -> str:
    st = f"/v1/orgs/{ids.northwind}/sites/{ids.sites['Developer Portal']}"
    links = (await admin.get(f"{st}/share-links")).json()["items"]
    url = next(link["urls"]["published"] for link in links if link["name"] == "Partners")
    return str(url.split("shareKey=")[1])


def _heading(page: httpx.Response) -> str:
    found = re.search(r"<h1[^>]*>(.*?)</h1>", page.text)
    assert found is not None, page.text
    return found.group(1)


def _main(page: httpx.Response) -> str:
    return page.text.split("<main>", 1)[1]


def _hrefs(fragment: str) -> dict[str, str]:
    """Link text -> href of the `<a>` elements in an HTML fragment."""
    return {
        text: href.replace("&amp;", "&")
        for href, text in re.findall(r"<a[^>]* href=['\"]([^'\"]*)['\"][^>]*>(.*?)</a>", fragment)
    }


async def test_the_default_site_space_opens_on_its_first_page(browser: httpx.AsyncClient) -> None:
    page = await browser.get(HANDBOOK)
    assert page.status_code == 200
    assert _heading(page) == "👋 Welcome"
    assert page.text.count("Welcome to Northwind") == 1  # the body's own title is not repeated
    nav = page.text.split("<nav>", 1)[1].split("</nav>", 1)[0]
    links = _hrefs(nav)
    # The page tree, nested, as navigation, under its site space.
    assert links["💻 Setup"] == f"{HANDBOOK}onboarding/engineering/setup/"
    assert links["🏖️ Time off"] == f"{HANDBOOK}onboarding/people/time-off/"
    assert links["Design System"] == f"{HANDBOOK}design-system/"
    assert nav.index("🛠️ Engineering") < nav.index("💻 Setup") < nav.index("🧑‍🤝‍🧑 People")
    # Links of the body lead to the published pages, and those pages open.
    body = _hrefs(_main(page))
    assert body["Engineering setup"] == f"{HANDBOOK}onboarding/engineering/setup/"
    setup = await browser.get(body["Engineering setup"])
    assert setup.status_code == 200 and _heading(setup) == "💻 Setup"
    # A page of the default site space also opens without the site space's segment.
    short = await browser.get(f"{HANDBOOK}engineering/setup/")
    assert short.status_code == 200 and _heading(short) == "💻 Setup"


async def test_images_are_served_through_the_site(browser: httpx.AsyncClient) -> None:
    page = await browser.get(HANDBOOK)
    found = re.search(r'<img src="([^"]+)" alt="Team offsite"', page.text)
    assert found is not None and "/~files/" in found.group(1)
    image = await browser.get(found.group(1))
    assert image.status_code == 200 and image.headers["content-type"].startswith("image/")
    assert image.headers["content-security-policy"] == "sandbox"
    site_space, file_id = urlsplit(found.group(1)).path.split("/")[-2:]
    for bad in (f"{site_space}/nope", f"nope/{file_id}", site_space, f"{site_space}/{file_id}/x"):
        assert (await browser.get(f"{HANDBOOK}~files/{bad}")).status_code == 404


async def test_share_key_pages_links_and_anchors(
    browser: httpx.AsyncClient, partners_key: str
) -> None:
    key = f"?shareKey={partners_key}"
    base = f"{PORTAL}api/public-api-reference/"
    page = await browser.get(f"{base}guides/orders/order-lifecycle/{key}")
    assert page.status_code == 200 and _heading(page) == "Order lifecycle"
    links = _hrefs(_main(page))
    assert links["Event types"] == f"{base}guides/webhooks/event-types/{key}"
    # Every navigation link keeps the key, and following one works.
    nav = page.text.split("<nav>", 1)[1].split("</nav>", 1)[0]
    assert all(href.endswith(key) for href in _hrefs(nav).values())
    follow = await browser.get(links["Event types"])
    assert follow.status_code == 200 and _heading(follow) == "Event types"
    # A variant's pages live under the variant's path.
    beta = await browser.get(f"{PORTAL}api/webhooks-beta/{key}")
    assert beta.status_code == 200 and "Webhooks Guide" in beta.text
    # Without a key, with an unknown key, or with the inactive link's key: refused.
    for query in ("", "?shareKey=unknown", "?shareKey="):
        refused = await browser.get(f"{base}guides/orders/order-lifecycle/{query}")
        assert refused.status_code == 403 and "Order lifecycle" not in refused.text


async def test_the_inactive_share_link_opens_no_page_and_no_file(
    admin: httpx.AsyncClient, browser: httpx.AsyncClient, ids: DemoIds, partners_key: str
) -> None:
    st = f"/v1/orgs/{ids.northwind}/sites/{ids.sites['Developer Portal']}"
    links = (await admin.get(f"{st}/share-links")).json()["items"]
    old = next(link for link in links if link["name"] == "Old beta testers")
    old_key = old["urls"]["published"].split("shareKey=")[1]
    quickstart = f"{PORTAL}api/public-api-reference/getting-started/quickstart/"
    page = await browser.get(f"{quickstart}?shareKey={partners_key}")
    assert "/~files/" in page.text and f'?shareKey={partners_key}" alt="Request flow"' in page.text
    image = re.search(r'<img src="([^"?]+)', page.text)
    assert image is not None
    assert (await browser.get(f"{image.group(1)}?shareKey={partners_key}")).status_code == 200
    for key in (old_key, "nope"):
        assert (await browser.get(f"{image.group(1)}?shareKey={key}")).status_code == 403
        assert (await browser.get(f"{PORTAL}api/?shareKey={key}")).status_code == 403
    # Deactivating the working link refuses it from then on.
    partners = next(link for link in links if link["name"] == "Partners")
    await admin.patch(f"{st}/share-links/{partners['id']}", json={"active": False})
    assert (await browser.get(f"{PORTAL}?shareKey={partners_key}")).status_code == 403


async def test_unpublished_sites_serve_nothing_but_previews_do(
    admin: httpx.AsyncClient, browser: httpx.AsyncClient, ids: DemoIds
) -> None:
    st = f"/v1/orgs/{ids.northwind}/sites/{ids.sites['Internal Drafts']}"
    preview = (await admin.get(f"{st}/publishing/preview")).json()["url"]
    parts = urlsplit(preview)
    opened = await browser.get(f"{parts.path}?{parts.query}")
    assert opened.status_code == 200
    links = _hrefs(opened.text.split("<nav>", 1)[1].split("</nav>", 1)[0])
    page_links = [h for h in links.values() if h.count("/") > parts.path.count("/") + 1]
    assert page_links and all(f"?{parts.query}" in h for h in page_links)
    page = await browser.get(page_links[0])
    assert page.status_code == 200
    bare = page_links[0].split("?")[0]
    assert (await browser.get(bare)).status_code == 404  # not published
    # Unpublishing a published site takes its pages down.
    handbook = f"/v1/orgs/{ids.northwind}/sites/{ids.sites['Handbook']}"
    assert (await browser.get(f"{HANDBOOK}onboarding/welcome/")).status_code == 200
    await admin.post(f"{handbook}/unpublish")
    assert (await browser.get(f"{HANDBOOK}onboarding/welcome/")).status_code == 404


async def test_hidden_pages_open_but_are_not_listed(
    browser: httpx.AsyncClient, ids: DemoIds, sandbox_db: Path
) -> None:
    def hide(draft: Draft) -> None:
        page = next(i for i, e in draft.pages.items() if e["title"] == "Expenses")
        draft.update(page, hidden=True)

    _edit(sandbox_db, ids.spaces["Onboarding"], hide)
    home = await browser.get(HANDBOOK)
    assert "🧾 Expenses" not in home.text
    page = await browser.get(f"{HANDBOOK}onboarding/people/expenses/")
    assert page.status_code == 200 and _heading(page) == "🧾 Expenses"


HOSTILE = """# Safe

<script>alert('body')</script>
<img src=x onerror="alert('img')">
[click](javascript:alert('link')) [data](data:text/html;base64,PHNjcmlwdD4=)
![pic](javascript:alert('image'))
[gone](missing-page.md) [here](#safe) [out](https://example.com/?a=1&b=<x>)

```html" onmouseover="alert('fence')
<b>code</b>
```

| a <i>b</i> | c |
|---|---|
| <svg onload=alert(1)> | `x` |

## Hi <b>there</b>

[up](#hi-there)
"""


async def test_page_bodies_cannot_inject_markup(
    browser: httpx.AsyncClient, ids: DemoIds, sandbox_db: Path
) -> None:
    def add(draft: Draft) -> None:
        draft.add_page('<Hostile> "page"', type="document", markdown=HOSTILE, emoji="<b>")

    _edit(sandbox_db, ids.spaces["Onboarding"], add)
    page = await browser.get(f"{HANDBOOK}onboarding/hostile-page/")
    assert page.status_code == 200
    assert "default-src 'none'" in page.headers["content-security-policy"]
    main = _main(page)
    assert _heading(page) == "&lt;b&gt; &lt;Hostile&gt; &quot;page&quot;"
    assert "<script" not in page.text and "<svg" not in main and "<i>" not in main
    assert "<img src=x" not in main and "&lt;img src=x onerror=" in main
    assert 'href="javascript' not in main and 'src="javascript' not in main
    assert 'href="data:' not in main
    assert '<a href="missing-page.md" class="broken"' in main
    assert _hrefs(main)["here"] == "#safe" or _hrefs(main)["here"].endswith("#safe")
    assert _hrefs(main)["out"] == "https://example.com/?a=1&b=%3Cx%3E"
    assert "&lt;b&gt;code&lt;/b&gt;" in main and 'onmouseover="' not in main
    # A heading's anchor is the one link analysis checked links against (markup dropped).
    assert '<h2 id="hi-there">Hi &lt;b&gt;there&lt;/b&gt;</h2>' in main
    assert _hrefs(main)["up"].endswith("/onboarding/hostile-page/#hi-there")


@pytest.mark.parametrize(
    "path",
    [
        "%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "..%2F..%2Fetc%2Fpasswd",
        "onboarding/%2e%2e/%2e%2e/%2e%2e/v1/orgs",
        "%00",
        "onboarding/%00/x",
        "%E2%80%AE%F0%9F%92%A5/%F0%9F%8C%8D",
        "%ff%fe",
        "onboarding/" + "a/" * 300,
        "x" * 5000,
        "~files/%2e%2e/%2e%2e",
        "~files/" + "%2e%2e/" * 40,
        "%5Cwindows%5Csystem32",
    ],
)
async def test_hostile_paths_are_404(browser: httpx.AsyncClient, path: str) -> None:
    """(httpx would resolve literal `../` before sending: the dots are escaped to reach us.)"""
    found = await browser.get(HANDBOOK + path)
    assert found.status_code in (400, 404), (path, found.status_code)


async def test_hostile_query_values_are_refused_plainly(browser: httpx.AsyncClient) -> None:
    for query in ("shareKey=%00", "preview=%00", "preview=" + "x" * 5000, "shareKey=%ff"):
        found = await browser.get(f"{PORTAL}?{query}")
        assert found.status_code == 403, (query, found.status_code)


async def _all_pages(browser: httpx.AsyncClient, start: str) -> dict[str, Any]:
    """Every page the navigation of `start` reaches in the same site space."""
    first = await browser.get(start)
    nav = first.text.split("<nav>", 1)[1].split("</nav>", 1)[0]
    prefix = urlsplit(start).path
    return {t: h for t, h in _hrefs(nav).items() if urlsplit(h).path.startswith(prefix)}


async def test_every_page_of_the_demo_portal_opens(
    browser: httpx.AsyncClient, partners_key: str
) -> None:
    start = f"{PORTAL}api/public-api-reference/?shareKey={partners_key}"
    pages = {t: h for t, h in (await _all_pages(browser, start)).items() if h != start}
    assert len(pages) >= 30
    broken = 0
    for title, href in pages.items():
        page = await browser.get(href)
        assert page.status_code == 200, (title, href)
        assert _heading(page) == title
        for attrs, text in re.findall(r"<a ([^>]*)>(.*?)</a>", _main(page)):
            target = re.search(r'href="([^"]*)"', attrs)
            assert target is not None
            if 'class="broken"' in attrs:
                broken += 1
            elif target.group(1).startswith(PORTAL):
                opened = await browser.get(target.group(1).replace("&amp;", "&"))
                assert opened.status_code == 200, (title, text, target.group(1))
    assert broken >= 3  # the demo's deliberately broken links are shown as broken


async def test_a_page_redirect_opens_the_page_where_it_is_now(
    admin: httpx.AsyncClient, browser: httpx.AsyncClient, ids: DemoIds, sandbox_db: Path
) -> None:
    st = f"/v1/orgs/{ids.northwind}/sites/{ids.sites['Handbook']}"
    onboarding = ids.spaces["Onboarding"]
    site_space = next(
        s["id"]
        for s in (await admin.get(f"{st}/site-spaces")).json()["items"]
        if s["space"]["id"] == onboarding
    )
    page = (await admin.get(f"/v1/spaces/{onboarding}/content/path/people/time-off")).json()
    destination = {"kind": "site-page", "siteSpaceId": site_space, "pageId": page["id"]}
    created = await admin.post(
        f"{st}/redirects", json={"source": "/holidays", "destination": destination}
    )
    assert created.status_code == 201, created.text
    resolved = (await admin.get(f"{st}/redirect", params={"source": "/holidays"})).json()
    assert resolved["target"].endswith("/handbook/onboarding/people/time-off/")
    # Move the page: the redirect follows it.
    _edit(sandbox_db, onboarding, lambda draft: draft.move(page["id"], None))
    followed = await browser.get(f"{HANDBOOK}holidays")
    assert followed.status_code == 302
    assert followed.headers["location"] == f"{HANDBOOK}onboarding/time-off/"
    assert _heading(await browser.get(followed.headers["location"])) == "🏖️ Time off"


async def test_a_preview_of_one_site_space_of_an_unpublished_site(
    admin: httpx.AsyncClient, browser: httpx.AsyncClient, ids: DemoIds
) -> None:
    st = f"/v1/orgs/{ids.lumen}/sites/{ids.sites['Lumen Docs']}"
    other = (await admin.get(f"{st}/site-spaces", params={"default": "false"})).json()["items"]
    assert other and "published" not in other[0]["urls"]
    preview = await admin.get(f"{st}/publishing/preview", params={"siteSpace": other[0]["id"]})
    url = preview.json()["url"]
    assert f"/{other[0]['path']}/?preview=" in url
    parts = urlsplit(url)
    page = await browser.get(f"{parts.path}?{parts.query}")
    assert page.status_code == 200
    assert other[0]["title"] in re.search(r"<p class='where'>(.*?)</p>", page.text).group(1)
