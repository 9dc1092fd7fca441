"""The gateway against the real sandbox server: every method of the slice, end to end."""

from __future__ import annotations

import pytest

from docdeck.gateway import (
    AuthenticationError,
    BadRequestError,
    Client,
    ConflictError,
    NotFoundError,
    PermissionDeniedError,
    paginate,
)
from docdeck.models import ContentPosition, Organization, SpacePointer


async def first_org(client: Client) -> Organization:
    page = await client.orgs.list()
    assert page.items, "the demo workspace has organizations"
    return page.items[0]


async def test_orgs_read_update_ping_search(client: Client) -> None:
    org = await first_org(client)
    again = await client.orgs.get(org.id)
    assert again.id == org.id
    assert again.permissions.admin is True
    updated = await client.orgs.update(org.id, title="Renamed Org")
    assert updated.title == "Renamed Org"
    assert (await client.orgs.get(org.id)).title == "Renamed Org"
    await client.orgs.ping(org.id)
    me = [m async for m in client.members.list(org.id, sort="lastSeenAt")]
    assert me, "after a ping, the caller is an active member"
    spaces = await client.spaces.list(org.id).all()
    word = spaces[0].title.split()[0]
    hits = await client.orgs.search(org.id, word).all()
    assert any(hit.id == spaces[0].id for hit in hits)
    await client.orgs.delete_invite(org.id, "no-such-invite")


async def test_email_domain_lookup(client: Client) -> None:
    orgs = [o async for o in client.orgs.list()]
    with_domain = next(o for o in orgs if o.emailDomains)
    found = await client.orgs.by_email_domain(with_domain.emailDomains[0])
    assert with_domain.id in {o.id for o in found}
    assert await client.orgs.by_email_domain("nobody-uses-this.example") == []


async def test_members_list_filter_role_sso(client: Client) -> None:
    org = await first_org(client)
    members = await client.members.list(org.id).all()
    assert len(members) >= 8
    roles = {m.role for m in members}
    assert {"admin", "create", "edit", "review", "comment", "read", None} <= roles
    readers = await client.members.list(org.id, role="read").all()
    assert readers
    assert all(m.role == "read" for m in readers)
    guests = await client.members.list(org.id, role="guest").all()
    assert all(m.role is None for m in guests)
    target = readers[0]
    needle = (target.user.email or target.user.displayName)[:4]
    found = await client.members.list(org.id, search=needle).all()
    assert target.id in {m.id for m in found}
    promoted = await client.members.update(org.id, target.id, role="comment")
    assert promoted.role == "comment"
    guest = await client.members.update(org.id, target.id, role=None)
    assert guest.role is None
    assert (await client.members.set_sso(org.id, target.id)).sso is True
    assert (await client.members.get(org.id, target.id)).sso is True
    spaces = await client.members.spaces(org.id, members[0].id).all()
    assert all(item.space.organization == org.id for item in spaces)
    teams = await client.members.teams(org.id, members[0].id).all()
    assert all(item.member.role in ("owner", "member") for item in teams)
    asc = await client.members.list(org.id, order="asc").all()
    assert [m.id for m in asc] == [m.id for m in reversed(members)]
    await client.members.remove(org.id, target.id)
    with pytest.raises(NotFoundError):
        await client.members.get(org.id, target.id)
    await client.members.remove(org.id, target.id)


async def test_teams_and_team_members(client: Client) -> None:
    org = await first_org(client)
    members = await client.members.list(org.id).all()
    team = await client.teams.create(org.id, title="Docs Guild", members=[members[1].id])
    assert team.title == "Docs Guild"
    assert team.members == 1
    assert (await client.teams.get(org.id, team.id)).id == team.id
    renamed = await client.teams.update(org.id, team.id, title="Docs Guild II")
    assert renamed.title == "Docs Guild II"
    listed = await client.teams.list(org.id, title="guild ii").all()
    assert [t.id for t in listed] == [team.id]
    a, b, c = members[2], members[3], members[4]
    email_b = b.user.email
    assert email_b
    await client.teams.members.update(
        org.id,
        team.id,
        add=[a.id, email_b, c.id],
        remove=[c.id],
        memberships={a.id: {"role": "owner"}},
    )
    rows = await client.teams.members.list(org.id, team.id).all()
    by_id = {row.organization.id: row.team.role for row in rows}
    assert a.id in by_id and b.id in by_id
    assert c.id not in by_id, "a user in both add and remove is removed"
    assert by_id[a.id] == "owner"
    await client.teams.members.put(org.id, team.id, b.id, role="owner")
    await client.teams.members.remove(org.id, team.id, a.id)
    await client.teams.members.remove(org.id, team.id, a.id)
    rows = await client.teams.members.list(org.id, team.id).all()
    assert {row.organization.id: row.team.role for row in rows}.get(b.id) == "owner"
    assert a.id not in {row.organization.id for row in rows}
    with pytest.raises(BadRequestError):
        await client.teams.members.update(org.id, team.id, add=["nobody@example.invalid"])
    await client.teams.delete(org.id, team.id)
    with pytest.raises(NotFoundError):
        await client.teams.get(org.id, team.id)
    await client.teams.delete(org.id, team.id)


