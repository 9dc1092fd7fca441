"""Who may do what on the administration screens, with the reason in words when not.

The answers are `docdeck.tui.kit.availability.Availability`, as the browser's are: the
footer dims a key that is not allowed, pressing it says why, and nothing is sent.
"""

from __future__ import annotations

from docdeck.models import OpenAPISpec, Organization, Translation
from docdeck.tui.kit.availability import NOT_HERE, Availability, allowed_if

__all__ = ["admin_only", "spec_create", "spec_edit", "translation_create", "translation_edit"]


def _needs_create_role(allowed: bool, what: str) -> Availability:
    """`what` (add specs, change a translation) needs the create role or above."""
    return allowed_if(
        allowed,
        f"You may not {what}: it needs the create role or above in the organization.",
        "needs the create role",
    )


def spec_create(organization: Organization) -> Availability:
    return _needs_create_role(
        organization.permissions.createOpenAPISpec,
        f"add OpenAPI specs to “{organization.title}”",
    )


def spec_edit(spec: OpenAPISpec | None, verb: str) -> Availability:
    if spec is None:
        return NOT_HERE
    return _needs_create_role(spec.permissions.edit, f"{verb} the spec “{spec.slug}”")


def admin_only(organization: Organization, what: str) -> Availability:
    return allowed_if(
        organization.permissions.admin,
        f"Only admins of “{organization.title}” may {what}.",
        "needs organization admin",
    )


def translation_create(organization: Organization) -> Availability:
    """Translating needs the create role, as creating content does (`createContent`)."""
    return _needs_create_role(
        organization.permissions.createContent,
        f"translate spaces of “{organization.title}”",
    )


def translation_edit(translation: Translation | None, verb: str) -> Availability:
    if translation is None:
        return NOT_HERE
    return _needs_create_role(translation.permissions.edit, f"{verb} this translation")
