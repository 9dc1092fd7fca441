"""The change-request list and the inbox at 80 columns: the subject gets the width the
other columns leave, a cut cell ends in "…", no column needs a horizontal scroll; `O`
cycles the order (updated, created, number, subject) and the cursor keeps its row."""

from __future__ import annotations

from collections.abc import Callable

from docdeck.gateway import Client
from docdeck.tui.review import ReviewInboxScreen
from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, screen_lines, wait_for_organizations, wait_until
from tui.review.helpers import open_change_requests, space_titled
from tui.space.helpers import settle

LONG = "Explain how idempotency keys interact with retried partial refunds and webhooks"


async def _long_subject(transport: RecordingTransport, token: str) -> int:
    async with Client("http://sandbox", token, transport=transport) as client:
        space = await space_titled(client, "Public API Reference")
        cr = await client.change_requests.create(space.id, subject=LONG)
        return cr.number


def _row_of(lines: list[str], number: int) -> str:
    return next(line for line in lines if line.lstrip().startswith(f"{number} "))


async def test_change_request_columns_fit_80_columns_and_sort(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    number = await _long_subject(transport, admin_token)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        view = await open_change_requests(pilot)
        await wait_until(pilot, lambda: number in [cr.number for cr in view.shown], "listed")
        await settle(pilot)
        table = view.table
        assert table.virtual_size.width <= table.size.width, (table.virtual_size, table.size)
        assert view.widths["subject"] >= 20, view.widths
        row = _row_of(screen_lines(pilot), number)
        assert "Explain how idempo" in row and "…" in row, row
        for cr in view.shown:  # the other subjects fit or end in "…"
            line = _row_of(screen_lines(pilot), cr.number)
            assert cr.subject in line or "…" in line, line

        table.focus()
        shown = [cr.number for cr in view.shown]
        table.move_cursor(row=shown.index(number), animate=False)
        await pilot.pause()
        orders = []
        for _ in range(4):
            await pilot.press("O")
            await pilot.pause()
            orders.append(view.order)
            assert view.highlighted is not None and view.highlighted.number == number
            assert f"sort: {view.order}" in "\n".join(screen_lines(pilot))
            if view.order == "number":
                numbers = [cr.number for cr in view.shown]
                assert numbers == sorted(numbers, reverse=True), numbers
            if view.order == "subject":
                subjects = [cr.subject.casefold() for cr in view.shown]
                assert subjects == sorted(subjects), subjects
            if view.order == "created":
                created = [cr.createdAt for cr in view.shown]
                assert created == sorted(created, reverse=True)
        assert orders == ["created", "number", "subject", "updated"]
        dates = [cr.updatedAt for cr in view.shown]
        assert dates == sorted(dates, reverse=True)


async def test_inbox_columns_fit_80_columns_and_sort(
    make_app: AppFactory, transport: RecordingTransport, token_for: Callable[[str], str]
) -> None:
    chen = token_for("chen@northwind.dev")
    await _long_subject(transport, chen)
    app = make_app(token=chen)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_organizations(pilot)
        await pilot.press("i")
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewInboxScreen), "the inbox")
        inbox = app.screen
        assert isinstance(inbox, ReviewInboxScreen)
        await wait_until(pilot, lambda: inbox.inbox is not None, "the inbox is gathered")
        await pilot.pause()
        table = inbox.table
        assert table.virtual_size.width <= table.size.width, (table.virtual_size, table.size)
        assert inbox.widths["subject"] >= 20, inbox.widths
        line = next(line for line in screen_lines(pilot) if "Explain how" in line)
        assert "…" in line, line
        await pilot.press("O", "O")  # number
        await pilot.pause()
        assert inbox.order == "number"
        numbers = [(item.change_request.number) for item in inbox.shown]
        assert numbers == sorted(numbers, reverse=True)
        assert "sort: number" in "\n".join(screen_lines(pilot))
        await pilot.press("O")
        await pilot.pause()
        subjects = [item.change_request.subject.casefold() for item in inbox.shown]
        assert subjects == sorted(subjects)
