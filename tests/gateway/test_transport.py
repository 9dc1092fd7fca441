"""Failure modes of the transport: retries, Retry-After, error mapping, token secrecy.

These need a server that misbehaves on purpose, so they use httpx.MockTransport;
everything else in tests/gateway talks to the real sandbox.
"""

from __future__ import annotations

import traceback

import httpx
import pytest

from docdeck.gateway import (
    APIConnectionError,
    APIResponseValidationError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    Client,
    ConflictError,
    DocdeckError,
    InternalServerError,
    NotFoundError,
    PermissionDeniedError,
    PreconditionFailedError,
    RateLimitError,
)
from docdeck.gateway._transport import backoff_seconds, retry_after_seconds

TOKEN = "secret-token-value-123"
ORG = {
    "object": "organization",
    "id": "o1",
    "title": "Acme",
    "createdAt": "2024-01-01T00:00:00Z",
    "emailDomains": [],
    "type": "business",
    "inviteLinks": False,
    "plan": "free_2024",
    "urls": {"location": "http://x/v1/orgs/o1", "app": "http://x/app/orgs/o1"},
    "trial": {"status": "notapplicable"},
    "permissions": {
        k: True
        for k in [
            "view",
            "admin",
            "ownTeam",
            "createContent",
            "createOpenAPISpec",
            "ingestConversations",
            "viewBilling",
            "listMembers",
            "listTeams",
            "listIntegrations",
        ]
    },
}


def make_client(handler, max_retries: int = 2) -> tuple[Client, list[float]]:
    client = Client(
        "http://api.test", TOKEN, transport=httpx.MockTransport(handler), max_retries=max_retries
    )
    sleeps: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        sleeps.append(seconds)

    client.transport.sleep = fake_sleep
    return client, sleeps


def error(status: int, message: str) -> httpx.Response:
    return httpx.Response(status, json={"error": {"code": status, "message": message}})


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (400, BadRequestError),
        (401, AuthenticationError),
        (403, PermissionDeniedError),
        (404, NotFoundError),
        (409, ConflictError),
        (412, PreconditionFailedError),
        (500, InternalServerError),
    ],
)
async def test_status_maps_to_error_class(status: int, cls: type) -> None:
    client, _ = make_client(lambda request: error(status, "title: too long"))
    async with client:
        with pytest.raises(cls) as info:
            await client.orgs.get("o1")
    err = info.value
    assert err.status_code == status
    assert err.message == "title: too long"
    assert err.method == "GET"
    assert err.path == "/v1/orgs/o1"
    assert str(err).startswith(f"{status} ")
    assert "GET /v1/orgs/o1" in str(err)


async def test_get_retries_503_then_succeeds() -> None:
    calls = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        return error(503, "busy") if len(calls) < 3 else httpx.Response(200, json=ORG)

    client, sleeps = make_client(handler)
    async with client:
        org = await client.orgs.get("o1")
    assert org.title == "Acme"
    assert len(calls) == 3
    assert len(sleeps) == 2
    assert all(0.5 <= s <= 8 for s in sleeps)


async def test_retry_after_is_honoured_on_429() -> None:
    calls = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        if len(calls) == 1:
            return httpx.Response(
                429, headers={"Retry-After": "3"}, json={"error": {"code": 429, "message": "slow"}}
            )
        return httpx.Response(200, json=ORG)

    client, sleeps = make_client(handler)
    async with client:
        await client.orgs.get("o1")
    assert sleeps == [3.0]


async def test_gives_up_after_max_retries() -> None:
    calls = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        return error(429, "slow down")

    client, _ = make_client(handler, max_retries=2)
    async with client:
        with pytest.raises(RateLimitError):
            await client.orgs.get("o1")
    assert len(calls) == 3


async def test_post_is_never_retried() -> None:
    calls = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        return error(503, "busy")

    client, sleeps = make_client(handler)
    async with client:
        with pytest.raises(InternalServerError):
            await client.spaces.duplicate("s1")
    assert len(calls) == 1
    assert sleeps == []


async def test_connection_failure_is_retried_then_reported() -> None:
    calls = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        raise httpx.ConnectError("refused", request=request)

    client, _ = make_client(handler)
    async with client:
        with pytest.raises(APIConnectionError) as info:
            await client.orgs.get("o1")
    assert len(calls) == 3
    assert "api.test" in str(info.value)


