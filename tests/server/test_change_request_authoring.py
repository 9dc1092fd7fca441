"""Authoring a change request (`POST {CR}/content`): every operation, atomic batches, errors
naming the change and field, links resolved against the change request's tree, roles."""

from __future__ import annotations

import base64

import httpx

from ._support import ADMIN, EDITOR, READER, REVIEWER, Api, DemoIds, error_of


async def _new(client: httpx.AsyncClient, space: str) -> str:
    response = await client.post(f"/v1/spaces/{space}/change-requests", json={"subject": "x"})
    assert response.status_code == 201, response.text
    return f"/v1/spaces/{space}/change-requests/{response.json()['id']}"


async def _pages(client: httpx.AsyncClient, cr: str) -> dict[str, dict]:
    found: dict[str, dict] = {}
    stack = list((await client.get(f"{cr}/content/pages")).json()["pages"])
    while stack:
        page = stack.pop()
        found[page["title"]] = page
        stack += page.get("pages", [])
    return found


async def _markdown(client: httpx.AsyncClient, cr: str, page: str) -> str:
    body = (await client.get(f"{cr}/content/page/{page}", params={"format": "markdown"})).json()
    return str(body["markdown"])


async def test_a_batch_is_one_revision_and_main_does_not_move(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    space = ids.spaces["Webhooks Guide"]
    cr = await _new(admin, space)
    main_before = (await admin.get(f"/v1/spaces/{space}")).json()["revision"]
    page = ids.content["page"]
    before = (await admin.get(cr)).json()
    changes = [
        {
            "operation": "insert_page",
            "title": "Retries",
            "ref": "retries",
            "document": {"markdown": "# Retries\n\nSee [setup](/pages/" + page + ").\n"},
        },
        {
            "operation": "insert_page",
            "into": page,
            "document": {
                "markdown": "---\ntitle: From frontmatter\n---\nLinks to [retries](./retries.md)."
            },
        },
        {
            "operation": "update_page",
            "page": page,
            "title": "Setting up",
            "document": {"markdown": "# Setting up\n\nNew text.\n"},
        },
    ]
    response = await admin.post(f"{cr}/content", json={"changes": changes})
    assert response.status_code == 200, response.text
    after = response.json()
    assert after["object"] == "change-request"
    assert after["revision"] != before["revision"]
    revision = (await admin.get(f"/v1/spaces/{space}/revisions/{after['revision']}")).json()
    assert revision["parents"] == [before["revision"]]  # one revision for the batch
    assert (await admin.get(f"/v1/spaces/{space}")).json()["revision"] == main_before
    pages = await _pages(admin, cr)
    assert {"Retries", "From frontmatter", "Setting up"} <= set(pages)
    child = pages["From frontmatter"]
    text = await _markdown(admin, cr, child["id"])
    assert f"({'/' + pages['Retries']['path']}.md)" in text  # the batch ref resolved
    links = (await admin.get(f"{cr}/content/page/{child['id']}/links")).json()
    assert [item["status"] for item in links["items"]] == ["ok"]
    assert await _markdown(admin, cr, page) == "# Setting up\n\nNew text.\n"
    # main's content is untouched
    main_page = await admin.get(f"/v1/spaces/{space}/content/page/{page}")
    assert main_page.json()["title"] != "Setting up"


async def test_compat_false_lists_pages_touched_and_files(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    space = ids.spaces["Webhooks Guide"]
    cr = await _new(admin, space)
    png = base64.b64encode(b"\x89PNG\r\n\x1a\nfake").decode()
    changes = [
        {
            "operation": "insert_files",
            "files": [
                {"name": "flow.png", "ref": "flow", "contentType": "image/png", "base64": png}
            ],
        },
        {
            "operation": "insert_page",
            "ref": "p",
            "title": "Pic",
            "document": {"markdown": "![flow](./flow)\n"},
        },
        {"operation": "update_page", "page": ids.content["page"], "emoji": "🔧"},
        {"operation": "delete_page", "page": ids.content["page"]},
    ]
    response = await admin.post(f"{cr}/content?compat=false", json={"changes": changes})
    assert response.status_code == 200, response.text
    body = response.json()
    kinds = [(c["object"], c.get("ref")) for c in body["changes"]]
    assert kinds == [("created_page", "p"), ("deleted_page", None)]
    assert body["insertedFiles"][0]["name"] == "flow.png"
    created = body["changes"][0]["page"]["id"]
    text = await _markdown(admin, cr, created)
    assert text == "![flow](/.gitbook/assets/flow.png)\n"
    error_of(await admin.get(f"{cr}/content/page/{ids.content['page']}"), 404)


async def test_an_invalid_change_rejects_the_batch_naming_index_and_field(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    space = ids.spaces["Webhooks Guide"]
    cr = await _new(admin, space)
    before = (await admin.get(cr)).json()["revision"]
    good = {"operation": "insert_page", "title": "Fine", "document": {"markdown": "x"}}
    cases = [
        ({"operation": "update_page", "page": "nope"}, "changes[1].page"),
        (
            {"operation": "insert_page", "into": "nope", "document": {"markdown": ""}},
            "changes[1].into",
        ),
        ({"operation": "insert_page"}, "changes[1].document"),
        ({"operation": "explode"}, "changes[1].operation"),
        ({"operation": "delete_page", "page": 5}, "changes[1].page"),
        (
            {"operation": "revert_page", "page": ids.content["page"], "revision": "nope"},
            "changes[1].revision",
        ),
        (
            {"operation": "insert_files", "files": [{"name": "a.txt", "url": "https://x.test/a"}]},
            "changes[1].files[0].url",
        ),
        (
            {"operation": "insert_files", "files": [{"name": "a.txt", "base64": "!!"}]},
            "changes[1].files[0].contentType",
        ),
        (
            {
                "operation": "insert_page",
                "title": "T",
                "slug": "setup",
                "document": {"markdown": ""},
            },
            "changes[1].slug",
        ),
        ({"operation": "insert_page", "ref": "r", "document": {"markdown": ""}}, ""),
    ]
    for change, field in cases[:-1]:
        message = error_of(await admin.post(f"{cr}/content", json={"changes": [good, change]}), 400)
        assert message.startswith(field), (field, message)
    twice = [dict(good, ref="r"), dict(good, ref="r")]
    assert "changes[1].ref" in error_of(
        await admin.post(f"{cr}/content", json={"changes": twice}), 400
    )
    assert "changes" in error_of(await admin.post(f"{cr}/content", json={"changes": []}), 400)
    many = {"changes": [good] * 51}
    assert "changes" in error_of(await admin.post(f"{cr}/content", json=many), 400)
    assert (await admin.get(cr)).json()["revision"] == before  # nothing stored


async def test_revert_whole_page_and_blocks(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    space = ids.spaces["Webhooks Guide"]
    cr = await _new(admin, space)
    page = ids.content["page"]
    original = await _markdown(admin, cr, page)
    edited = original.replace("\n\n", "\n\nEXTRA paragraph.\n\n", 1)
    await admin.post(
        f"{cr}/content",
        json={
            "changes": [
                {"operation": "update_page", "page": page, "document": {"markdown": edited}}
            ]
        },
    )
    assert "EXTRA" in await _markdown(admin, cr, page)
    document = (await admin.get(f"{cr}/content/page/{page}", params={"format": "document"})).json()
    key = next(n["key"] for n in document["document"]["nodes"] if "EXTRA" in str(n))
    response = await admin.post(
        f"{cr}/content",
        json={"changes": [{"operation": "revert_page", "page": page, "block": [key]}]},
    )
    assert response.status_code == 200, response.text
    assert await _markdown(admin, cr, page) == original
    await admin.post(
        f"{cr}/content", json={"changes": [{"operation": "delete_page", "page": page}]}
    )
    response = await admin.post(
        f"{cr}/content", json={"changes": [{"operation": "revert_page", "page": page}]}
    )
    assert response.status_code == 200, response.text
    assert await _markdown(admin, cr, page) == original
    bad = await admin.post(
        f"{cr}/content",
        json={"changes": [{"operation": "revert_page", "page": page, "block": ["nope"]}]},
    )
    assert "changes[0].block" in error_of(bad, 400)


async def test_roles_and_status(api: Api, ids: DemoIds) -> None:
    space = ids.spaces["Webhooks Guide"]
    admin = api(ADMIN)
    cr = await _new(admin, space)
    change = {"changes": [{"operation": "insert_page", "title": "T", "document": {"markdown": ""}}]}
    for email in (REVIEWER, READER):
        assert "edit role" in error_of(await api(email).post(f"{cr}/content", json=change), 403)
    assert (await api(EDITOR).post(f"{cr}/content", json=change)).status_code == 200
    contributors = await admin.get(
        f"/v1/spaces/{space}/change-requests", params={"contributor": ids.users[EDITOR]}
    )
    assert cr.rsplit("/", 1)[1] in [i["id"] for i in contributors.json()["items"]]
    await admin.patch(cr, json={"status": "archived"})
    assert "archived" in error_of(await admin.post(f"{cr}/content", json=change), 400)
    error_of(await api(None).post(f"{cr}/content", json=change), 401)
    error_of(await admin.post(f"/v1/spaces/{space}/change-requests/nope/content", json=change), 404)


async def test_concurrent_authoring_loses_nothing(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    """Batches on one change request are serialized by the write lock, each on the revision
    the previous one made: every page of every batch is there."""
    import asyncio

    space = ids.spaces["Webhooks Guide"]
    cr = await _new(admin, space)

    async def author(index: int) -> int:
        change = {
            "operation": "insert_page",
            "title": f"Concurrent {index}",
            "document": {"markdown": f"Body {index}.\n"},
        }
        response = await admin.post(f"{cr}/content", json={"changes": [change]})
        return response.status_code

    statuses = await asyncio.gather(*(author(i) for i in range(8)))
    assert statuses == [200] * 8
    titles = set(await _pages(admin, cr))
    assert {f"Concurrent {i}" for i in range(8)} <= titles


async def test_frontmatter_is_read_as_yaml(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    space = ids.spaces["Webhooks Guide"]
    cr = await _new(admin, space)
    yaml_page = (
        '---\ntitle: "Say \\"hi\\""\ndescription: >\n  Folded\n  onto one line\n'
        "icon: |\n  literal\nhidden: True\nnoIndex: false\nunknown: ignored\n---\n\n# Body\n"
    )
    windows_page = "---\r\ntitle: From Windows\r\nslug: windows\r\n---\r\n\r\nText.\r\n"
    changes = [
        {"operation": "insert_page", "document": {"markdown": yaml_page}},
        {"operation": "insert_page", "document": {"markdown": windows_page}},
    ]
    response = await admin.post(f"{cr}/content", json={"changes": changes})
    assert response.status_code == 200, response.text

    pages = await _pages(admin, cr)
    quoted = pages['Say "hi"']
    assert quoted["description"] == "Folded onto one line"
    assert quoted["hidden"] is True
    assert (await _markdown(admin, cr, quoted["id"])).startswith("# Body")
    windows = pages["From Windows"]
    assert windows["slug"] == "windows"
    assert "---" not in await _markdown(admin, cr, windows["id"])


async def test_malformed_frontmatter_is_a_400_naming_the_line(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    space = ids.spaces["Webhooks Guide"]
    cr = await _new(admin, space)
    before = (await admin.get(cr)).json()["revision"]
    cases = [
        ("---\ntitle: fine\ndescription: [unclosed\n---\nBody", "frontmatter line 3"),
        ("---\ntitle: a\nslug: b\n  bad: indent\n---\nBody", "frontmatter line 4"),
        ("---\n- a list\n---\nBody", "key: value pairs"),
        ("---\nhidden: maybe\n---\nBody", "hidden: must be true or false"),
    ]
    for markdown, expected in cases:
        change = {"operation": "insert_page", "document": {"markdown": markdown}}
        message = error_of(await admin.post(f"{cr}/content", json={"changes": [change]}), 400)
        assert message.startswith("changes[0].document.markdown: "), message
        assert expected in message, message
    assert (await admin.get(cr)).json()["revision"] == before  # nothing stored


async def test_a_long_title_makes_a_slug_the_platform_accepts(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    """Cut to 100 characters, the slug must not end at a hyphen (`^[a-z0-9]+(?:-[a-z0-9]+)*$`),
    as site section and site space paths never did: one slug function serves both now."""
    cr = await _new(admin, ids.spaces["Webhooks Guide"])
    title = "a" * 99 + " and then more words"
    change = {"operation": "insert_page", "title": title, "document": {"markdown": "x"}}
    response = await admin.post(f"{cr}/content", json={"changes": [change]})
    assert response.status_code == 200, response.text
    assert (await _pages(admin, cr))[title]["slug"] == "a" * 99
