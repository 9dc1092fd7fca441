"""Filter, refresh, help, palette, permissions and failures: the browser's own behaviour."""

from __future__ import annotations

import asyncio

import httpx
from fastapi import FastAPI
from textual.widgets import Static

from docdeck.gateway import APIConnectionError, Client
from docdeck.tui.app import DocdeckApp
from docdeck.tui.kit.connect_error import ConnectErrorScreen
from docdeck.tui.kit.dialogs.form import FormDialog
from docdeck.tui.kit.entries import SiteEntry
from docdeck.tui.kit.help import HelpScreen
from docdeck.tui.orgs import MainScreen
from tui.conftest import RecordingTransport
from tui.helpers import (
    AppFactory,
    find_node,
    labels_under,
    open_node,
    open_northwind,
    select,
    tree_of,
    type_text,
    visible_labels,
    wait_for_workers,
)


async def test_filter_keeps_matches_and_their_ancestors(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Engineering")
        await select(pilot, "Northwind Labs")
        await pilot.press("slash")
        await type_text(pilot, "runbook")
        await pilot.pause()
        assert visible_labels(tree_of(pilot)) == [
            "🏢 Northwind Labs",
            "  ▤ Engineering",
            "    🚨 Incident Runbooks",
        ]
        assert tree_of(pilot).current.title == "Incident Runbooks"  # type: ignore[union-attr]
        await pilot.press("enter", "escape")
        await pilot.pause()
        assert "🏢 Lumen" in visible_labels(tree_of(pilot))
        assert "    🏛 Architecture Decisions" in visible_labels(tree_of(pilot))


async def test_refresh_reloads_what_changed_on_the_server(
    make_app: AppFactory, sandbox_app: FastAPI, admin_token: str
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        org = tree_of(pilot).current
        assert org is not None
        async with Client(
            "http://sandbox", admin_token, transport=httpx.ASGITransport(app=sandbox_app)
        ) as other:
            org_id = org.organization.id  # type: ignore[attr-defined]
            await other.spaces.create(org_id, title="Made Elsewhere", emoji="🛰️")
        assert "🛰 Made Elsewhere" not in labels_under(tree_of(pilot), "Northwind Labs")
        await pilot.press("r")
        await wait_for_workers(pilot)
        assert "🛰 Made Elsewhere" in labels_under(tree_of(pilot), "Northwind Labs")


async def test_refresh_on_a_site_reads_the_site_again(
    make_app: AppFactory, sandbox_app: FastAPI, admin_token: str
) -> None:
    """r on a site: its details (site spaces, published) as the server has them now; r
    read a space or an organization again, never a site."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        org = tree_of(pilot).current
        assert org is not None
        await open_node(pilot, "Sites")
        await select(pilot, "Developer Portal")
        entry = tree_of(pilot).current
        assert isinstance(entry, SiteEntry)
        before = entry.value.siteSpaces
        async with Client(
            "http://sandbox", admin_token, transport=httpx.ASGITransport(app=sandbox_app)
        ) as other:
            spaces = (await other.spaces.list(org.organization.id)).items  # type: ignore[attr-defined]
            onboarding = next(s for s in spaces if s.title == "Onboarding")
            await other.sites.sections.create(
                org.organization.id,  # type: ignore[attr-defined]
                entry.value.id,
                spaceId=onboarding.id,
            )
        await pilot.press("r")
        await wait_for_workers(pilot)
        assert entry.value.siteSpaces == before + 1


async def test_help_lists_every_key(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_workers(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        descriptions = {row.description for row in app.screen.rows}
        assert {
            "New space",
            "Delete",
            "Restore",
            "Change role",
            "Add member",
            "Filter",
            "Quit",
        } <= (descriptions)
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)


async def test_actions_a_read_member_may_not_do_are_disabled_with_a_reason(
    make_app: AppFactory, token_for
) -> None:  # type: ignore[no-untyped-def]
    app = make_app(token=token_for("freya@northwind.dev"))
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Release Notes")
        screen = app.screen
        assert isinstance(screen, MainScreen)
        assert screen.check_action("delete", ()) is None
        assert screen.check_action("rename", ()) is None
        assert screen.check_action("restore", ()) is False
        footer_keys = {key: binding.enabled for key, binding in screen.active_bindings.items()}
        assert footer_keys["d"] is False
        why = str(screen.query_one("#detail-why", Static).render())
        assert "admin role in the space" in why

        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        notes = [n for n in app._notifications if n.title == "Not allowed"]
        assert notes and "Release Notes" in notes[-1].message


async def test_connect_failure_shows_what_to_do_and_retries(
    sandbox_app: FastAPI, admin_token: str
) -> None:
    attempts = 0

    async def connect() -> Client:
        nonlocal attempts
        attempts += 1
        if attempts == 1:
            raise APIConnectionError("Could not connect to the API", method="GET", path="/v1/orgs")
        return Client("http://sandbox", admin_token, transport=httpx.ASGITransport(app=sandbox_app))

    app = DocdeckApp(connect=connect, account_label="work")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_workers(pilot)
        assert isinstance(app.screen, ConnectErrorScreen)
        message = str(app.screen.query_one("#connect-error-message", Static).render())
        assert "Could not connect" in message and "retry" in message
        await pilot.press("r")
        await wait_for_workers(pilot)
        assert isinstance(app.screen, MainScreen)
        assert visible_labels(tree_of(pilot)) == ["🏢 Northwind Labs", "🏢 Lumen"]


async def test_a_refused_token_says_which_setting_to_fix(make_app: AppFactory) -> None:
    app = make_app(token="not-a-real-token", account_source="environment")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_workers(pilot)
        assert isinstance(app.screen, ConnectErrorScreen)
        message = str(app.screen.query_one("#connect-error-message", Static).render())
        assert "token" in message and "DOCDECK_TOKEN" in message


async def test_palette_runs_actions_and_explains_forbidden_ones(
    make_app: AppFactory, token_for
) -> None:  # type: ignore[no-untyped-def]
    app = make_app(token=token_for("freya@northwind.dev"))
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Release Notes")
        await pilot.press("ctrl+p")
        await type_text(pilot, "delete")
        await wait_for_workers(pilot)
        palette = app.screen
        options = palette.query_one("CommandList")
        prompts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]  # type: ignore[attr-defined]
        assert "Unavailable" in prompts[0] and "admin role" in prompts[0]  # docdeck first
        await pilot.press("enter")
        await wait_for_workers(pilot)
        assert isinstance(app.screen, MainScreen)
        notes = [n for n in app._notifications if n.title == "Not allowed"]
        assert notes and "delete" in notes[-1].message


async def test_palette_opens_the_new_space_dialog(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await pilot.press("ctrl+p")
        await type_text(pilot, "new space")
        await wait_for_workers(pilot)
        await pilot.press("enter")
        await wait_for_workers(pilot)
        assert isinstance(app.screen, FormDialog)
        assert "Northwind Labs" in app.screen.dialog_title


async def test_lost_connection_says_so_and_r_retries(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_workers(pilot)
        transport.offline = True
        await open_node(pilot, "Northwind Labs")
        assert labels_under(tree_of(pilot), "Northwind Labs") == ["⚠ not loaded — r retries"]
        errors = [n for n in app._notifications if n.severity == "error"]
        assert errors and "Loading Northwind Labs failed" in errors[-1].title
        assert "press r to retry" in errors[-1].message
        assert isinstance(app.screen, MainScreen)

        transport.offline = False
        await pilot.press("r")
        await wait_for_workers(pilot)
        assert "👥 Members" in labels_under(tree_of(pilot), "Northwind Labs")


async def test_a_reload_while_a_child_is_loading_keeps_it_open_and_its_answer_lands(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        tree = tree_of(pilot)
        release = asyncio.Event()
        transport.held = ("/v1/collections/", release)
        find_node(tree, "Engineering").expand()  # its spaces are being fetched...
        await pilot.pause()
        assert labels_under(tree, "Engineering") == ["loading…"]
        tree.select_entry(find_node(tree, "Northwind Labs").data)
        await pilot.press("r")  # ...when the organization is reloaded
        for _ in range(5):
            await pilot.pause()
        # The organization's answer keeps Engineering (same id) open, still loading.
        assert labels_under(tree, "Engineering") == ["loading…"]
        release.set()  # its answer arrives for the entry that is still there
        transport.held = None
        await wait_for_workers(pilot)
        assert isinstance(app.screen, MainScreen)
        assert "▤ Engineering" in labels_under(tree, "Northwind Labs")
        assert "▤ API" in labels_under(tree, "Engineering")


async def test_the_palette_lists_each_command_once(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await pilot.press("ctrl+p")
        await type_text(pilot, "quit")
        await wait_for_workers(pilot)
        options = app.screen.query_one("CommandList")
        prompts = [
            str(options.get_option_at_index(i).prompt).splitlines()[0]  # type: ignore[attr-defined]
            for i in range(options.option_count)  # type: ignore[attr-defined]
        ]
        assert prompts.count("Quit") == 1, prompts


async def test_an_answer_docdeck_cannot_read_is_not_offered_r(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    """A list whose answer cannot be parsed gives the same failure to every retry: the
    tree's mark says where the reason is instead of offering `r`."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_workers(pilot)
        transport.unreadable = "/spaces"
        await open_node(pilot, "Northwind Labs")
        assert labels_under(tree_of(pilot), "Northwind Labs") == [
            "⚠ not loaded — the notification says why"
        ]
        errors = [n for n in app._notifications if n.severity == "error"]
        assert errors and "r retries" not in errors[-1].message