async def test_timeout_is_its_own_error() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("slow", request=request)

    client, _ = make_client(handler, max_retries=0)
    async with client:
        with pytest.raises(APITimeoutError):
            await client.orgs.get("o1")


async def test_unexpected_body_is_a_validation_error() -> None:
    client, _ = make_client(lambda request: httpx.Response(200, json={"id": 3}))
    async with client:
        with pytest.raises(APIResponseValidationError) as info:
            await client.orgs.get("o1")
    error = info.value
    assert (error.field, error.value) == ("id", "3")
    assert error.raw == '{"id":3}'
    assert "field id = 3" in str(error)


async def test_non_json_error_body_still_gives_a_message() -> None:
    page = "<html><body><h1>502 Bad Gateway</h1>nginx</body></html>"
    client, _ = make_client(
        lambda request: httpx.Response(502, text=page, headers={"content-type": "text/html"}),
        max_retries=0,
    )
    async with client:
        with pytest.raises(InternalServerError) as info:
            await client.orgs.get("o1")
    assert info.value.status_code == 502
    assert info.value.message == "Bad Gateway (the answer was text/html, not the API's JSON)"
    assert info.value.body == page
    assert str(info.value) == (
        "502 Bad Gateway on GET /v1/orgs/o1: "
        "Bad Gateway (the answer was text/html, not the API's JSON)"
    )


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"detail": "Not authenticated"}, "Not authenticated"),
        ({"message": "Slow down"}, "Slow down"),
        ({"error": "invalid_token"}, "invalid_token"),
        (["not", "an", "object"], "Unprocessable Entity"),
    ],
)
async def test_error_bodies_of_other_shapes_give_their_message(body: object, message: str) -> None:
    client, _ = make_client(lambda request: httpx.Response(422, json=body))
    async with client:
        with pytest.raises(APIStatusError) as info:
            await client.orgs.get("o1")
    assert (info.value.status_code, info.value.message) == (422, message)


async def test_an_html_page_with_200_is_a_clear_error_not_a_json_parse_error() -> None:
    client, _ = make_client(
        lambda request: httpx.Response(
            200, text="<html>Sign in</html>", headers={"content-type": "text/html; charset=utf-8"}
        )
    )
    async with client:
        with pytest.raises(APIResponseValidationError) as info:
            await client.orgs.get("o1")
    assert "Expected JSON from the API but the answer was text/html" in str(info.value)
    assert "base URL" in str(info.value)


async def test_an_empty_200_is_a_clear_error() -> None:
    client, _ = make_client(lambda request: httpx.Response(200))
    async with client:
        with pytest.raises(APIResponseValidationError, match="answer was empty"):
            await client.orgs.get("o1")


async def test_a_redirect_is_not_followed_and_names_where_it_points() -> None:
    calls = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        return httpx.Response(301, headers={"location": "https://api.test/v1/orgs/o1"})

    client, _ = make_client(handler)
    async with client:
        with pytest.raises(APIStatusError) as info:
            await client.orgs.get("o1")
    assert len(calls) == 1
    err = info.value
    assert err.status_code == 301
    assert "redirected to https://api.test/v1/orgs/o1" in str(err)
    assert "check the base URL" in str(err)
    assert str(err).startswith("301 Moved Permanently on GET /v1/orgs/o1")


@pytest.mark.parametrize(
    ("failure", "cls", "words"),
    [
        (httpx.DecodingError("incorrect header check"), APIResponseValidationError, "decoded"),
        (httpx.TooManyRedirects("Exceeded redirects"), APIConnectionError, "redirect"),
        (httpx.RemoteProtocolError("Server disconnected"), APIConnectionError, "disconnected"),
        (httpx.ReadError("Connection reset by peer"), APIConnectionError, "reset by peer"),
        (httpx.ProxyError("407 Proxy Auth Required"), APIConnectionError, "Could not connect"),
    ],
)
async def test_every_httpx_failure_becomes_a_gateway_error(
    failure: httpx.HTTPError, cls: type, words: str
) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise failure

    client, _ = make_client(handler, max_retries=0)
    async with client:
        with pytest.raises(cls) as info:
            await client.orgs.get("o1")
    assert isinstance(info.value, DocdeckError)
    assert words in str(info.value)
    assert "http://api.test" in str(info.value)
    assert info.value.__cause__ is None and info.value.__suppress_context__


