"""SVG snapshots of the merge checklist and the conflict view (demo data only: names and
texts, no ids or dates). They are pushed over an empty screen: the review pane's header and
the tree's detail pane show ids and dates that differ on every demo build. Update with
`--snapshot-update` after an intended change."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.screen import Screen

from docdeck.gateway import Client
from docdeck.models import ChangeRequest, Space
from docdeck.tui.review import ConflictScreen, MergeScreen
from tui.helpers import AppFactory, wait_for_organizations, wait_for_workers, wait_until
from tui.review.actions_helpers import find_space


async def _change_request(pilot: Pilot[None], number: int) -> tuple[Space, ChangeRequest]:
    await wait_for_organizations(pilot)
    client: Client = pilot.app.client  # type: ignore[attr-defined]
    space = await find_space(client)
    await pilot.app.push_screen(Screen())
    return space, await client.change_requests.get(space.id, number)


async def _checklist(pilot: Pilot[None]) -> None:
    await pilot.app.push_screen(MergeScreen(*await _change_request(pilot, 4)))
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, MergeScreen), "the checklist")
    screen = pilot.app.screen
    assert isinstance(screen, MergeScreen)
    await wait_until(pilot, lambda: screen.state is not None, "the checklist is filled")
    await wait_for_workers(pilot)


async def _conflicts(pilot: Pilot[None]) -> None:
    space, change_request = await _change_request(pilot, 3)
    client: Client = pilot.app.client  # type: ignore[attr-defined]
    assert (await client.change_requests.update_from_main(space.id, 3)).result == "conflicts"
    await pilot.app.push_screen(ConflictScreen(space, change_request))
    await wait_until(
        pilot, lambda: isinstance(pilot.app.screen, ConflictScreen), "the conflict view"
    )
    screen = pilot.app.screen
    assert isinstance(screen, ConflictScreen)
    await wait_until(pilot, lambda: bool(screen.entries), "the conflicts are listed")
    await wait_for_workers(pilot)
    pilot.app.clear_notifications()
    await pilot.pause()


def test_merge_checklist_at_120x40(snap_compare, make_app: AppFactory) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(), terminal_size=(120, 40), run_before=_checklist)


def test_merge_checklist_at_80x24(snap_compare, make_app: AppFactory) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=_checklist)


def test_conflict_view_at_120x40(snap_compare, make_app: AppFactory) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(), terminal_size=(120, 40), run_before=_conflicts)


def test_conflict_view_at_80x24(snap_compare, make_app: AppFactory) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=_conflicts)
