"""`GET /v1/user` (the platform's getAuthenticatedUser): who the token belongs to."""

from __future__ import annotations

from ._support import ADMIN, READER, Api, error_of


async def test_the_caller_is_the_tokens_user(api: Api) -> None:
    for email in (ADMIN, READER):
        response = await api(email).get("/v1/user")
        assert response.status_code == 200, response.text
        user = response.json()
        assert user["object"] == "user" and user["email"] == email
        assert user["urls"]["location"].endswith(f"/v1/users/{user['id']}")
    error_of(await api(None).get("/v1/user"), 401)
