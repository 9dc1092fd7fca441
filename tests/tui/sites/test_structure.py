"""The structure editor against the sandbox: each change checked through the API."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path

from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, OptionList

from docdeck.gateway import Client
from docdeck.tui.kit.chooser import Chooser
from docdeck.tui.sites import SiteScreen
from docdeck.tui.sites.structure_model import GROUP, SECTION, Row
from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, burst, dialog_input, type_text, wait_for_workers, wait_until
from tui.sites.helpers import dialog_error, open_site, put_cursor, row_titles


async def _structure_titles(app: object, screen: SiteScreen) -> list[str]:
    client: Client = app.client  # type: ignore[attr-defined]
    structure = await client.sites.structure.get(screen.org_id, screen.site.id)
    titles: list[str] = []

    def walk(items: list[object], depth: int) -> None:
        for item in items:
            titles.append("  " * depth + item.title)  # type: ignore[attr-defined]
            children = getattr(item, "sections", None) or getattr(item, "siteSpaces", None) or []
            walk(children, depth + 1)

    walk(structure.structure, 0)  # type: ignore[union-attr]
    return titles


def _sorts(transport: RecordingTransport) -> list[str]:
    return [request for request in transport.requests if request.endswith("/structure/sort")]


async def test_thirty_moves_at_key_speed_are_one_sort_per_burst(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_site(pilot)
        top = [row.title for row in screen.view.model.top]
        assert top == ["Build", "Operate", "Design"]
        await put_cursor(pilot, screen, "Build")
        # 30 moves down and up as fast as the keys come: Build ends one place down.
        keys = ["J", "J"] + ["K", "J"] * 14
        await burst(pilot, keys)
        await wait_until(pilot, lambda: screen.sorts_sent == 1, "the burst was sent")
        await wait_for_workers(pilot)
        expected = ["Operate", "Design", "Build"]
        assert [row.title for row in screen.view.model.top] == expected
        assert len(_sorts(transport)) == 1
        titles = await _structure_titles(app, screen)
        assert [title for title in titles if not title.startswith(" ")] == expected
        # A second burst, back up twice: one more request.
        await burst(pilot, ["ctrl+k", "ctrl+k"])
        await wait_until(pilot, lambda: screen.sorts_sent == 2, "the second burst was sent")
        await wait_for_workers(pilot)
        assert len(_sorts(transport)) == 2
        titles = await _structure_titles(app, screen)
        assert [title for title in titles if not title.startswith(" ")] == [
            "Build",
            "Operate",
            "Design",
        ]


async def test_a_refused_sort_puts_the_row_back_and_says_why(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_site(pilot)
        await put_cursor(pilot, screen, "Build")
        transport.failing = "/structure/sort"
        await burst(pilot, ["J"])
        await wait_until(pilot, lambda: screen.sorts_sent == 1, "the sort was sent")
        await wait_for_workers(pilot)
        assert [row.title for row in screen.view.model.top] == ["Build", "Operate", "Design"]
        assert any("Moving" in (n.title or "") or "Moving" in n.message for n in app._notifications)


async def test_a_refused_edit_keeps_the_tree_and_the_typed_text(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_site(pilot)
        before = row_titles(screen)
        await put_cursor(pilot, screen, "Runbooks")
        await pilot.press("e")
        await wait_until(pilot, lambda: bool(app.screen.query("#field-path")), "the form")
        path = dialog_input(pilot, "path")
        path.value = ""
        path.focus()
        await type_text(pilot, "releases")  # the path of another section: refused
        await pilot.press("enter", "enter", "enter", "enter")
        await wait_for_workers(pilot)
        assert not isinstance(app.screen, SiteScreen)  # the dialog stays open
        assert dialog_input(pilot, "path").value == "releases"
        error = dialog_error(pilot)
        assert "releases" in error
        await pilot.press("escape")
        await wait_for_workers(pilot)
        assert row_titles(screen) == before


async def test_a_path_change_offers_a_redirect_that_is_created(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_site(pilot)
        await put_cursor(pilot, screen, "Design")
        await pilot.press("e")
        await wait_until(pilot, lambda: bool(app.screen.query("#field-path")), "the form")
        path = dialog_input(pilot, "path")
        path.value = "design-system"
        await pilot.press("enter", "enter", "enter", "enter")
        await wait_until(pilot, lambda: bool(app.screen.query("#field-source")), "the offer")
        assert dialog_input(pilot, "source").value == "/design"
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is screen, "back to the editor")
        await wait_for_workers(pilot)
        client: Client = app.client  # type: ignore[assignment]
        resolved = await client.sites.redirects.resolve(screen.org_id, screen.site.id, "/design")
        assert resolved.redirect.destination["kind"] == "site-section"
        assert screen.view.current is not None and screen.view.current.path == "design-system"


async def test_cut_and_paste_moves_a_section_across_groups(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_site(pilot)
        await put_cursor(pilot, screen, "API")
        await pilot.press("x")
        await put_cursor(pilot, screen, "Runbooks")
        await pilot.press("p")
        # Two requests (into the group, then the sort): said first, then confirmed.
        await wait_until(pilot, lambda: bool(app.screen.query("#dialog-question")), "the plan")
        question = str(app.screen.query_one("#dialog-question").render())
        assert "2 requests" in question
        await pilot.press("y")
        await wait_until(pilot, lambda: app.screen is screen, "back to the editor")
        await wait_for_workers(pilot)
        titles = await _structure_titles(app, screen)
        groups = [title for title in titles if not title.startswith(" ")]
        assert groups == ["Build", "Operate", "Design"]
        operate = titles[titles.index("Operate") : titles.index("Design")]
        in_operate = [title for title in operate if title.startswith("  ") and title[2] != " "]
        assert in_operate == ["  Runbooks", "  API", "  Releases"]
        assert row_titles(screen) == titles


async def _new_section(pilot: Pilot[None], screen: SiteScreen, space: str) -> Row:
    """`n`, the space typed into the chooser, Enter: the row the cursor lands on after."""
    app = pilot.app
    before = {row.id for row in screen.view.model.rows}
    await pilot.press("n")
    await wait_until(pilot, lambda: isinstance(app.screen, Chooser), "the spaces")
    await type_text(pilot, space)
    await pilot.press("enter")
    await wait_until(pilot, lambda: app.screen is screen, "back to the editor")
    await wait_until(
        pilot,
        # a section the structure did not hold: the cursor may start on a section, and
        # under load the test looked before the write's answer was read again
        lambda: (
            screen.view.current is not None
            and screen.view.current.kind == SECTION
            and screen.view.current.id not in before
        ),
        "the cursor on the new section",
    )
    row = screen.view.current
    assert row is not None
    return row


async def test_what_is_added_gets_the_cursor(make_app: AppFactory) -> None:
    """n and N: the re-read after the write puts the cursor on the new item, in view;
    before, it stayed where it was and the new section sat off screen at 80x24."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_site(pilot)
        await put_cursor(pilot, screen, "Build")
        row = await _new_section(pilot, screen, "Onboarding")
        assert row.title == "Onboarding" and row.path == "onboarding"
        assert "  Onboarding" in await _structure_titles(app, screen)  # in the group "Build"
        view = screen.view
        top = view.scroll_offset.y
        index = view.model.index(row)
        assert top <= index < top + view.scrollable_content_region.height

        await pilot.press("N")
        await wait_until(pilot, lambda: bool(app.screen.query("#field-title")), "the form")
        await type_text(pilot, "Reference")
        await pilot.press("enter", "enter")
        await wait_until(pilot, lambda: app.screen is screen, "back to the editor")
        await wait_until(
            pilot,
            lambda: screen.view.current is not None and screen.view.current.kind == GROUP,
            "the cursor on the new group",
        )
        assert screen.view.current is not None
        assert screen.view.current.title == "Reference"


