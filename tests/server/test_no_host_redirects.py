"""No answer is built from the Host header, which any client sets: a path with a trailing
slash (or an encoded one) is a 404 in the error shape under /v1, and the published pages
redirect to the URL made from `public_url`."""

from __future__ import annotations

import httpx
import pytest

from ._support import Api, DemoIds, error_of

EVIL = {"Host": "evil.example"}


@pytest.mark.parametrize(
    "path", ["/v1/orgs/", "/v1/orgs/{org}/", "/v1/orgs%2F", "/v1/orgs/{org}%2F", "/v1/user/"]
)
@pytest.mark.parametrize("token", [True, False])
async def test_a_trailing_slash_under_v1_is_a_404(
    api: Api, admin: httpx.AsyncClient, ids: DemoIds, path: str, token: bool
) -> None:
    client = admin if token else api(None)
    response = await client.get(path.format(org=ids.northwind), headers=EVIL)
    assert "location" not in response.headers
    error_of(response, 404)


@pytest.mark.parametrize("path", ["/s/northwind/handbook", "/s/northwind/handbook%2F"])
async def test_published_pages_redirect_to_the_public_url(api: Api, path: str) -> None:
    response = await api(None).get(path, headers=EVIL)
    if path.endswith("%2F"):  # the same page as with a slash
        assert response.status_code == 200
        return
    assert response.status_code == 307
    assert response.headers["location"] == "http://sandbox.test/s/northwind/handbook/"


async def test_no_route_redirects_to_the_host_header(api: Api, ids: DemoIds) -> None:
    for path in ["/app/orgs/northwind/", "/files/", "/openapi.json/", "/docs/"]:
        response = await api(None).get(path, headers=EVIL)
        assert "evil.example" not in response.headers.get("location", ""), path
