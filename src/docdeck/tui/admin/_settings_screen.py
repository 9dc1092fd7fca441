"""The organization's settings: one row per setting; Enter edits it (a form checked as typed,
a picker for the role, a toggle for a yes/no), each change one `PATCH {O}`; `x` revokes a
link invite by its id."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.binding import BindingType
from textual.widgets import DataTable

from docdeck.models import Organization
from docdeck.tui.admin._base import AdminScreen, Column, Subject
from docdeck.tui.admin.rules import admin_only
from docdeck.tui.admin.settings import ROLE_CHOICES, SETTINGS, Setting, body_of, check_setting
from docdeck.tui.kit.availability import Availability
from docdeck.tui.kit.bindings import binder
from docdeck.tui.kit.dialogs import FormDialog, FormField
from docdeck.tui.kit.workers import read

__all__ = ["SettingsScreen"]

_b = binder("settings")


class SettingsScreen(AdminScreen):
    DEFAULT_CSS = "SettingsScreen #settings { height: 1fr; }"
    BINDINGS: ClassVar[list[BindingType]] = [
        *AdminScreen.BINDINGS,
        _b("escape", "back", "Back", "Back to the organization tree"),
        _b("enter", "edit", "Edit", "Change the highlighted setting (a yes/no is toggled)"),
        _b("x", "revoke_invite", "Revoke invite", "Revoke a link invite by its id"),
        _b("r", "refresh", "Refresh", "Read the organization again"),
    ]
    FOOTER_PRIORITY = ("app.help", "back", "edit", "revoke_invite", "refresh")
    ACTIONS = ("edit", "revoke_invite")
    TABLE = "settings"
    COLUMNS = (Column("Setting", "setting", 26), Column("Value", "value"))
    heading = "Settings"

    def __init__(self, organization: Organization) -> None:
        super().__init__(organization)
        self.subject = Subject(organization.title)

    def load(self) -> None:
        """The organization as the tree read it, at once; then read again."""
        self.show(self.organization)
        self.action_refresh()

    @property
    def highlighted(self) -> Setting | None:
        return self.table.item_of(SETTINGS)

    def show(self, organization: Organization) -> None:
        self.organization = organization
        table = self.table
        row = table.cursor_row
        table.clear()
        for setting in SETTINGS:
            value = setting.shown(organization)
            busy = "⟳ " if self.subject.busy else ""
            table.add_row(setting.label, f"{busy}{value}", key=setting.name)
        table.move_cursor(row=max(row, 0), animate=False)
        self.say("Enter changes the highlighted setting; x revokes a link invite.")

    def subject_changed(self) -> None:
        self.show(self.organization)

    def action_refresh(self) -> None:
        self._read()

    @read("read", lambda self: f"Reading {self.organization.title}")
    async def _read(self) -> None:
        await self._reload()

    async def _reload(self) -> None:
        try:
            organization = await self.client.orgs.get(self.organization.id)
        except Exception as error:
            self.say_failure(error, f"Reading {self.organization.title}")
            return
        self.show(organization)

    def availability_of(self, action: str) -> Availability:
        if action == "edit":
            return admin_only(self.organization, "change its settings")
        if action == "revoke_invite":
            return admin_only(self.organization, "revoke its invites")
        return Availability(applies=True)

    async def _patch(self, body: dict[str, Any]) -> Organization:
        return await self.client.orgs.update(self.organization.id, **body)

    @on(DataTable.RowSelected, "#settings")
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_edit()

    def action_edit(self) -> None:
        setting = self.highlighted
        if setting is None or self.explain("edit"):
            return
        if setting.kind == "flag":
            current = getattr(self.organization, setting.name) is True
            body = {setting.name: not current}
            self.start_write(
                self.subject,
                setting.name,
                f"Turning {setting.label} {'off' if current else 'on'}",
                lambda: self._patch(body),
                self.show,
            )
            return
        shown = setting.shown(self.organization)
        if setting.kind == "role":
            field = FormField(
                setting.name,
                setting.label,
                value=shown if shown in ROLE_CHOICES else ROLE_CHOICES[0],
                choices=ROLE_CHOICES,
            )
        else:
            field = FormField(
                setting.name,
                setting.label,
                value="" if shown == "—" else shown,
                placeholder=setting.placeholder,
                required=setting.name in ("title", "hostname"),
                check=lambda typed: check_setting(setting, typed),
            )

        async def send(values: dict[str, str]) -> Organization:
            return await self._patch(body_of(setting, values[setting.name]))

        dialog: FormDialog[Organization] = FormDialog(
            f"{setting.label} of {self.organization.title}",
            [field],
            send,
            doing=f"Changing {setting.label}",
        )
        self.open_write(dialog, self.subject, setting.name, self.show)

    def action_revoke_invite(self) -> None:
        if self.explain("revoke_invite"):
            return

        async def revoke(values: dict[str, str]) -> None:
            await self.client.orgs.delete_invite(self.organization.id, values["invite"].strip())
            self.notify(f"Link invite {values['invite'].strip()} revoked.", title="Revoked")

        dialog: FormDialog[None] = FormDialog(
            "Revoke a link invite",
            [
                FormField(
                    "invite", "Invite id (from the invite link)", required=True, max_length=100
                )
            ],
            revoke,
            doing="Revoking the link invite",
            action_label="Revoke",
        )
        self.app.push_screen(dialog.follow(self.writes, self.subject, "revoke"))
