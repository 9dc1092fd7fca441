"""A site's structure: defaults and their promotion, path uniqueness, conditions kept or
removed, and the order of every level after many random sorts and moves."""

from __future__ import annotations

import random
from typing import Any

import httpx

from ._support import ADMIN, DemoIds, error_of


async def new_site(admin: httpx.AsyncClient, ids: DemoIds, *spaces: str) -> str:
    body = {"title": "Test site", "spaces": [ids.spaces[s] for s in spaces]}
    response = await admin.post(f"/v1/orgs/{ids.northwind}/sites", json=body)
    assert response.status_code == 201, response.text
    return f"/v1/orgs/{ids.northwind}/sites/{response.json()['id']}"


async def structure(admin: httpx.AsyncClient, st: str) -> dict[str, Any]:
    response = await admin.get(f"{st}/structure")
    assert response.status_code == 200, response.text
    return dict(response.json())


async def test_root_site_spaces_then_sections(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    st = await new_site(admin, ids, "Release Notes", "Onboarding")
    tree = await structure(admin, st)
    assert tree["type"] == "siteSpaces"
    assert [(s["title"], s["default"]) for s in tree["structure"]] == [
        ("Release Notes", True),
        ("Onboarding", False),
    ]
    site = (await admin.get(st)).json()
    assert site["siteSpaces"] == 2
    # The first section gathers the root site spaces into a section titled after the site.
    response = await admin.post(f"{st}/sections", json={"spaceId": ids.spaces["Design System"]})
    assert response.status_code == 201
    assert response.headers["location"].endswith(f"/sections/{response.json()['id']}")
    tree = await structure(admin, st)
    assert tree["type"] == "sections"
    assert [(s["title"], s["default"], len(s["siteSpaces"])) for s in tree["structure"]] == [
        ("Test site", True, 2),
        ("Design System", False, 1),
    ]
    assert (await admin.get(st)).json()["siteSpaces"] == 3


async def test_deleting_defaults_promotes_the_next(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    st = await new_site(admin, ids)
    first = (await admin.post(f"{st}/sections", json={"spaceId": ids.spaces["Onboarding"]})).json()
    second = (
        await admin.post(f"{st}/sections", json={"spaceId": ids.spaces["Release Notes"]})
    ).json()
    assert first["default"] and not second["default"]
    variant = (
        await admin.post(
            f"{st}/site-spaces",
            json={"spaceId": ids.spaces["Design System"], "sectionId": second["id"]},
        )
    ).json()
    assert variant["section"] == second["id"] and not variant["default"]
    # The section's default site space goes: the variant becomes the default.
    default_ss = second["siteSpaces"][0]["id"]
    assert (await admin.delete(f"{st}/site-spaces/{default_ss}")).status_code == 204
    listed = (await admin.get(f"{st}/site-spaces", params={"default": "true"})).json()
    assert {s["id"] for s in listed["items"]} == {
        first["siteSpaces"][0]["id"],
        variant["id"],
    }
    # The default section goes with its site spaces: the other one is promoted.
    assert (await admin.delete(f"{st}/sections/{first['id']}")).status_code == 204
    tree = await structure(admin, st)
    assert [(s["id"], s["default"]) for s in tree["structure"]] == [(second["id"], True)]
    assert (await admin.get(st)).json()["siteSpaces"] == 1


async def test_deleting_a_space_removes_its_site_spaces(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    st = await new_site(admin, ids, "Release Notes", "Onboarding")
    assert (await admin.delete(f"/v1/spaces/{ids.spaces['Release Notes']}")).status_code == 204
    tree = await structure(admin, st)
    assert [(s["title"], s["default"]) for s in tree["structure"]] == [("Onboarding", True)]
    assert (await admin.get(st)).json()["siteSpaces"] == 1


async def test_site_defaults_through_the_site(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    st = await new_site(admin, ids)
    await admin.post(f"{st}/sections", json={"spaceId": ids.spaces["Onboarding"]})
    second = (
        await admin.post(f"{st}/sections", json={"spaceId": ids.spaces["Release Notes"]})
    ).json()
    ss = second["siteSpaces"][0]["id"]
    response = await admin.patch(st, json={"defaultSiteSpace": ss})
    assert response.status_code == 200, response.text
    tree = await structure(admin, st)
    assert [s["default"] for s in tree["structure"]] == [False, True]
    message = error_of(await admin.patch(st, json={"defaultSiteSection": "nope"}), 400)
    assert message.startswith("defaultSiteSection:")


async def test_paths_are_unique_among_siblings(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    st = await new_site(admin, ids)
    a = (await admin.post(f"{st}/sections", json={"spaceId": ids.spaces["Onboarding"]})).json()
    b = (
        await admin.post(
            f"{st}/sections", json={"spaceId": ids.spaces["Onboarding"], "title": "Onboarding"}
        )
    ).json()
    assert (a["path"], b["path"]) == ("onboarding", "onboarding-2")
    message = error_of(
        await admin.patch(f"{st}/sections/{b['id']}", json={"path": "onboarding"}), 400
    )
    assert "'onboarding'" in message and message.startswith("path:")
    assert error_of(await admin.patch(f"{st}/sections/{b['id']}", json={"path": "a/b"}), 400)
    # Site spaces: the same path is fine in another section, not beside a sibling.
    ss_b = b["siteSpaces"][0]
    assert ss_b["path"] == "onboarding"
    extra = (
        await admin.post(
            f"{st}/site-spaces", json={"spaceId": ids.spaces["Release Notes"], "sectionId": b["id"]}
        )
    ).json()
    message = error_of(
        await admin.patch(f"{st}/site-spaces/{extra['id']}", json={"path": "onboarding"}), 400
    )
    assert "'onboarding'" in message
    ok = await admin.patch(f"{st}/site-spaces/{extra['id']}", json={"path": "notes"})
    assert ok.json()["path"] == "notes"


async def test_condition_kept_when_omitted_removed_when_null(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    st = await new_site(admin, ids)
    section = (
        await admin.post(f"{st}/sections", json={"spaceId": ids.spaces["Onboarding"]})
    ).json()
    url = f"{st}/sections/{section['id']}"
    assert (await admin.patch(url, json={"condition": "visitor.claims.x"})).json()["condition"]
    kept = (await admin.patch(url, json={"title": "Welcome"})).json()
    assert kept["condition"] == "visitor.claims.x" and kept["title"] == "Welcome"
    removed = (await admin.patch(url, json={"condition": None})).json()
    assert "condition" not in removed
    assert error_of(await admin.patch(url, json={"condition": ""}), 400).startswith("condition:")


async def test_section_groups(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    st = await new_site(admin, ids)
    s1 = (await admin.post(f"{st}/sections", json={"spaceId": ids.spaces["Onboarding"]})).json()
    s2 = (await admin.post(f"{st}/sections", json={"spaceId": ids.spaces["Release Notes"]})).json()
    group = await admin.post(
        f"{st}/section-groups", json={"title": "Guides", "sections": [s2["id"]]}
    )
    assert group.status_code == 201
    gid = group.json()["id"]
    assert [s["id"] for s in group.json()["sections"]] == [s2["id"]]
    added = await admin.post(f"{st}/section-groups/{gid}/sections", json={"sectionId": s1["id"]})
    assert added.status_code == 201
    assert [s["id"] for s in added.json()["sections"]] == [s2["id"], s1["id"]]
    assert all(s["sectionGroup"] == gid for s in added.json()["sections"])
    removed = await admin.delete(f"{st}/section-groups/{gid}/sections/{s1['id']}")
    assert removed.status_code == 205
    again = await admin.delete(f"{st}/section-groups/{gid}/sections/{s1['id']}")
    assert again.status_code == 204
    tree = await structure(admin, st)
    assert [i["id"] for i in tree["structure"]] == [gid, s1["id"]]
    assert (await admin.delete(f"{st}/section-groups/{gid}")).status_code == 204
    tree = await structure(admin, st)
    assert [i["id"] for i in tree["structure"]] == [s2["id"], s1["id"]]
    message = error_of(
        await admin.post(f"{st}/section-groups", json={"title": "X", "sections": ["nope"]}), 400
    )
    assert message.startswith("sections[0]:")


async def test_sort_refuses_non_siblings(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    st = await new_site(admin, ids)
    s1 = (await admin.post(f"{st}/sections", json={"spaceId": ids.spaces["Onboarding"]})).json()
    ss = s1["siteSpaces"][0]["id"]
    body = {
        "item": {"type": "site-space", "id": ss},
        "position": {"before": {"type": "site-section", "id": s1["id"]}},
    }
    message = error_of(await admin.patch(f"{st}/structure/sort", json=body), 400)
    assert message.startswith("position.before:")
    body["position"] = {
        "before": {"type": "site-space", "id": ss},
        "after": {"type": "site-space", "id": ss},
    }
    assert error_of(await admin.patch(f"{st}/structure/sort", json=body), 400)
    body = {"item": {"type": "site-space", "id": "nope"}, "position": {}}
    error_of(await admin.patch(f"{st}/structure/sort", json=body), 404)


# ---- ordering against a model --------------------------------------------------------------


def model_move(order: list[str], item: str, before: str | None, after: str | None) -> None:
    order.remove(item)
    if before is not None:
        order.insert(order.index(before), item)
    elif after is not None:
        order.insert(order.index(after) + 1, item)
    else:
        order.append(item)


async def test_order_after_200_random_sorts_and_moves(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    """Random sorts (and the deprecated moves, which must agree with them) on every level,
    compared after each step with a plain list model, and once more from a fresh read."""
    rng = random.Random(14)
    st = await new_site(admin, ids)
    space_ids = [ids.spaces[t] for t in ("Onboarding", "Release Notes", "Design System")]
    sections = []
    for index in range(6):
        body = {"spaceId": space_ids[index % 3], "title": f"Section {index}"}
        sections.append((await admin.post(f"{st}/sections", json=body)).json()["id"])
    group = (
        await admin.post(f"{st}/section-groups", json={"title": "G", "sections": sections[4:]})
    ).json()["id"]
    root: list[tuple[str, str]] = [("site-section", s) for s in sections[:4]]
    root.append(("site-section-group", group))
    in_group = [("site-section", s) for s in sections[4:]]
    target = sections[0]
    for space_id in space_ids:
        await admin.post(f"{st}/site-spaces", json={"spaceId": space_id, "sectionId": target})
    variants = [
        ("site-space", s["id"])
        for s in (await admin.get(f"{st}/sections")).json()["items"][0]["siteSpaces"]
    ]
    levels = [root, in_group, variants]

    async def observed() -> list[list[tuple[str, str]]]:
        tree = await structure(admin, st)
        top = [(i["object"], i["id"]) for i in tree["structure"]]
        grp = next(i for i in tree["structure"] if i["id"] == group)
        first = next(i for i in tree["structure"] if i["id"] == target)
        return [
            top,
            [("site-section", s["id"]) for s in grp["sections"]],
            [("site-space", s["id"]) for s in first["siteSpaces"]],
        ]

    for step in range(200):
        level = rng.choice(levels)
        item = rng.choice(level)
        others = [x for x in level if x != item]
        side = rng.choice(["before", "after", None])
        pointer = rng.choice(others) if side else None
        model_move(
            level,
            item,
            pointer if side == "before" else None,
            pointer if side == "after" else None,
        )
        position = {} if pointer is None else {side: {"type": pointer[0], "id": pointer[1]}}
        kind, item_id = item
        url: str | None = None
        shaped: dict[str, Any] = position
        if step % 3 == 0:  # the deprecated moves, in their own pointer shapes
            if kind == "site-space":
                url = f"{st}/site-spaces/{item_id}/move"
                shaped = {k: {"type": kind, "siteSpace": v["id"]} for k, v in position.items()}
            elif kind == "site-section" and (pointer is None or pointer[0] == kind):
                url = f"{st}/sections/{item_id}/move"
                shaped = {k: {"type": kind, "siteSection": v["id"]} for k, v in position.items()}
            elif kind == "site-section-group":
                url = f"{st}/section-groups/{item_id}/move"
        if url is not None:
            response = await admin.post(url, json={"position": shaped})
            assert response.status_code == 200, response.text
            assert response.json()["id"] == item_id
            assert await observed() == levels, f"step {step}"
            continue
        response = await admin.patch(
            f"{st}/structure/sort",
            json={"item": {"type": kind, "id": item_id}, "position": position},
        )
        assert response.status_code == 200, response.text
        assert response.json()["id"] == item_id
        assert await observed() == levels, f"step {step}"
    # The flat lists read back in the same depth-first order.
    listed = (await admin.get(f"{st}/sections", params={"limit": 3})).json()
    walked = [s["id"] for s in listed["items"]]
    while "next" in listed:
        listed = (
            await admin.get(f"{st}/sections", params={"limit": 3, "page": listed["next"]["page"]})
        ).json()
        walked += [s["id"] for s in listed["items"]]
    expected: list[str] = []
    for kind, item_id in root:
        expected += [i for _, i in in_group] if kind == "site-section-group" else [item_id]
    assert walked == expected


async def test_sort_without_position_goes_to_the_end(api: Any, ids: DemoIds) -> None:
    admin = api(ADMIN)
    st = await new_site(admin, ids, "Release Notes", "Onboarding", "Design System")
    first = (await structure(admin, st))["structure"][0]["id"]
    body = {"item": {"type": "site-space", "id": first}, "position": {}}
    assert (await admin.patch(f"{st}/structure/sort", json=body)).status_code == 200
    tree = await structure(admin, st)
    assert [s["title"] for s in tree["structure"]] == [
        "Onboarding",
        "Design System",
        "Release Notes",
    ]
    # Order is not what makes a default: the first site space stays the default.
    assert tree["structure"][2]["default"] is True


async def test_many_moves_into_the_same_gap_keep_the_order(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    """Sixty moves into the same gap halve it each time, past what a float midpoint can hold;
    the level is renumbered on the way and keeps its exact order."""
    names = ("Onboarding", "Release Notes", "Design System", "Onboarding")
    st = await new_site(admin, ids, *names[:3])
    await admin.post(f"{st}/site-spaces", json={"spaceId": ids.spaces[names[3]]})
    order = [s["id"] for s in (await structure(admin, st))["structure"]]
    for _ in range(60):
        item, anchor = order[-1], order[1]
        body = {
            "item": {"type": "site-space", "id": item},
            "position": {"before": {"type": "site-space", "id": anchor}},
        }
        assert (await admin.patch(f"{st}/structure/sort", json=body)).status_code == 200
        model_move(order, item, anchor, None)
        assert [s["id"] for s in (await structure(admin, st))["structure"]] == order


async def test_a_site_list_walk_survives_removals_and_refuses_a_changed_cursor(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    """Site lists page as every list computed in memory does: the cursor holds the last key."""
    st = await new_site(admin, ids, "Release Notes", "Onboarding", "Design System")
    first = (await admin.get(f"{st}/site-spaces", params={"limit": 2})).json()
    assert [s["title"] for s in first["items"]] == ["Release Notes", "Onboarding"]
    assert first["count"] == 3
    gone = first["items"][0]["id"]
    assert (await admin.delete(f"{st}/site-spaces/{gone}")).status_code == 204
    rest = await admin.get(f"{st}/site-spaces", params={"limit": 2, "page": first["next"]["page"]})
    assert rest.status_code == 200, rest.text
    assert [s["title"] for s in rest.json()["items"]] == ["Design System"]
    assert rest.json()["count"] == 2 and "next" not in rest.json()
    changed = first["next"]["page"][:-2] + ("AA" if first["next"]["page"][-2:] != "AA" else "BB")
    refused = await admin.get(f"{st}/site-spaces", params={"page": changed})
    assert refused.status_code == 400, refused.text
