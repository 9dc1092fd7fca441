"""The change request itself: subject, draft/ready, archive, PDF link."""

from __future__ import annotations

import httpx
from textual.widgets import OptionList

from docdeck.gateway import Client
from docdeck.tui.kit.dialogs.choose import ChooseDialog
from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, dialog_input, type_text, wait_for_workers, wait_until
from tui.review.actions_helpers import open_host, reloaded


async def test_edit_the_subject(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        host = await open_host(pilot, 2)
        await pilot.press("S")
        await wait_for_workers(pilot)
        field = dialog_input(pilot, "subject")
        assert field.value == "Clarify versioning"
        field.value = ""
        await type_text(pilot, "Name the version header")
        before = host.reloads
        await pilot.press("enter")
        await reloaded(pilot, host, before)
        assert host.change_request.subject == "Name the version header"


async def test_a_subject_over_the_limit_is_kept_and_not_sent(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_host(pilot, 2)
        await pilot.press("S")
        await wait_for_workers(pilot)
        field = dialog_input(pilot, "subject")
        field.value = "x" * 101
        sent = len(transport.requests)
        await pilot.press("enter")
        await wait_for_workers(pilot)
        assert field.value == "x" * 101
        assert not any(r.startswith("PATCH") for r in transport.requests[sent:])


async def test_draft_then_ready(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        host = await open_host(pilot, 2)
        before = host.reloads
        await pilot.press("D")
        await reloaded(pilot, host, before)
        assert host.change_request.status == "draft"
        before = host.reloads
        await pilot.press("D")
        await reloaded(pilot, host, before)
        assert host.change_request.status == "open"
        assert any("ready for review" in n.message for n in app._notifications)


async def test_archive_asks_first(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        host = await open_host(pilot, 2)
        await pilot.press("X")
        await wait_for_workers(pilot)
        await pilot.press("n")  # no: nothing changes
        await wait_for_workers(pilot)
        client: Client = app.client  # type: ignore[attr-defined]
        assert (await client.change_requests.get(host.space.id, 2)).status == "open"
        await pilot.press("X")
        await wait_for_workers(pilot)
        before = host.reloads
        await pilot.press("y")
        await reloaded(pilot, host, before)
        assert host.change_request.status == "archived"
        # archived: authoring and merging say why instead of sending
        await pilot.press("D")
        await wait_for_workers(pilot)
        assert any("is archived" in n.message for n in app._notifications)
        # archiving is not one-way: X on an archived one reopens it (asking first)
        await pilot.press("X")
        await wait_for_workers(pilot)
        before = host.reloads
        await pilot.press("y")
        await reloaded(pilot, host, before)
        assert host.change_request.status == "open"
        assert (await client.change_requests.get(host.space.id, 2)).status == "open"


async def test_pdf_link_is_copied(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_host(pilot, 4)
        await pilot.press("P")
        await wait_until(
            pilot,
            lambda: (
                isinstance(pilot.app.screen, ChooseDialog)
                and bool(pilot.app.screen.query(OptionList))
            ),
            "the PDF is ready (its choices composed)",
        )
        pilot.app.screen.query_one(OptionList).highlighted = 1  # copy the link
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(app._clipboard), "the link is copied")
        url = app._clipboard
        assert "/files/" in url
        # the link is real: it serves a PDF (the same caller's token)
        async with httpx.AsyncClient(transport=transport, base_url="http://sandbox") as http:
            path = httpx.URL(url).raw_path.decode()
            auth = {"Authorization": f"Bearer {admin_token}"}
            response = await http.get(path, headers=auth)
        assert response.status_code == 200
        assert response.content.startswith(b"%PDF")
