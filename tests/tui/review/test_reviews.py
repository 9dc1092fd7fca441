"""Reviewing from the review pane: approve, request changes, requested reviewers."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from textual.widgets import Input, OptionList, Select, TextArea

from docdeck.gateway import Client
from docdeck.tui.review._dialogs import RequestedReviewersScreen
from tui.helpers import AppFactory, screen_lines, type_text, wait_for_workers, wait_until
from tui.review.actions_helpers import open_host, reloaded


async def _review(pilot, verdict: str, comment: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("a")
    await wait_for_workers(pilot)
    pilot.app.screen.query_one("#field-verdict", Select).value = verdict
    pilot.app.screen.query_one("#field-comment", TextArea).focus()
    for number, line in enumerate(comment.split("\n")):
        if number:
            await pilot.press("enter")  # a new line of the comment, not a send
        await type_text(pilot, line)
    await pilot.press("ctrl+s")
    await wait_for_workers(pilot)


async def test_approve_with_a_comment(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        host = await open_host(pilot, 2)
        before = host.reloads
        await _review(pilot, "approve", "Reads well.\nOne nit: the header.")
        await reloaded(pilot, host, before)
        assert pilot.app.screen is host
        client: Client = app.client  # type: ignore[attr-defined]
        reviews = [r async for r in client.change_requests.reviews.list(host.space.id, 2)]
        last = reviews[-1]
        assert last.status == "approved"
        assert last.reviewer.displayName == "Ada Okafor"
        found = client.comments.list(host.space.id, change_request=2)
        posted = [c.body.markdown async for c in found]
        assert "Reads well.\nOne nit: the header." in posted, posted


async def test_request_changes(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        host = await open_host(pilot, 2)
        await _review(pilot, "request changes", "Name the header")
        await wait_until(pilot, lambda: pilot.app.screen is host, "the dialog closed")
        client: Client = app.client  # type: ignore[attr-defined]
        reviews = [r async for r in client.change_requests.reviews.list(host.space.id, 2)]
        assert reviews[-1].status == "changes-requested"


async def test_the_author_cannot_approve_and_the_dialog_keeps_the_comment(
    make_app: AppFactory, token_for
) -> None:  # type: ignore[no-untyped-def]
    """Chen wrote #2: the server refuses his approval (403); the dialog stays open with it."""
    app = make_app(token_for("chen@northwind.dev"))
    async with app.run_test(size=(120, 40)) as pilot:
        await open_host(pilot, 2)
        await _review(pilot, "approve", "Mine is fine")
        lines = "\n".join(screen_lines(pilot))
        assert "failed" in lines.lower() or "403" in lines
        assert pilot.app.screen.query_one("#field-comment", TextArea).text == "Mine is fine"


async def test_add_and_remove_a_requested_reviewer(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        host = await open_host(pilot, 2)
        client: Client = app.client  # type: ignore[attr-defined]
        await pilot.press("w")
        await wait_for_workers(pilot)
        assert "Nobody is asked" in "\n".join(screen_lines(pilot))
        await pilot.press("a")
        await wait_for_workers(pilot)
        picker = pilot.app.screen.query_one(OptionList)
        labels = [str(picker.get_option_at_index(i).prompt) for i in range(picker.option_count)]
        assert any(label.startswith("Dana Kowalski") for label in labels)
        assert not any(label.startswith("Chen Wei") for label in labels)  # the author
        # only who may review: not Emeka (comment role) nor Freya (read role)
        assert not any(label.startswith(("Emeka", "Freya")) for label in labels), labels
        # filtered as typed
        await type_text(pilot, "dana")
        await pilot.pause()
        assert pilot.app.screen.query_one("#chooser-filter", Input).value == "dana"
        picker = pilot.app.screen.query_one(OptionList)
        assert picker.option_count == 1
        await pilot.press("enter")
        await wait_for_workers(pilot)
        await wait_until(
            pilot, lambda: "Dana Kowalski" in "\n".join(screen_lines(pilot)), "Dana is listed"
        )
        asked = (await client.change_requests.requested_reviewers.list(host.space.id, 2)).items
        assert [item.user.displayName for item in asked if item.user] == ["Dana Kowalski"]
        await pilot.press("d")
        await wait_for_workers(pilot)
        await wait_until(
            pilot, lambda: "Nobody is asked" in "\n".join(screen_lines(pilot)), "Dana is gone"
        )
        assert not (await client.change_requests.requested_reviewers.list(host.space.id, 2)).items
        before = host.reloads
        await pilot.press("escape")
        await reloaded(pilot, host, before)


async def test_any_member_of_a_big_organization_can_be_asked(
    make_app: AppFactory, sandbox_db: Path
) -> None:
    """The picker read the first 1,000 members: in a bigger organization the others could
    not be asked. It reads them all, and the chooser lists 200 at once, the rest counted
    until the filter narrows them (10,000 options took 0.75 s to open, 0.4 s a key)."""
    conn = sqlite3.connect(sandbox_db, isolation_level=None)
    org = conn.execute("SELECT id FROM organizations WHERE title = 'Northwind Labs'").fetchone()
    conn.execute("BEGIN")
    for index in range(1100):  # the oldest last: index 1099 is on the second page
        user = f"bulk-{index:04d}"
        conn.execute(
            "INSERT INTO users (id, email, display_name) VALUES (?, ?, ?)",
            (user, f"bulk{index:04d}@northwind.dev", f"Bulk Reviewer {index:04d}"),
        )
        conn.execute(
            "INSERT INTO members (organization_id, user_id, role, joined_at)"
            " VALUES (?, ?, 'edit', ?)",
            (org[0], user, f"2020-01-01T00:00:00.{9999 - index:06d}Z"),
        )
    conn.execute("COMMIT")
    conn.close()
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_host(pilot, 2)
        await pilot.press("w")
        await wait_for_workers(pilot)
        await pilot.press("a")
        await wait_until(
            pilot, lambda: pilot.app.screen.query("#chooser-filter"), "the member chooser"
        )
        picker = pilot.app.screen.query_one(OptionList)
        assert picker.option_count == 201
        last = str(picker.get_option_at_index(200).prompt)
        assert last.startswith("… ") and last.endswith(" more: type to narrow the list")
        await type_text(pilot, "reviewer 1099")
        await pilot.pause()
        picker = pilot.app.screen.query_one(OptionList)
        labels = [str(picker.get_option_at_index(i).prompt) for i in range(picker.option_count)]
        assert labels == ["Bulk Reviewer 1099 · edit"]
        await pilot.press("enter")
        await wait_until(
            pilot,
            lambda: "Bulk Reviewer 1099" in "\n".join(screen_lines(pilot)),
            "the member is asked",
        )


async def test_a_refused_reviewer_is_named_not_an_id(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_host(pilot, 2)
        client: Client = app.client  # type: ignore[attr-defined]
        await pilot.press("w")
        await wait_for_workers(pilot)
        dialog = pilot.app.screen
        assert isinstance(dialog, RequestedReviewersScreen)
        org = dialog.space.organization
        members = (await client.members.list(org, limit=1000)).items
        emeka = next(m.user for m in members if m.user.displayName == "Emeka Nwosu")
        await pilot.press("a")  # the picker reads the members (and their names)
        await wait_for_workers(pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is dialog
        dialog.request(emeka.id)  # a comment-role member (not offered): the server refuses
        await wait_for_workers(pilot)
        lines = "\n".join(screen_lines(pilot))
        assert "Emeka Nwosu" in lines and emeka.id not in lines, lines
