"""Browser actions on people: a member's organization role, and a team's members and their roles."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, cast

from docdeck.models import ROLE_ORDER, Member, MemberRoleOrGuest, TeamMemberRole
from docdeck.tui.kit.dialogs.confirm import ConfirmDialog
from docdeck.tui.kit.dialogs.form import FormDialog, FormField
from docdeck.tui.kit.dialogs.pick import PickDialog
from docdeck.tui.kit.entries import TeamEntry, org_of
from docdeck.tui.kit.formatting import role_text

if TYPE_CHECKING:
    from docdeck.models import TeamMembership
    from docdeck.tui.orgs._browser import OrgBrowser

__all__ = ["PeopleEdits"]

_ROLE_HELP = {
    "admin": "admin — administrate content: create and delete spaces",
    "create": "create — create content",
    "edit": "edit — edit live content or change requests",
    "review": "review — review content",
    "comment": "comment — access content and its discussions",
    "read": "read — read only",
}


class PeopleEdits:
    """A part the browser holds: its people keys run these (they work from the tree and from
    the detail tables, so the keys stay the browser's)."""

    def __init__(self, browser: OrgBrowser) -> None:
        self.browser = browser

    def change_role(self) -> None:
        table = self.browser.detail.member_table
        member = self.browser.detail.highlighted_member
        org = org_of(self.browser.org_tree.current)
        if table is None or member is None or org is None:
            return
        members = table.entry
        client = self.browser.client
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
            shown = self.browser.detail.member_table
            if shown is not None and shown.entry is members:
                shown.replace_member(updated)
            else:
                members.member_pages.clear()  # read again when Members is shown next
            self.browser.notify(
                f"{updated.user.displayName} is now {role_text(updated.role)}.",
                title="Role changed",
            )

        async def reread() -> None:
            members.member_pages.clear()
            shown = self.browser.detail.member_table
            if shown is not None and shown.entry is members:
                shown.reload()

        self.browser.open_write(
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
        entry = self.browser.org_tree.current
        org = org_of(entry)
        if not isinstance(entry, TeamEntry) or org is None:
            return None
        return entry, org.organization.id

    async def reload_team(self, entry: TeamEntry, org_id: str) -> None:
        """The membership endpoints answer 204; fetch the team (its count) and members again."""
        client = self.browser.client
        entry.team, entry.memberships = await asyncio.gather(
            client.teams.get(org_id, entry.value.id),
            client.teams.members.list(org_id, entry.value.id, limit=100).all(),
        )
        self.browser.org_tree.refresh_entry(entry)

    def add_team_member(self) -> None:
        found = self._team()
        if found is None:
            return
        entry, org_id = found
        client = self.browser.client

        async def add(values: dict[str, str]) -> bool:
            user = values["user"].strip()
            role = values["role"].strip().lower() or "member"
            await client.teams.members.update(
                org_id,
                entry.value.id,
                add=[user],
                memberships={user: {"role": cast(TeamMemberRole, role)}},
            )
            await self.reload_team(entry, org_id)
            return True

        self.browser.open_write(
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
            applied=lambda _: self.browser.notify(
                f"Added to {entry.title}.", title="Team member added"
            ),
            reread=lambda: self.reload_team(entry, org_id),
        )

    def _team_membership(self) -> tuple[TeamEntry, str, TeamMembership] | None:
        """The team under the cursor, its organization's id and the membership highlighted in
        its member table; None when either is missing."""
        found = self._team()
        membership = self.browser.detail.highlighted_membership
        if found is None or membership is None:
            return None
        entry, org_id = found
        return entry, org_id, membership

    def remove_team_member(self) -> None:
        found = self._team_membership()
        if found is None:
            return
        entry, org_id, membership = found
        user = membership.organization
        client = self.browser.client

        async def remove() -> bool:
            await client.teams.members.remove(org_id, entry.value.id, user.id)
            await self.reload_team(entry, org_id)
            return True

        self.browser.open_write(
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
            applied=lambda _: self.browser.notify(
                f"{user.user.displayName} left {entry.title}.", title="Team member removed"
            ),
            reread=lambda: self.reload_team(entry, org_id),
        )

    def toggle_team_role(self) -> None:
        found = self._team_membership()
        if found is None:
            return
        entry, org_id, membership = found
        user = membership.organization
        name = user.user.displayName
        role: TeamMemberRole = "member" if membership.team.role == "owner" else "owner"
        client = self.browser.client
        action = f"toggle_team_role-{user.id}"
        doing = f"Making {name} {role} of {entry.title}"

        async def put() -> bool:
            await client.teams.members.put(org_id, entry.value.id, user.id, role=role)
            await self.reload_team(entry, org_id)
            return True

        def done(_: object) -> None:
            self.browser.notify(
                f"{name} is now {role} of {entry.title}.", title="Team role changed"
            )

        owners = [m for m in entry.memberships or () if m.team.role == "owner"]
        if role == "member" and len(owners) == 1:
            # The only owner: after this only organization admins can manage the team.
            self.browser.open_write(
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
                reread=lambda: self.reload_team(entry, org_id),
            )
            return
        self.browser.send_write(
            entry, action, doing, put, applied=done, reread=lambda: self.reload_team(entry, org_id)
        )