async def test_a_new_section_is_in_view_in_a_small_terminal(make_app: AppFactory) -> None:
    """At 50x14 the new section got the cursor while the chooser was open, then the detail
    pane below grew and the list lost two rows: the section was left below its edge."""
    app = make_app()
    async with app.run_test(size=(50, 14)) as pilot:
        screen = await open_site(pilot)
        await put_cursor(pilot, screen, "Build")
        row = await _new_section(pilot, screen, "Onboarding")
        view = screen.view

        def in_view() -> bool:
            top = view.scroll_offset.y
            return top <= view.model.index(row) < top + view.scrollable_content_region.height

        await wait_until(pilot, in_view, "the new section in view")
        assert view.current is row


async def test_a_new_section_goes_into_the_group_the_cursor_is_in(make_app: AppFactory) -> None:
    """n on a group (or on a section inside one) added the section at the top level, and
    it took a cut and a paste to put it where the cursor was."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_site(pilot)
        await put_cursor(pilot, screen, "Runbooks")  # a section of the group "Operate"
        row = await _new_section(pilot, screen, "Onboarding")
        assert row.title == "Onboarding"
        assert row.parent is not None and row.parent.title == "Operate"
        titles = await _structure_titles(app, screen)
        operate = titles.index("Operate")
        assert "  Onboarding" in titles[operate:]  # a section of the group, as stored


async def test_a_space_typed_with_n_goes_into_the_chooser(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    """ "n" and the space's name typed at once: the chooser opens once the spaces are read,
    and the letters typed meanwhile are its filter (they went to the editor while the spaces
    were read, and the chooser opened empty)."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_site(pilot)
        await put_cursor(pilot, screen, "Runbooks")
        read = asyncio.Event()
        transport.held = ("/spaces", read)  # a slow server: the read outlasts the typing
        transport.requests.clear()
        driver = app._driver
        assert driver is not None
        for key in ["n", "O", "n", "b"]:  # typed at once (`burst`, without the pilot's wait)
            event = events.Key(key, key)
            event.set_sender(app)
            driver.send_message(event)
        # Not the pilot's waits here: they wait for the app's queues to empty, which the
        # held keys' polling never lets them do. Plain time passing, bounded.
        await _until(lambda: _sent(transport, "/spaces"))
        await asyncio.sleep(0.3)  # the letters, were they not held, reach the editor now
        read.set()
        await _until(lambda: isinstance(app.screen, Chooser) and app._key_hold.idle)
        field = app.screen.query_one(Input)
        assert field.value == "Onb", "\n".join(app._key_hold.trace)
        assert len(app.screen_stack) == 3  # one chooser: the second n was a letter


