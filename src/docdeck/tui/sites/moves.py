"""Cut and paste: what moving a row to another parent asks of the API, said before it is sent.

The API has no single "move to another parent" call: a section enters a group with one
call and leaves it with another, then a sort puts it where it was pasted; a site space
cannot change section at all, so it is created in the new section and the old one deleted.
A plan lists those calls in words (the confirmation shows them) and runs them in order;
when a later call fails, the calls already made are undone, so the site is as it was.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from docdeck.gateway import Client
from docdeck.tui.sites.structure_model import GROUP, SECTION, SITE_SPACE, Row, StructureModel

__all__ = ["MovePlan", "plan_paste"]

Step = Callable[[], Awaitable[Any]]


@dataclass
class MovePlan:
    summary: str
    steps: list[str] = field(default_factory=list)
    """The calls, in words, in the order they are sent."""
    warning: str = ""
    _calls: list[tuple[Step, Step | None]] = field(default_factory=list, repr=False)
    """Each call and how to undo it (None: nothing to undo, or a sort: the re-read shows)."""

    def add(self, words: str, call: Step, undo: Step | None = None) -> None:
        self.steps.append(words)
        self._calls.append((call, undo))

    async def run(self) -> None:
        done: list[Step | None] = []
        for call, undo in self._calls:
            try:
                await call()
            except BaseException:
                for reverse in reversed(done):
                    if reverse is not None:
                        # What the undo could not restore, the re-read after the failure shows.
                        with contextlib.suppress(Exception):
                            await reverse()
                raise
            done.append(undo)


def _position(model: StructureModel, row: Row) -> tuple[Row | None, Row | None]:
    siblings = model.siblings(row)
    at = siblings.index(row)
    before = siblings[at + 1] if at + 1 < len(siblings) else None
    after = siblings[at - 1] if at > 0 else None
    return before, after


def plan_paste(
    client: Client, org_id: str, site_id: str, model: StructureModel, cut: Row, target: Row
) -> MovePlan | str:
    """The calls that put `cut` at `target` (the highlighted row), or why it cannot go there."""
    if cut is target:
        return "Move the cursor to where it goes first: this is the row that was cut."
    sort = client.sites.structure.sort
    groups = client.sites.section_groups

    def sort_after(row_pointer: dict[str, str], anchor: Row) -> Step:
        return lambda: sort(org_id, site_id, item=row_pointer, after=anchor.pointer)

    def put_back(row: Row) -> Step:
        before, after = _position(model, row)
        if before is not None:
            return lambda: sort(org_id, site_id, item=row.pointer, before=before.pointer)
        if after is not None:
            return lambda: sort(org_id, site_id, item=row.pointer, after=after.pointer)
        return lambda: sort(org_id, site_id, item=row.pointer)

    if cut.kind == SECTION:
        if target.kind == SITE_SPACE:
            assert target.parent is not None
            target = target.parent
        group = target if target.kind == GROUP else target.parent
        old_group = cut.parent
        plan = MovePlan(f"Move {cut.describe()}")
        restore = put_back(cut)

        async def back_into_old_group() -> None:
            if old_group is not None:
                await groups.add_section(org_id, site_id, old_group.id, sectionId=cut.id)
            elif group is not None:
                await groups.remove_section(org_id, site_id, group.id, cut.id)
            await restore()

        if group is not None and group is not old_group:
            plan.summary += f" into the group “{group.title}”"
            plan.add(
                f"add it to the group “{group.title}” (at its end)",
                lambda: groups.add_section(org_id, site_id, group.id, sectionId=cut.id),
                back_into_old_group,
            )
        elif group is None and old_group is not None:
            plan.summary += f" out of the group “{old_group.title}”"
            plan.add(
                f"take it out of the group “{old_group.title}” (it lands after the group)",
                lambda: groups.remove_section(org_id, site_id, old_group.id, cut.id),
                back_into_old_group,
            )
        if target.kind == SECTION or (target.kind == GROUP and group is None):
            plan.add(f"sort it after {target.describe()}", sort_after(cut.pointer, target))
        elif target.kind == GROUP and group is target and not plan.steps:
            return f"{cut.describe().capitalize()} is already in that group."
        return plan

    if cut.kind == SITE_SPACE:
        section = target if target.kind == SECTION else target.parent
        if target.kind == GROUP or (section is None and model.kind == "sections"):
            return "Paste a site space on a section or on one of its site spaces."
        if section is cut.parent:
            if target.kind != SITE_SPACE:
                return f"{cut.describe().capitalize()} is already in that section."
            plan = MovePlan(f"Move {cut.describe()}")
            plan.add(f"sort it after {target.describe()}", sort_after(cut.pointer, target))
            return plan
        assert section is not None
        space_id = cut.value.space.id
        created: dict[str, str] = {}
        site_spaces = client.sites.site_spaces

        async def create() -> None:
            new = await site_spaces.create(org_id, site_id, spaceId=space_id, sectionId=section.id)
            created["id"] = new.id

        async def delete_created() -> None:
            if "id" in created:
                await site_spaces.delete(org_id, site_id, created["id"])

        plan = MovePlan(
            f"Move {cut.describe()} to the section “{section.title}”",
            warning=(
                "A site space cannot change section: it is added to the new section and "
                "deleted from the old one, so it gets a new id (its customization override "
                "does not follow)."
            ),
        )
        plan.add(f"add the space to “{section.title}”", create, delete_created)
        if cut.condition or cut.path:
            condition, path = cut.condition, cut.path

            async def carry() -> None:
                await site_spaces.update(
                    org_id,
                    site_id,
                    created["id"],
                    path=path or "",
                    **({"condition": condition} if condition else {}),
                )

            plan.add(
                f"give it the path /{path}" + (" and its condition" if condition else ""), carry
            )
        if target.kind == SITE_SPACE:

            async def sort_new() -> None:
                await sort(
                    org_id,
                    site_id,
                    item={"type": SITE_SPACE, "id": created["id"]},
                    after=target.pointer,
                )

            plan.add(f"sort it after {target.describe()}", sort_new)
        plan.add(
            f"delete it from “{cut.parent.title if cut.parent else 'the root'}” (last, so a "
            "failure before leaves it where it was)",
            lambda: site_spaces.delete(org_id, site_id, cut.id),
        )
        return plan
    return "Only sections and site spaces can be cut and pasted."
