"""The space screen's change requests (`5`): columns, status, contributor and text filters."""

from __future__ import annotations

from tui.helpers import AppFactory, screen_lines, wait_until
from tui.review.helpers import open_change_requests


async def test_the_list_and_its_filters(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_change_requests(pilot)
        # Open ones by default, newest first.
        assert [cr.number for cr in view.shown] == [4, 3, 2]
        await wait_until(
            pilot, lambda: all(cr.id in view.verdicts for cr in view.shown), "review states"
        )
        await pilot.pause()
        lines = screen_lines(pilot)
        row = next(line for line in lines if "Document partial refunds" in line)
        assert "Chen Wei" in row and "open" in row and "✔1 ✘1" in row
        outdated = [line for line in lines if "⚠ outdated" in line]
        assert len(outdated) == 2  # #2 and #3: main moved after they were made
        assert "Clarify versioning" in "\n".join(outdated)

        for status, numbers in (("draft", [5]), ("merged", [1]), ("archived", [6])):
            await pilot.press("s")
            await wait_until(pilot, lambda: view.loaded, f"the {status} list")
            assert view.status == status
            assert [cr.number for cr in view.shown] == numbers
            assert f"status: {status}" in "\n".join(screen_lines(pilot))
        await pilot.press("s")
        await wait_until(pilot, lambda: view.loaded, "the open list again")

        # The contributor cycles through the authors seen.
        while view.contributor is None or view.contributor[1] != "Chen Wei":
            await pilot.press("c")
            await wait_until(pilot, lambda: view.loaded, "the list by one contributor")
        assert [cr.number for cr in view.shown] == [4, 2]
        assert "contributor: Chen Wei" in "\n".join(screen_lines(pilot))
        while view.contributor is not None:
            await pilot.press("c")
            await wait_until(pilot, lambda: view.loaded, "the list for anyone")
        assert [cr.number for cr in view.shown] == [4, 3, 2]

        # Text filter: subject, author or number.
        await pilot.press("f")
        await pilot.press(*"error")
        await pilot.pause()
        assert [cr.number for cr in view.shown] == [3]
        await pilot.press("ctrl+u")  # Input: delete to the start
        await pilot.press(*"#2")
        await pilot.pause()
        assert [cr.number for cr in view.shown] == [2]
        await pilot.press("escape")
        await pilot.pause()
        assert [cr.number for cr in view.shown] == [4, 3, 2]
        assert view.table.has_focus
