"""Reviews and requested reviewers: submitting, role rules, outdated reviews, requests."""

from __future__ import annotations

from ._support import (
    ADMIN,
    COMMENTER,
    CREATOR,
    EDITOR,
    READER,
    REVIEWER,
    Api,
    DemoIds,
    error_of,
)


async def _cr(api: Api, ids: DemoIds) -> str:
    space = ids.spaces["Onboarding"]
    response = await api(EDITOR).post(f"/v1/spaces/{space}/change-requests", json={})
    assert response.status_code == 201, response.text
    return f"/v1/spaces/{space}/change-requests/{response.json()['id']}"


async def test_request_submit_and_list(api: Api, ids: DemoIds) -> None:
    cr = await _cr(api, ids)
    editor, reviewer = api(EDITOR), api(REVIEWER)
    requested = await editor.post(
        f"{cr}/requested-reviewers", json={"users": [ids.users[REVIEWER]], "subject": "Review me"}
    )
    assert requested.status_code == 200, requested.text
    [item] = requested.json()["users"]
    assert item["kind"] == "user" and item["user"]["id"] == ids.users[REVIEWER]
    assert item["requestedBy"]["id"] == ids.users[EDITOR]
    assert (await editor.get(cr)).json()["subject"] == "Review me"
    listed = (await editor.get(f"{cr}/requested-reviewers")).json()
    assert [i["user"]["id"] for i in listed["items"]] == [ids.users[REVIEWER]]
    review = await reviewer.post(
        f"{cr}/reviews", json={"status": "changes-requested", "comment": {"markdown": "Fix x"}}
    )
    assert review.status_code == 201, review.text
    body = review.json()
    assert body["status"] == "changes-requested" and body["outdated"] is False
    assert body["requestedBy"]["id"] == ids.users[EDITOR]
    assert review.headers["Location"] == body["urls"]["location"]
    assert (await editor.get(f"{cr}/requested-reviewers")).json()["items"] == []  # answered
    approved = await api(ADMIN).post(f"{cr}/reviews", json={"status": "approved"})
    assert approved.status_code == 201
    reviews = (await editor.get(f"{cr}/reviews")).json()["items"]
    assert [r["status"] for r in reviews] == ["changes-requested", "approved"]


async def test_reviews_at_one_instant_list_in_submission_order(api: Api, ids: DemoIds) -> None:
    """The test clock stands still, so every review has the same createdAt: ties are listed
    in the order they were submitted, on every page, not in the order of their random ids."""
    cr = await _cr(api, ids)
    submitted = []
    for email in (REVIEWER, ADMIN, CREATOR, "ines@northwind.dev", REVIEWER, ADMIN):
        response = await api(email).post(f"{cr}/reviews", json={"status": "approved"})
        assert response.status_code == 201, response.text
        submitted.append(response.json()["id"])
    listed = [r["id"] for r in (await api(EDITOR).get(f"{cr}/reviews")).json()["items"]]
    assert listed == submitted
    paged, page = [], None
    while True:
        params = {"limit": "2"} if page is None else {"limit": "2", "page": page}
        body = (await api(EDITOR).get(f"{cr}/reviews", params=params)).json()
        paged += [r["id"] for r in body["items"]]
        if not body.get("next"):
            break
        page = body["next"]["page"]
    assert paged == submitted
    reviews = (await api(EDITOR).get(f"{cr}/reviews")).json()["items"]
    assert [r["outdated"] for r in reviews] == [True, True, False, False, False, False]


async def test_a_review_of_an_older_revision_is_outdated(api: Api, ids: DemoIds) -> None:
    cr = await _cr(api, ids)
    await api(REVIEWER).post(f"{cr}/reviews", json={"status": "approved"})
    change = {"operation": "insert_page", "title": "More", "document": {"markdown": "x"}}
    await api(EDITOR).post(f"{cr}/content", json={"changes": [change]})
    [review] = (await api(EDITOR).get(f"{cr}/reviews")).json()["items"]
    assert review["outdated"] is True
    again = (await api(REVIEWER).post(f"{cr}/reviews", json={"status": "approved"})).json()
    assert again["outdated"] is False


async def test_role_rules(api: Api, ids: DemoIds) -> None:
    cr = await _cr(api, ids)
    for email in (COMMENTER, READER):
        message = error_of(await api(email).post(f"{cr}/reviews", json={"status": "approved"}), 403)
        assert "review role" in message
    own = await api(EDITOR).post(f"{cr}/reviews", json={"status": "approved"})
    assert "author" in error_of(own, 403)
    asked = await api(EDITOR).post(f"{cr}/reviews", json={"status": "changes-requested"})
    assert asked.status_code == 201  # the author may request changes of their own
    refused = await api(EDITOR).post(
        f"{cr}/requested-reviewers", json={"users": [ids.users[READER], "nobody"]}
    )
    message = error_of(refused, 400)
    assert ids.users[READER] in message and "nobody" in message
    assert "edit role" in error_of(
        await api(REVIEWER).post(f"{cr}/requested-reviewers", json={"users": []}), 403
    )
    assert "status" in error_of(
        await api(REVIEWER).post(f"{cr}/reviews", json={"status": "ok"}), 400
    )
    assert "users" in error_of(await api(EDITOR).post(f"{cr}/requested-reviewers", json={}), 400)


async def test_remove_requested_reviewer(api: Api, ids: DemoIds) -> None:
    cr = await _cr(api, ids)
    editor = api(EDITOR)
    await editor.post(f"{cr}/requested-reviewers", json={"users": [ids.users[REVIEWER]]})
    removed = await editor.delete(f"{cr}/requested-reviewers/{ids.users[REVIEWER]}")
    assert removed.status_code == 205
    again = await editor.delete(f"{cr}/requested-reviewers/{ids.users[REVIEWER]}")
    assert again.status_code == 204
    error_of(await api(None).delete(f"{cr}/requested-reviewers/x"), 401)
    error_of(await editor.get(cr.rsplit("/", 1)[0] + "/nope/reviews"), 404)


async def test_a_review_comment_has_the_limit_of_every_comment(api: Api, ids: DemoIds) -> None:
    """A review's comment becomes a comment thread: it is refused where a comment would be."""
    cr = await _cr(api, ids)
    reviewer = api(REVIEWER)
    space = ids.spaces["Onboarding"]
    huge = "x" * 1_000_000
    long_doc = {
        "nodes": [
            {
                "object": "block",
                "type": "paragraph",
                "nodes": [{"object": "text", "leaves": [{"object": "leaf", "text": "y" * 70_000}]}],
            }
        ]
    }
    for comment in ({"markdown": huge}, {"markdown": "z" * 65_537}, long_doc):
        response = await reviewer.post(
            f"{cr}/reviews", json={"status": "approved", "comment": comment}
        )
        assert "65,536 characters" in error_of(response, 400)
    plain = await reviewer.post(f"/v1/spaces/{space}/comments", json={"body": {"markdown": huge}})
    assert "65,536 characters" in error_of(plain, 400)
    assert (await reviewer.get(f"{cr}/reviews")).json()["items"] == []
    fits = await reviewer.post(
        f"{cr}/reviews", json={"status": "approved", "comment": {"markdown": "z" * 65_536}}
    )
    assert fits.status_code in (200, 201), fits.text
