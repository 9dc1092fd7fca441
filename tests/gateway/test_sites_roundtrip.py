"""`client.sites` and its nested groups against the real sandbox: every method, typed
answers (the structure and sort unions, both publish branches), typed errors."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter

from docdeck.gateway import BadRequestError, Client, NotFoundError, PermissionDeniedError
from docdeck.models import (
    Site,
    SiteCheckout,
    SiteSection,
    SiteSectionGroup,
    SiteSpace,
    SiteStructure,
    SiteStructureItem,
    SiteStructureSections,
    SiteStructureSiteSpaces,
    UnknownSiteStructure,
    UnknownStructureItem,
)


async def _orgs(client: Client) -> dict[str, str]:
    return {o.title: o.id async for o in client.orgs.list()}


async def _sites(client: Client, org: str) -> dict[str, Site]:
    return {s.title: s async for s in client.sites.list(org)}


async def test_sites_and_structure(client: Client) -> None:
    org = (await _orgs(client))["Northwind Labs"]
    sites = await _sites(client, org)
    portal = sites["Developer Portal"]
    assert portal.published and portal.visibility == "share-link"
    tree = await client.sites.structure.get(org, portal.id)
    assert isinstance(tree, SiteStructureSections)
    kinds = [type(item) for item in tree.structure]
    assert SiteSectionGroup in kinds and SiteSection in kinds
    handbook = await client.sites.structure.get(org, sites["Handbook"].id)
    assert isinstance(handbook, SiteStructureSiteSpaces)
    assert all(isinstance(s, SiteSpace) for s in handbook.structure)
    group = next(i for i in tree.structure if isinstance(i, SiteSectionGroup))
    moved = await client.sites.structure.sort(
        org, portal.id, item={"type": "site-section-group", "id": group.id}
    )
    assert isinstance(moved, SiteSectionGroup) and moved.id == group.id
    tree = await client.sites.structure.get(org, portal.id)
    assert isinstance(tree, SiteStructureSections)
    assert tree.structure[-1].id == group.id


async def test_every_group_of_methods(client: Client) -> None:
    org = (await _orgs(client))["Northwind Labs"]
    spaces = {s.title: s.id async for s in client.spaces.list(org)}
    site = await client.sites.create(org, title="Gateway site", spaces=[spaces["Onboarding"]])
    assert site.siteSpaces == 1
    site = await client.sites.update(org, site.id, basename="gw", agentsContext="excluded")
    assert site.basename == "gw" and (await client.sites.get(org, site.id)).agentsContext
    section = await client.sites.sections.create(org, site.id, spaceId=spaces["Release Notes"])
    section = await client.sites.sections.update(org, site.id, section.id, description="Notes")
    assert section.description == "Notes"
    sections = await client.sites.sections.list(org, site.id).all()
    assert len(sections) == 2
    group = await client.sites.section_groups.create(org, site.id, title="All")
    group = await client.sites.section_groups.add_section(
        org, site.id, group.id, sectionId=section.id
    )
    assert [s.id for s in group.sections] == [section.id]
    await client.sites.section_groups.remove_section(org, site.id, group.id, section.id)
    group = await client.sites.section_groups.update(org, site.id, group.id, title="Everything")
    await client.sites.section_groups.move(org, site.id, group.id)
    assert len(await client.sites.section_groups.list(org, site.id).all()) == 1
    await client.sites.sections.move(org, site.id, section.id)
    variant = await client.sites.site_spaces.create(
        org, site.id, spaceId=spaces["Design System"], sectionId=section.id
    )
    variant = await client.sites.site_spaces.update(org, site.id, variant.id, path="design")
    await client.sites.site_spaces.move(org, site.id, variant.id)
    defaults = await client.sites.site_spaces.list(org, site.id, default=True).all()
    assert variant.id not in [s.id for s in defaults]
    await client.sites.site_spaces.delete(org, site.id, variant.id)
    await client.sites.section_groups.delete(org, site.id, group.id)
    link = await client.sites.share_links.create(org, site.id, name="Review")
    link = await client.sites.share_links.update(org, site.id, link.id, active=False)
    assert link.active is False
    assert len(await client.sites.share_links.list(org, site.id).all()) == 1
    await client.sites.share_links.delete(org, site.id, link.id)
    schema = {
        "type": "object",
        "properties": {"beta": {"type": "boolean", "description": "Beta"}},
        "additionalProperties": False,
    }
    saved = await client.sites.update_adaptive_schema(org, site.id, jsonSchema=schema)
    assert saved.jsonSchema == schema
    assert (await client.sites.get_adaptive_schema(org, site.id)).jsonSchema == schema
    templates = await client.sites.template_conditions(org, site.id)
    assert templates[0].condition == "visitor.claims.beta === true"
    published = await client.sites.publish(org, site.id)
    assert isinstance(published, Site) and published.published
    view = await client.sites.published(org, site.id)
    assert isinstance(view.structure, SiteStructureSections)
    assert "url" in (await client.sites.preview(org, site.id)).model_dump()
    assert not (await client.sites.unpublish(org, site.id)).published
    await client.sites.sections.delete(org, site.id, section.id)
    await client.sites.delete(org, site.id)
    with pytest.raises(NotFoundError):
        await client.sites.get(org, site.id)


async def test_the_checkout_branch_and_typed_errors(client: Client, client_for) -> None:
    orgs = await _orgs(client)
    lumen_docs = (await _sites(client, orgs["Lumen"]))["Lumen Docs"]
    result = await client.sites.publish(orgs["Lumen"], lumen_docs.id)
    assert isinstance(result, SiteCheckout) and result.sessionId
    portal = (await _sites(client, orgs["Northwind Labs"]))["Developer Portal"]
    with pytest.raises(BadRequestError, match="title"):
        await client.sites.update(orgs["Northwind Labs"], portal.id, title="x")
    async with client_for("freya@northwind.dev") as reader:
        with pytest.raises(PermissionDeniedError):
            await reader.sites.share_links.list(orgs["Northwind Labs"], portal.id).all()


def test_unknown_variants_parse_into_generic_models() -> None:
    """A newer platform's structure kinds (external links) do not fail the whole answer."""
    tree = TypeAdapter(SiteStructure).validate_python(
        {"type": "sections", "structure": [{"object": "site-external-link", "id": "l1"}]}
    )
    assert isinstance(tree, SiteStructureSections)
    assert isinstance(tree.structure[0], UnknownStructureItem)
    other = TypeAdapter(SiteStructure).validate_python({"type": "links", "structure": []})
    assert isinstance(other, UnknownSiteStructure)
    item = TypeAdapter(SiteStructureItem).validate_python(
        {"object": "site-external-link", "id": "x", "url": "https://e.example"}
    )
    assert isinstance(item, UnknownStructureItem) and item.model_extra == {
        "url": "https://e.example"
    }


