"""The organization's settings as rows, and what each typed value becomes in `PATCH {O}`:
checked with the same model the server reads the body with (`OrganizationUpdate`), so the
screen refuses exactly what the server would, before anything is sent."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from docdeck.models import Organization, OrganizationUpdate
from docdeck.tui.admin.checks import check_http_url
from docdeck.tui.kit.formatting import role_text, yes_no

__all__ = ["ROLE_CHOICES", "SETTINGS", "Setting", "body_of", "check_setting"]

ROLE_CHOICES = ("guest (no role)", "read", "comment", "review", "edit", "create", "admin")


@dataclass(frozen=True)
class Setting:
    name: str
    """The field of `PATCH {O}`."""
    label: str
    shown: Callable[[Organization], str]
    kind: str = "text"
    """"text" (a form), "flag" (Enter toggles it), "role" (a picker)."""
    placeholder: str = ""
    clearable: bool = False
    """An empty value is sent as null (clears it)."""


def _domains(org: Organization) -> str:
    return ", ".join(org.emailDomains) or "—"


def _content(org: Organization) -> str:
    return org.defaultContent.site if org.defaultContent is not None else "—"


SETTINGS: tuple[Setting, ...] = (
    Setting("title", "Title", lambda o: o.title, placeholder="2 to 255 characters"),
    Setting(
        "emailDomains",
        "Email domains",
        _domains,
        placeholder="example.com, example.org (empty: none)",
    ),
    Setting("hostname", "Hostname", lambda o: o.hostname or "—", placeholder="3 to 32 characters"),
    Setting("defaultRole", "Default role", lambda o: role_text(o.defaultRole), kind="role"),
    Setting(
        "defaultContent",
        "Default content (site id)",
        _content,
        placeholder="a site id (empty: none)",
        clearable=True,
    ),
    Setting(
        "logo",
        "Logo URL",
        lambda o: o.urls.logo or "—",
        placeholder="https://… (empty: none)",
        clearable=True,
    ),
    Setting("sso", "SSO enforced", lambda o: yes_no(o.sso), kind="flag"),
    Setting("ai", "AI", lambda o: yes_no(o.ai), kind="flag"),
    Setting("inviteLinks", "Invite links", lambda o: yes_no(o.inviteLinks), kind="flag"),
)


def body_of(setting: Setting, typed: str) -> dict[str, Any]:
    """The PATCH body for a typed value (not yet checked)."""
    value = typed.strip()
    if setting.name == "emailDomains":
        return {"emailDomains": [part.strip() for part in value.split(",") if part.strip()]}
    if setting.name == "defaultRole":
        return {"defaultRole": None if value.startswith("guest") else value}
    if setting.clearable and not value:
        return {setting.name: None}
    if setting.name == "defaultContent":
        return {"defaultContent": {"type": "site", "site": value}}
    return {setting.name: value}


def _said(error: ValidationError, label: str) -> str:
    first = error.errors()[0]
    context = first.get("ctx") or {}
    kind = first.get("type", "")
    if kind == "string_too_short":
        return f"{label}: at least {context.get('min_length')} characters."
    if kind == "string_too_long":
        return f"{label}: at most {context.get('max_length')} characters."
    message = str(first.get("msg", "not accepted")).removeprefix("Value error, ")
    return f"{label}: {message}."


def check_setting(setting: Setting, typed: str) -> str:
    """ "" when the value may be sent, else what is wrong (as the server would say it)."""
    body = body_of(setting, typed)
    if setting.name == "logo" and body["logo"] is not None:
        problem = check_http_url(body["logo"], setting.label)
        if problem:
            return problem
    if setting.name == "emailDomains":
        for domain in body["emailDomains"]:
            if " " in domain or "." not in domain or "@" in domain:
                return f"{setting.label}: “{domain}” is not a domain (e.g. example.com)."
    if setting.name == "title" and not body["title"]:
        return f"{setting.label} is required."
    try:
        OrganizationUpdate.model_validate(body)
    except ValidationError as error:
        return _said(error, setting.label)
    return ""