async def test_collections_lifecycle(client: Client) -> None:
    org = await first_org(client)
    parent = await client.collections.create(org.id, title="Platform")
    child = await client.collections.create(org.id, title="APIs", parent=parent.id)
    assert child.parent == parent.id
    nested = await client.collections.list(org.id).all()
    top = await client.collections.list(org.id, nested=False).all()
    assert child.id in {c.id for c in nested}
    assert child.id not in {c.id for c in top}
    updated = await client.collections.update(
        parent.id, description="Everything platform", defaultLevel="read"
    )
    assert updated.description == "Everything platform"
    assert updated.defaultLevel == "read"
    space = await client.spaces.create(org.id, title="Gateway guide", parent=child.id)
    assert [s.id for s in await client.collections.spaces(child.id).all()] == [space.id]
    moved = await client.collections.move(child.id, parent=None)
    assert moved.parent is None
    with pytest.raises(ConflictError):
        await client.collections.move(child.id, parent=None)
    with pytest.raises(BadRequestError):
        await client.collections.move(parent.id, parent=parent.id)
    other = (await client.orgs.list()).items[1]
    transferred = await client.collections.transfer(child.id, organization=other.id)
    assert transferred.organization == other.id
    assert (await client.spaces.get(space.id)).organization == other.id
    with pytest.raises(ConflictError):
        await client.collections.transfer(child.id, organization=other.id)
    await client.collections.delete(parent.id)
    with pytest.raises(NotFoundError):
        await client.collections.get(parent.id)
    await client.collections.delete(parent.id)


async def test_spaces_lifecycle(client: Client) -> None:
    org = await first_org(client)
    collection = await client.collections.create(org.id, title="Guides")
    space = await client.spaces.create(org.id, title="Onboarding", emoji="🚀")
    assert space.revision
    assert space.urls.location.endswith(f"/v1/spaces/{space.id}")
    updated = await client.spaces.update(space.id, title="Onboarding 2", editMode="locked")
    assert (updated.title, updated.editMode) == ("Onboarding 2", "locked")
    no_emoji = await client.spaces.update(space.id, emoji=None)
    assert not no_emoji.emoji
    copy = await client.spaces.duplicate(space.id)
    assert copy.id != space.id
    assert "Onboarding 2" in copy.title
    moved = await client.spaces.move(space.id, parent=collection.id)
    assert moved.parent == collection.id
    with pytest.raises(ConflictError):
        await client.spaces.move(space.id, parent=collection.id)
    copy_moved = await client.spaces.move(
        copy.id,
        parent=collection.id,
        position=ContentPosition(before=SpacePointer(type="space", space=space.id)),
    )
    assert copy_moved.parent == collection.id
    order = [s.id for s in await client.collections.spaces(collection.id).all()]
    assert order.index(copy.id) < order.index(space.id)
    await client.spaces.delete(space.id)
    assert space.id not in {s.id async for s in paginate(client.spaces.list(org.id))}
    deleted = await client.spaces.list_deleted(org.id)
    assert space.id in {s.id for s in deleted}
    restored = await client.spaces.restore(space.id)
    assert restored.deletedAt is None
    other = (await client.orgs.list()).items[1]
    transferred = await client.spaces.transfer(space.id, organization=other.id)
    assert transferred.organization == other.id
    assert transferred.parent is None
    with pytest.raises(NotFoundError):
        await client.spaces.get("no-such-space")


async def test_pagination_walks_every_page(client: Client) -> None:
    org = await first_org(client)
    for i in range(7):
        await client.spaces.create(org.id, title=f"Paged space {i}")
    everything = await client.spaces.list(org.id).all()
    pages = [page async for page in client.spaces.list(org.id, limit=3).iter_pages()]
    assert len(pages) > 2
    assert all(len(page.items) <= 3 for page in pages)
    walked = [s.id for page in pages for s in page.items]
    assert walked == [s.id for s in everything]
    assert pages[0].count == len(everything)
    assert pages[-1].next is None


async def test_bad_input_and_auth_errors(client: Client, client_for, demo_accounts) -> None:
    org = await first_org(client)
    with pytest.raises(BadRequestError) as info:
        await client.spaces.create(org.id, title="x" * 51)
    assert "title" in info.value.message
    with pytest.raises(BadRequestError):
        await client.spaces.list(org.id, limit=5000)
    reader = next(a for a in demo_accounts if a.role == "read")
    async with client_for(reader.email) as low:
        with pytest.raises(PermissionDeniedError):
            await low.spaces.create(org.id, title="Not allowed")
    async with Client(
        str(client.base_url), "not-a-token", transport=client.transport.http._transport
    ) as anon:
        with pytest.raises(AuthenticationError):
            await anon.orgs.list()