async def test_token_never_appears_in_errors_or_reprs() -> None:
    seen_headers = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen_headers.append(request.headers["authorization"])
        return error(401, "Unknown token")

    client, _ = make_client(handler)
    async with client:
        with pytest.raises(AuthenticationError) as info:
            await client.orgs.get("o1")
    assert seen_headers == [f"Bearer {TOKEN}"]
    err = info.value
    rendered = [str(err), repr(err), repr(client), repr(client.transport)]
    rendered.append("".join(traceback.format_exception(err)))
    for text in rendered:
        assert TOKEN not in text


async def test_ids_are_escaped_into_one_path_segment() -> None:
    paths = []

    def handler(request: httpx.Request) -> httpx.Response:
        paths.append(request.url.raw_path.decode())
        return httpx.Response(200, json=ORG)

    client, _ = make_client(handler)
    async with client:
        await client.orgs.get("../spaces/x?y=1")
    assert paths == ["/v1/orgs/..%2Fspaces%2Fx%3Fy%3D1"]


async def test_base_url_with_v1_suffix_is_not_doubled() -> None:
    urls = []

    def handler(request: httpx.Request) -> httpx.Response:
        urls.append(str(request.url))
        return httpx.Response(200, json=ORG)

    client = Client("http://api.test/v1/", TOKEN, transport=httpx.MockTransport(handler))
    async with client:
        await client.orgs.get("o1")
    assert urls == ["http://api.test/v1/orgs/o1"]


def test_client_rejects_bad_base_url_and_empty_token() -> None:
    with pytest.raises(ValueError, match="http"):
        Client("api.test", TOKEN)
    with pytest.raises(ValueError, match="token"):
        Client("http://api.test", "")


def test_retry_after_parsing() -> None:
    assert retry_after_seconds(httpx.Response(429, headers={"Retry-After": "2.5"})) == 2.5
    assert retry_after_seconds(httpx.Response(429, headers={"Retry-After": "9999"})) == 60.0
    assert retry_after_seconds(httpx.Response(429, headers={"Retry-After": "soon"})) is None
    past = "Wed, 21 Oct 2015 07:28:00 GMT"
    assert retry_after_seconds(httpx.Response(429, headers={"Retry-After": past})) == 0.0
    assert retry_after_seconds(httpx.Response(429)) is None


def test_backoff_grows_is_capped_and_every_attempt_is_jittered() -> None:
    for attempt in range(40):
        samples = {backoff_seconds(attempt) for _ in range(50)}
        assert all(0.5 <= value <= 8.0 for value in samples)
        assert len(samples) > 1, f"attempt {attempt} has no jitter"
    firsts = [backoff_seconds(0) for _ in range(200)]
    assert min(firsts) >= 0.5 and max(firsts) <= 1.0
    assert min(backoff_seconds(1) for _ in range(200)) >= 1.0
    assert max(backoff_seconds(30) for _ in range(200)) <= 8.0


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("0", 0.0),
        ("-3", 0.0),
        ("inf", 60.0),
        ("1e400", 60.0),
        ("nan", None),
        ("Fri, 01 Jan 2100 00:00:00 GMT", 60.0),
        ("Mon, 32 Jan 2020 00:00:00 GMT", None),
    ],
)
def test_absurd_retry_after_values_are_capped_or_ignored(
    value: str, expected: float | None
) -> None:
    assert retry_after_seconds(httpx.Response(429, headers={"Retry-After": value})) == expected


def test_retry_after_as_an_http_date_in_the_near_future() -> None:
    from datetime import UTC, datetime, timedelta
    from email.utils import format_datetime

    soon = format_datetime(datetime.now(UTC) + timedelta(seconds=20), usegmt=True)
    waited = retry_after_seconds(httpx.Response(429, headers={"Retry-After": soon}))
    assert waited is not None and 17 <= waited <= 20


