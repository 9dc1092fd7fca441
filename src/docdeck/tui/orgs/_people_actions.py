"""Browser actions on people: a member's organization role, and a team's members and their roles."""

from __future__ import annotations

import asyncio
from typing import cast

from docdeck.models import ROLE_ORDER, Member, MemberRoleOrGuest, TeamMemberRole
from docdeck.tui.kit.dialogs.confirm import ConfirmDialog
from docdeck.tui.kit.dialogs.form import FormDialog, FormField
from docdeck.tui.kit.dialogs.pick import PickDialog
from docdeck.tui.kit.entries import TeamEntry, org_of
from docdeck.tui.kit.formatting import role_text
from docdeck.tui.orgs._browser_base import BrowserBase

__all__ = ["PeopleActions"]

_ROLE_HELP = {
    "admin": "admin — administrate content: create and delete spaces",
    "create": "create — create content",
    "edit": "edit — edit live content or change requests",
    "review": "review — review content",
    "comment": "comment — access content and its discussions",
    "read": "read — read only",
}


class PeopleActions(BrowserBase):
    def action_change_role(self) -> None:
        table = self.detail.member_table
        member = self.detail.highlighted_member
        org = org_of(self.org_tree.current)
        if table is None or member is None or org is None:
            return
        members = table.entry
        client = self.client
        choices: list[tuple[str, MemberRoleOrGuest]] = [
            (_ROLE_HELP[role], role) for role in reversed(ROLE_ORDER)
        ]
        choices.append(("guest — no organization role, only what is shared", None))
        current = next((i for i, (_, role) in enumerate(choices) if role == member.role), 0)
        label, role = choices[current]
        choices[current] = (f"{label}  (current)", role)

        async def change(role: MemberRoleOrGuest) -> Member:
            return await client.members.update(org.organization.id, member.id, role=role)

        def changed(updated: Member) -> None:
            shown = self.detail.member_table
            if shown is not None and shown.entry is members:
                shown.replace_member(updated)
            else:
                members.member_pages.clear()  # read again when Members is shown next
            self.notify(
                f"{updated.user.displayName} is now {role_text(updated.role)}.",
                title="Role changed",
            )

        async def reread() -> None:
            members.member_pages.clear()
            shown = self.detail.member_table
            if shown is not None and shown.entry is members:
                shown.reload()

        self.open_write(
            PickDialog(
                f"Role of {member.user.displayName}",
                choices,
                change,
                doing=f"Changing the role of {member.user.displayName}",
                current=current,
            ),
            members,
            f"change_role-{member.id}",
            applied=changed,
            reread=reread,
        )

    def _team(self) -> tuple[TeamEntry, str] | None:
        entry = self.org_tree.current
        org = org_of(entry)
        if not isinstance(entry, TeamEntry) or org is None:
            return None
        return entry, org.organization.id

    async def _reload_team(self, entry: TeamEntry, org_id: str) -> None:
        """The membership endpoints answer 204; fetch the team (its count) and members again."""
        client = self.client
        entry.team, entry.memberships = await asyncio.gather(
            client.teams.get(org_id, entry.value.id),
            client.teams.members.list(org_id, entry.value.id, limit=100).all(),
        )
        self.org_tree.refresh_entry(entry)

    def action_add_team_member(self) -> None:
        found = self._team()
        if found is None:
            return
        entry, org_id = found
        client = self.client

        async def add(values: dict[str, str]) -> bool:
            user = values["user"].strip()
            role = values["role"].strip().lower() or "member"
            await client.teams.members.update(
                org_id,
                entry.value.id,
                add=[user],
                memberships={user: {"role": cast(TeamMemberRole, role)}},
            )
            await self._reload_team(entry, org_id)
            return True

        self.open_write(
            FormDialog(
                f"Add a member to {entry.title}",
                [
                    FormField("user", "Email or user id", required=True),
                    FormField("role", "Team role", "member", choices=("member", "owner")),
                ],
                add,
                doing=f"Adding a member to {entry.title}",
                action_label="Add",
            ),
            entry,
            "add_team_member",
            applied=lambda _: self.notify(f"Added to {entry.title}.", title="Team member added"),
            reread=lambda: self._reload_team(entry, org_id),
        )

    def action_remove_team_member(self) -> None:
        found = self._team()
        membership = self.detail.highlighted_membership
        if found is None or membership is None:
            return
        entry, org_id = found
        user = membership.organization
        client = self.client

        async def remove() -> bool:
            await client.teams.members.remove(org_id, entry.value.id, user.id)
            await self._reload_team(entry, org_id)
            return True

        self.open_write(
            ConfirmDialog(
                "Remove from team?",
                f"Remove {user.user.displayName} from the team “{entry.title}”? "
                "They stay a member of the organization.",
                remove,
                doing=f"Removing {user.user.displayName} from {entry.title}",
                action_label="Remove",
            ),
            entry,
            f"remove_team_member-{user.id}",
            applied=lambda _: self.notify(
                f"{user.user.displayName} left {entry.title}.", title="Team member removed"
            ),
            reread=lambda: self._reload_team(entry, org_id),
        )

    def action_toggle_team_role(self) -> None:
        found = self._team()
        membership = self.detail.highlighted_membership
        if found is None or membership is None:
            return
        entry, org_id = found
        user = membership.organization
        name = user.user.displayName
        role: TeamMemberRole = "member" if membership.team.role == "owner" else "owner"
        client = self.client
        action = f"toggle_team_role-{user.id}"
        doing = f"Making {name} {role} of {entry.title}"

        async def put() -> bool:
            await client.teams.members.put(org_id, entry.value.id, user.id, role=role)
            await self._reload_team(entry, org_id)
            return True

        def done(_: object) -> None:
            self.notify(f"{name} is now {role} of {entry.title}.", title="Team role changed")

        owners = [m for m in entry.memberships or () if m.team.role == "owner"]
        if role == "member" and len(owners) == 1:
            # The only owner: after this only organization admins can manage the team.
            self.open_write(
                ConfirmDialog(
                    "Demote the only owner?",
                    f"{name} is the only owner of “{entry.title}”. After this the team has no "
                    "owner: only organization admins can rename it or change its members. "
                    "Make them a member?",
                    put,
                    doing=doing,
                    action_label="Make member",
                ),
                entry,
                action,
                applied=done,
                reread=lambda: self._reload_team(entry, org_id),
            )
            return
        self.send_write(
            entry, action, doing, put, applied=done, reread=lambda: self._reload_team(entry, org_id)
        )
