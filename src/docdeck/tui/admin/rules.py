"""Who may do what on the administration screens, with the reason in words when not.

The answers are `docdeck.tui.kit.availability.Availability`, as the browser's are: the
footer dims a key that is not allowed, pressing it says why, and nothing is sent.
"""

from __future__ import annotations

from docdeck.models import OpenAPISpec, Organization, Translation
from docdeck.tui.kit.availability import Availability

__all__ = ["admin_only", "spec_create", "spec_edit", "translation_create", "translation_edit"]

_ALLOWED = Availability(applies=True)
_NOT_HERE = Availability(applies=False)


def _forbidden(reason: str, cause: str) -> Availability:
    return Availability(applies=True, reason=reason, cause=cause)


def spec_create(organization: Organization) -> Availability:
    if organization.permissions.createOpenAPISpec:
        return _ALLOWED
    return _forbidden(
        f"You may not add OpenAPI specs to “{organization.title}”: it needs the create role "
        "or above in the organization.",
        "needs the create role",
    )


def spec_edit(spec: OpenAPISpec | None, verb: str) -> Availability:
    if spec is None:
        return _NOT_HERE
    if spec.permissions.edit:
        return _ALLOWED
    return _forbidden(
        f"You may not {verb} the spec “{spec.slug}”: it needs the create role or above "
        "in the organization.",
        "needs the create role",
    )


def admin_only(organization: Organization, what: str) -> Availability:
    if organization.permissions.admin:
        return _ALLOWED
    return _forbidden(
        f"Only admins of “{organization.title}” may {what}.", "needs organization admin"
    )


def translation_create(organization: Organization) -> Availability:
    """Translating needs the create role, as creating content does (`createContent`)."""
    if organization.permissions.createContent:
        return _ALLOWED
    return _forbidden(
        f"You may not translate spaces of “{organization.title}”: it needs the create role "
        "or above in the organization.",
        "needs the create role",
    )


def translation_edit(translation: Translation | None, verb: str) -> Availability:
    if translation is None:
        return _NOT_HERE
    if translation.permissions.edit:
        return _ALLOWED
    return _forbidden(
        f"You may not {verb} this translation: it needs the create role or above in the "
        "organization.",
        "needs the create role",
    )