def _sent(transport: RecordingTransport, part: str) -> bool:
    return any(part in request for request in transport.requests)


async def _until(condition: Callable[[], bool]) -> None:
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("gave up waiting")


async def test_every_space_of_a_big_organization_can_be_chosen(
    make_app: AppFactory, sandbox_db: Path
) -> None:
    """The space chooser read one page of the organization's spaces (1,000): in a bigger
    organization the others could not be put on the site."""
    from docdeck.server import add_bulk_spaces

    conn = sqlite3.connect(sandbox_db)
    org = conn.execute("SELECT id FROM organizations WHERE title = 'Northwind Labs'").fetchone()
    conn.close()
    add_bulk_spaces(sandbox_db, org[0], 1001)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_site(pilot)
        await put_cursor(pilot, screen, "Runbooks")
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, Chooser), "the space chooser")
        await type_text(pilot, "bulk space 1001")
        await pilot.pause()
        options = app.screen.query_one(OptionList)
        labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert labels == ["Bulk space 1001"]


async def test_a_groups_icon_and_a_sections_description_are_shown_under_the_list(
    make_app: AppFactory,
) -> None:
    """A group's icon and a section's description could be edited but were shown nowhere
    (the list shows titles and paths; the line under it, the URL and the condition)."""
    from textual.widgets import Static

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_site(pilot)
        client: Client = app.client  # type: ignore[attr-defined]
        await put_cursor(pilot, screen, "Build")
        group = screen.view.current
        assert group is not None and group.kind == GROUP
        await client.sites.section_groups.update(
            screen.org_id, screen.site.id, group.id, title="Build", icon="gear"
        )
        await put_cursor(pilot, screen, "API")
        section = screen.view.current
        assert section is not None and section.kind == SECTION
        await client.sites.sections.update(
            screen.org_id, screen.site.id, section.id, description="Every endpoint"
        )
        await pilot.press("r")
        await wait_for_workers(pilot)

        def detail() -> str:
            return str(screen.query_one("#site-row", Static).render())

        await put_cursor(pilot, screen, "Build")
        await wait_until(pilot, lambda: "Icon: gear" in detail(), "the group's icon")
        await put_cursor(pilot, screen, "API")
        await wait_until(pilot, lambda: "Every endpoint" in detail(), "the description")