async def test_an_http_date_retry_after_is_what_the_client_sleeps() -> None:
    from datetime import UTC, datetime, timedelta
    from email.utils import format_datetime

    calls = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        if len(calls) == 1:
            soon = format_datetime(datetime.now(UTC) + timedelta(seconds=5), usegmt=True)
            return httpx.Response(503, headers={"Retry-After": soon}, json={})
        return httpx.Response(200, json=ORG)

    client, sleeps = make_client(handler)
    async with client:
        await client.orgs.get("o1")
    assert len(sleeps) == 1 and 3 <= sleeps[0] <= 5


@pytest.mark.parametrize(
    ("call", "status", "attempts"),
    [
        (lambda c: c.orgs.get("o1"), 502, 3),
        (lambda c: c.orgs.get("o1"), 504, 3),
        (lambda c: c.orgs.get("o1"), 500, 1),
        (lambda c: c.orgs.get("o1"), 400, 1),
        (lambda c: c.teams.members.put("o1", "t1", "u1"), 503, 3),
        (lambda c: c.spaces.delete("s1"), 429, 3),
        (lambda c: c.spaces.update("s1", title="x"), 503, 1),
        (lambda c: c.orgs.ping("o1"), 429, 1),
    ],
)
async def test_only_idempotent_requests_are_retried_and_only_on_transient_statuses(
    call, status: int, attempts: int
) -> None:
    calls = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request.method)
        return error(status, "nope")

    client, sleeps = make_client(handler, max_retries=2)
    async with client:
        with pytest.raises(APIStatusError):
            await call(client)
    assert len(calls) == attempts
    assert len(sleeps) == attempts - 1


async def test_a_post_that_cannot_connect_is_not_retried() -> None:
    calls = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        raise httpx.ConnectError("refused", request=request)

    client, sleeps = make_client(handler)
    async with client:
        with pytest.raises(APIConnectionError):
            await client.spaces.duplicate("s1")
    assert (len(calls), sleeps) == (1, [])


async def test_a_next_cursor_that_points_back_does_not_loop_forever() -> None:
    pages = {
        "start": {"items": [ORG], "count": 2, "next": {"page": "second"}},
        "second": {"items": [{**ORG, "id": "o2"}], "count": 2, "next": {"page": "start"}},
    }
    asked: list[str | None] = []

    def handler(request: httpx.Request) -> httpx.Response:
        asked.append(request.url.params.get("page"))
        return httpx.Response(200, json=pages[request.url.params["page"]])

    client, _ = make_client(handler)
    async with client:
        items = [org async for org in client.orgs.list(page="start")]
    assert asked == ["start", "second"]
    assert len(items) == 2


async def test_an_item_repeated_on_a_later_page_is_listed_once() -> None:
    """A list that shifts between two page reads (an organization added before the cursor
    of a list paged by offset) repeats an item on the next page: every item of the list is
    listed once, in the order first read, and a page read alone is as the server sent it."""
    from docdeck.gateway import repeats_dropped

    first, second, third = ({**ORG, "id": key, "title": key} for key in ("o1", "o2", "o3"))
    pages = {
        "1": {"items": [first, second], "count": 3, "next": {"page": "2"}},
        "2": {"items": [second, third], "count": 3},
    }

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=pages[request.url.params.get("page", "1")])

    client, _ = make_client(handler)
    async with client:
        listed = await client.orgs.list().all()
        assert [org.id for org in listed] == ["o1", "o2", "o3"]
        alone = await client.orgs.list(page="2")
        assert [org.id for org in alone.items] == ["o2", "o3"]
        seen = {"o1", "o2"}
        assert [org.id for org in repeats_dropped(alone.items, seen)] == ["o3"]
        assert seen == {"o1", "o2", "o3"}


async def test_text_that_is_not_unicode_is_refused_before_sending() -> None:
    """A lone surrogate (a paste, a broken decoding) cannot be encoded in a URL: the
    gateway says which character, names no token, and sends nothing."""
    from docdeck.gateway import UnsendableTextError

    sent: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(200, json={"items": []})

    client, _ = make_client(handler)
    with pytest.raises(UnsendableTextError) as caught:
        await client.content.search("s1", "ab\ud800c").get_page()
    assert "U+D800" in str(caught.value) and "not valid Unicode" in str(caught.value)
    assert isinstance(caught.value, DocdeckError) and isinstance(caught.value, ValueError)
    assert TOKEN not in str(caught.value) and TOKEN not in repr(caught.value)
    assert sent == []
