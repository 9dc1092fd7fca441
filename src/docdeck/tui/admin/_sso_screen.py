"""The organization's single sign-on: its SAML identity providers, a form to add or change
one (the certificate pasted or read from a file, checked before sending), delete after
asking; what to give the identity provider (ACS URL, start URL, entity id), each copied by
one key; and the login entry points members see (`GET {O}/sso`). Admins only, as the API."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Static

from docdeck.models import Organization, SAMLProvider, SSOProviderLogin, Team
from docdeck.tui.admin._base import AdminScreen, Column, Subject, with_answer
from docdeck.tui.admin._form import AdminForm
from docdeck.tui.admin.certificates import certificate_text, check_certificate, read_certificate
from docdeck.tui.admin.checks import check_http_url
from docdeck.tui.admin.rules import admin_only
from docdeck.tui.admin.settings import ROLE_CHOICES
from docdeck.tui.kit.availability import Availability
from docdeck.tui.kit.bindings import binder
from docdeck.tui.kit.copy_values import CopyValue
from docdeck.tui.kit.dialogs import FormField
from docdeck.tui.kit.formatting import datetime_text
from docdeck.tui.kit.sharing import copy_value
from docdeck.tui.kit.workers import read

__all__ = ["NO_TEAM", "SSOScreen", "provider_problems"]

_b = binder("sso")

NO_TEAM = "(no team)"
_SERVICE = {
    "copy_acs": ("ACS URL", "acsURL"),
    "copy_start": ("Start URL", "startURL"),
    "copy_entity": ("Entity ID", "entityID"),
}


def provider_problems(provider: SAMLProvider) -> list[str]:
    """What a pending provider still lacks, in the form's words."""
    missing = []
    if not provider.entityID:
        missing.append("Entity ID")
    if not provider.certificate:
        missing.append("Certificate")
    if not provider.ssoURL:
        missing.append("SSO URL")
    return missing


def _status(provider: SAMLProvider) -> Text:
    if provider.status == "active":
        return Text("✔ active", style="green")
    if provider.status == "pending":
        return Text("⏳ pending", style="yellow")
    return Text(str(provider.status))


def _role(role: str | None) -> str:
    return role if role else ROLE_CHOICES[0]


def _check_label(value: str) -> str:
    return "" if value.strip() else "Label: must not be only spaces."


def _check_sso_url(value: str) -> str:
    problem = check_http_url(value, "SSO URL")
    if "http:// or https://" in problem:
        return "SSO URL: an http:// or https:// address, the identity provider's login URL."
    return problem