async def test_redirects(client: Client) -> None:
    org = (await _orgs(client))["Northwind Labs"]
    portal = (await _sites(client, org))["Developer Portal"]
    found = await client.sites.redirects.resolve(org, portal.id, "/api-reference")
    assert found.target.endswith("/developers/api/")
    design = next(
        s for s in await client.sites.sections.list(org, portal.id).all() if s.title == "Design"
    )
    created = await client.sites.redirects.create(
        org,
        portal.id,
        source="/style",
        destination={"kind": "site-section", "siteSectionId": design.id},
    )
    created = await client.sites.redirects.update(org, portal.id, created.id, source="/styles")
    assert [r.source for r in await client.sites.redirects.list(org, portal.id).all()] == [
        "/api-reference",
        "/guides/webhooks",
        "/styles",
    ]
    await client.sites.redirects.delete(org, portal.id, created.id)
    with pytest.raises(NotFoundError):
        await client.sites.redirects.resolve(org, portal.id, "/styles")


async def test_customization(client: Client) -> None:
    org = (await _orgs(client))["Northwind Labs"]
    handbook = (await _sites(client, org))["Handbook"]
    settings = await client.sites.customization.get(org, handbook.id)
    settings.styling["theme"] = "gradient"
    saved = await client.sites.customization.update(org, handbook.id, settings)
    assert saved.styling["theme"] == "gradient" and saved.title is None
    site_space = (await client.sites.site_spaces.list(org, handbook.id).all())[0]
    effective = await client.sites.customization.override_site_space(
        org, handbook.id, site_space.id, {"title": "Welcome aboard"}
    )
    assert effective.title == "Welcome aboard" and effective.styling["theme"] == "gradient"
    await client.sites.customization.delete_site_space_override(org, handbook.id, site_space.id)
    again = await client.sites.customization.get_site_space(org, handbook.id, site_space.id)
    assert again.title is None
    with pytest.raises(BadRequestError, match=r"styling\.theme"):
        settings.styling["theme"] = "pink"
        await client.sites.customization.update(org, handbook.id, settings)