class SSOScreen(AdminScreen):
    DEFAULT_CSS = """
    SSOScreen #providers { height: auto; max-height: 40%; }
    SSOScreen #provider-side { height: 1fr; }
    SSOScreen #provider-detail { height: auto; padding: 0 1; }
    SSOScreen #logins { height: auto; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *AdminScreen.BINDINGS,
        _b("escape", "back", "Back", "Back to the organization tree"),
        _b("n", "new", "New provider", "Add a SAML identity provider"),
        _b("enter,e", "edit", "Edit", "Change the highlighted provider"),
        _b("a", "copy_acs", "Copy ACS", "Copy the ACS URL to give the identity provider"),
        _b("u", "copy_start", "Copy start URL", "Copy the URL that starts a login"),
        _b("i", "copy_entity", "Copy entity ID", "Copy the service's entity ID (SP metadata)"),
        _b("d,delete", "delete", "Delete", "Delete the provider (asks first)"),
        _b("r", "refresh", "Refresh", "Read the providers again"),
    ]
    FOOTER_PRIORITY = ("app.help", "back", "new", "edit", "copy_acs", "copy_entity", "delete")
    ACTIONS = ("new", "edit", "delete", "copy_acs", "copy_start", "copy_entity")
    TABLE = "providers"
    COLUMNS = (
        Column("Label", "label", 30, narrow=20),
        Column("Status", "status", 10),
        Column("Default team · role", "default", 30, narrow=24),
        Column("Created", "created", 20, wide_only=True),
    )
    heading = "Single sign-on"
    READING = "the SAML providers"

    def __init__(self, organization: Organization) -> None:
        super().__init__(organization)
        self.providers: list[SAMLProvider] | None = None
        self.logins: list[SSOProviderLogin] | None = None
        self.teams: list[Team] | None = None

    def compose_side(self) -> ComposeResult:
        with VerticalScroll(id="provider-side"):
            yield Static("", id="provider-detail", markup=False)
            yield Static("", id="logins", markup=False)

    @property
    def highlighted(self) -> SAMLProvider | None:
        return self.table.item_of(self.providers or [])

    def subject(self, provider: SAMLProvider) -> Subject:
        return self.subjects.setdefault(provider.id, Subject(provider.label))

    # ----- reading ------------------------------------------------------------------------

    def load(self) -> None:
        if not self.organization.permissions.admin:
            # Not asked: the API answers 403 to anyone else, and the reason is known here.
            self.say(
                f"Only admins of “{self.organization.title}” may see and change its single "
                "sign-on providers; ask one of them.",
                error=True,
            )
            self.query_one("#provider-detail", Static).update("")
            return
        if self.providers is None:
            self.say("reading the providers…")
        self._load()

    async def _reload(self) -> None:
        org = self.organization.id
        try:
            providers = await self.client.saml.list(org, limit=100).all()
            logins = await self.client.saml.logins(org)
        except Exception as error:
            self.say_failure(error, "Reading the SAML providers")
            return
        self.logins = logins
        self.show(providers)

    def show(self, providers: list[SAMLProvider], *, select: str | None = None) -> None:
        current = select or (self.highlighted.id if self.highlighted else None)
        self.providers = providers
        self.fill(providers, lambda provider: provider.id, self._cells, current)
        active = sum(1 for provider in providers if provider.status == "active")
        count = len(providers)
        self.say(
            f"{count} provider{'s' if count != 1 else ''}, {active} active"
            if count
            else "No identity provider yet (n adds one)."
        )
        self._show_detail()
        self._show_logins()

    def _cells(self, provider: SAMLProvider) -> list[Any]:
        label = self.busy_mark(provider.id, provider.label)
        team = provider.defaultTeam.title if provider.defaultTeam else "no team"
        cells: list[Any] = [label, _status(provider), f"{team} · {_role(provider.defaultRole)}"]
        if len(self.table.columns) > 3:
            cells.append(datetime_text(provider.createdAt))
        return cells

    def _replace(self, provider: SAMLProvider, *, select: bool = False) -> None:
        providers = with_answer(self.providers or [], provider, lambda p: p.id, new_first=False)
        self.show(providers, select=provider.id if select else None)
        # Whether it is active changed what members can sign in with.
        self._reload_logins()

    @read("logins", "Reading the login entry points")
    async def _reload_logins(self) -> None:
        try:
            self.logins = await self.client.saml.logins(self.organization.id)
        except Exception as error:
            self.say_failure(error, "Reading the login entry points")
            return
        self._show_logins()

    def subject_changed(self) -> None:
        if self.providers is not None:
            self.show(self.providers)

    # ----- the highlighted provider -------------------------------------------------------

    def _show_detail(self) -> None:
        provider = self.highlighted
        detail = self.query_one("#provider-detail", Static)
        if provider is None:
            detail.update("")
            return
        text = Text()
        text.append(provider.label, style="bold")
        text.append("  ")
        text.append_text(_status(provider))
        missing = provider_problems(provider)
        if provider.status != "active" and missing:
            text.append(
                f"\nNot active: members cannot sign in with it until it has its "
                f"{', '.join(missing)} (Enter edits it).",
                style="yellow",
            )
        text.append("\n\nFrom the identity provider", style="bold dim")
        rows = [
            ("Entity ID", provider.entityID or "—"),
            ("SSO URL", provider.ssoURL or "—"),
            ("Certificate", self._certificate_line(provider.certificate)),
            ("Default team", provider.defaultTeam.title if provider.defaultTeam else "none"),
            ("Default role", _role(provider.defaultRole)),
        ]
        for label, value in rows:
            text.append(f"\n{label:<14}", style="dim")
            text.append(value)
        text.append("\n\nTo give the identity provider", style="bold dim")
        if provider.service is None:
            text.append("\nThe server did not say (no service URLs).", style="dim")
        else:
            for key, (label, field) in zip("aui", _SERVICE.values(), strict=True):
                text.append(f"\n{label:<11}", style="dim")
                text.append(f"[{key}] ", style="bold")
                text.append(getattr(provider.service, field))
        detail.update(text)

    @staticmethod
    def _certificate_line(pem: str | None) -> str:
        if not pem:
            return "—"
        certificate, problem = read_certificate(pem)
        if certificate is None:
            return f"⚠ {problem.removeprefix('Certificate: ')}"
        return (
            f"{certificate.subject or 'no subject'}, valid until {certificate.not_after:%Y-%m-%d}"
        )

    def _show_logins(self) -> None:
        text = Text()
        text.append("\nLogin entry points (GET /sso)", style="bold dim")
        if self.logins is None:
            text.append("\n…", style="dim")
        elif not self.logins:
            text.append(
                "\nNone: no provider is active, so members cannot sign in with SSO.", style="dim"
            )
        for login in self.logins or []:
            text.append(f"\n{login.label}: ", style="dim")
            text.append(login.startURL)
        self.query_one("#logins", Static).update(text)

    # ----- actions ------------------------------------------------------------------------

    def availability_of(self, action: str) -> Availability:
        provider = self.highlighted
        if action == "new":
            return admin_only(self.organization, "add identity providers")
        if action in ("edit", "delete") and provider is None:
            return Availability(applies=False)
        if action == "edit":
            return admin_only(self.organization, "change identity providers")
        if action == "delete":
            return admin_only(self.organization, "delete identity providers")
        if action in _SERVICE:
            if provider is None:
                return Availability(applies=False)
            if provider.service is None:
                return Availability(
                    applies=True,
                    reason=f"The server gave no service URLs for “{provider.label}”.",
                    cause="no service URLs",
                )
        return Availability(applies=True)

    def action_refresh(self) -> None:
        self.teams = None
        self.load()

    def _copy(self, action: str) -> None:
        provider = self.highlighted
        if provider is None or self.explain(action) or provider.service is None:
            return
        label, field = _SERVICE[action]
        copy_value(self, CopyValue(label, getattr(provider.service, field)))

    def action_copy_acs(self) -> None:
        self._copy("copy_acs")

    def action_copy_start(self) -> None:
        self._copy("copy_start")

    def action_copy_entity(self) -> None:
        self._copy("copy_entity")

    def action_new(self) -> None:
        if self.explain("new"):
            return
        self._open_form(None)

    def action_edit(self) -> None:
        provider = self.highlighted
        if provider is None or self.explain("edit"):
            return
        self._open_form(provider)

    @on(DataTable.RowSelected, "#providers")
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_edit()

    @read("form", "Reading the teams")
    async def _open_form(self, provider: SAMLProvider | None) -> None:
        """The teams are read first (the default team is picked from them), once."""
        if self.teams is None:
            try:
                self.teams = await self.client.teams.list(self.organization.id, limit=100).all()
            except Exception as error:
                self.say_failure(error, "Reading the teams for the provider form")
                return
        self._push_form(provider, self.teams)

    def _team_choices(self, teams: list[Team]) -> dict[str, str | None]:
        """Picker label -> team id; a title two teams share gets its id beside it."""
        titles = [team.title for team in teams]
        choices: dict[str, str | None] = {NO_TEAM: None}
        for team in teams:
            label = team.title if titles.count(team.title) == 1 else f"{team.title} ({team.id})"
            choices[label] = team.id
        return choices

    def _push_form(self, provider: SAMLProvider | None, teams: list[Team]) -> None:
        teams_by_label = self._team_choices(teams)
        team_label = NO_TEAM
        if provider is not None and provider.defaultTeam is not None:
            for label, team_id in teams_by_label.items():
                if team_id == provider.defaultTeam.id:
                    team_label = label
            if team_label == NO_TEAM:  # a team this list has not got: keep it choosable
                team_label = provider.defaultTeam.title
                teams_by_label[team_label] = provider.defaultTeam.id
        initial = {
            "label": provider.label if provider else "",
            "entityID": (provider.entityID or "") if provider else "",
            "ssoURL": (provider.ssoURL or "") if provider else "",
            "defaultTeam": team_label,
            "defaultRole": _role(provider.defaultRole) if provider else "read",
            "certificate": (provider.certificate or "") if provider else "",
        }
        fields = [
            FormField(
                "label",
                "Label",
                initial["label"],
                "Okta, Entra ID…",
                required=True,
                max_length=30,
                check=_check_label,
            ),
            FormField(
                "entityID",
                "Entity ID",
                initial["entityID"],
                "the identity provider's issuer",
                max_length=1024,
            ),
            FormField(
                "ssoURL",
                "SSO URL",
                initial["ssoURL"],
                "https://… where logins are sent",
                max_length=2048,
                check=_check_sso_url,
            ),
            FormField("defaultTeam", "Default team", team_label, choices=tuple(teams_by_label)),
            FormField("defaultRole", "Default role", initial["defaultRole"], choices=ROLE_CHOICES),
            FormField(
                "certificate",
                "Certificate",
                initial["certificate"],
                "paste the PEM, or a file's path (~/idp.pem)",
                check=check_certificate,
            ),
        ]
        org = self.organization.id

        def body(values: dict[str, str]) -> dict[str, Any]:
            """The fields to send: on create those given, on edit those changed."""
            sent: dict[str, Any] = {}
            for name, value in values.items():
                typed = value.strip()
                if provider is not None and typed == initial[name].strip():
                    continue
                if name == "defaultTeam":
                    team = teams_by_label.get(value)
                    if provider is not None or team is not None:
                        sent["default_team"] = team
                elif name == "defaultRole":
                    sent["default_role"] = None if value == ROLE_CHOICES[0] else value
                elif name == "certificate":
                    if typed or provider is not None:
                        pem, problem = certificate_text(typed) if typed else ("", "")
                        if problem:
                            raise ValueError(problem)
                        sent["certificate"] = pem
                elif name == "label":
                    sent["label"] = typed
                elif typed or provider is not None:
                    sent["entity_id" if name == "entityID" else "sso_url"] = typed
            return sent

        async def send(values: dict[str, str]) -> SAMLProvider:
            if provider is None:
                label = values["label"].strip()
                rest = {k: v for k, v in body(values).items() if k != "label"}
                return await self.client.saml.create(org, label=label, **rest)
            changes = body(values)
            if not changes:
                return provider
            return await self.client.saml.update(org, provider.id, **changes)

        creating = provider is None
        name = provider.label if provider is not None else ""
        dialog: AdminForm[SAMLProvider] = AdminForm(
            "New identity provider" if creating else f"Identity provider “{name}”",
            fields,
            send,
            doing="Adding the identity provider" if creating else f"Saving “{name}”",
            action_label="Add" if creating else "Save",
            areas=frozenset({"certificate"}),
            note="Tab moves between fields; ctrl+s sends. Entity ID, SSO URL and certificate "
            "come from the identity provider; all three make the provider active.",
        )
        subject = Subject("the new provider") if provider is None else self.subject(provider)

        def applied(saved: SAMLProvider) -> None:
            self._replace(saved, select=creating)

        self.open_write(dialog, subject, "create" if creating else "edit", applied)

    def action_delete(self) -> None:
        provider = self.highlighted
        if provider is None or self.explain("delete"):
            return
        org = self.organization.id

        async def delete() -> str:
            await self.client.saml.delete(org, provider.id)
            return provider.id

        def deleted(provider_id: str) -> None:
            self.show([p for p in self.providers or [] if p.id != provider_id])
            self._reload_logins()

        last_active = provider.status == "active" and not any(
            p.status == "active" and p.id != provider.id for p in self.providers or []
        )
        warning = (
            " It is the last active provider: nobody can sign in with SSO afterwards, and "
            "“SSO enforced” is turned off."
            if last_active
            else ""
        )
        question = (
            f"Delete “{provider.label}”? Members who sign in through it cannot any more." + warning
        )
        self.start_write(
            self.subject(provider),
            "delete",
            f"Deleting “{provider.label}”",
            delete,
            deleted,
            ask=("Delete identity provider", question),
        )
