"""Creating, renaming, moving, deleting, restoring and duplicating, end to end on the sandbox."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from textual.widgets import Input
from textual.widgets._toast import Toast

from docdeck.tui.kit.dialogs.confirm import ConfirmDialog
from docdeck.tui.kit.dialogs.form import FormDialog
from docdeck.tui.kit.dialogs.pick import PickDialog
from docdeck.tui.kit.entries import SpaceEntry
from docdeck.tui.orgs import DetailPane, FieldList, MainScreen
from docdeck.tui.orgs.emoji_check import emoji_problem
from tui.conftest import RecordingTransport
from tui.helpers import (
    AppFactory,
    dialog_input,
    labels_under,
    open_node,
    open_northwind,
    select,
    tree_of,
    type_text,
    wait_for_workers,
    wait_until,
)


async def test_create_a_space_in_a_collection(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Company Handbook")
        await pilot.press("n")
        assert isinstance(app.screen, FormDialog)
        dialog_input(pilot, "title").value = "Security Policies"
        await pilot.press("tab")
        dialog_input(pilot, "emoji").value = "🔐"
        await pilot.press("enter")
        await wait_for_workers(pilot)
        assert not isinstance(app.screen, FormDialog)
        tree = tree_of(pilot)
        assert "🔐 Security Policies" in labels_under(tree, "Company Handbook")
        current = tree.current
        assert isinstance(current, SpaceEntry) and current.title == "Security Policies"
        fields = app.screen.query_one(DetailPane).query_one(FieldList)
        assert fields.value_of("Collection") == "Company Handbook"


async def test_the_emoji_field_takes_only_an_emoji(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Northwind Labs")
        await pilot.press("n")
        dialog_input(pilot, "title").value = "Vault"
        dialog_input(pilot, "emoji").value = "lock"
        transport.requests.clear()
        dialog_input(pilot, "emoji").focus()
        await pilot.press("enter")
        await wait_for_workers(pilot)
        assert isinstance(app.screen, FormDialog)
        error = str(app.screen.query_one("#dialog-error").render())
        assert "“l” is not an emoji" in error and "📘" in error
        assert transport.requests == []
        # Nothing typed is lost; one emoji goes through.
        assert dialog_input(pilot, "title").value == "Vault"
        assert dialog_input(pilot, "emoji").value == "lock"
        dialog_input(pilot, "emoji").value = "🔐🔑"
        await pilot.press("enter")
        await wait_for_workers(pilot)
        assert "one emoji only" in str(app.screen.query_one("#dialog-error").render())
        # An arrow is a symbol, not an emoji: the server would refuse it, so the form does.
        dialog_input(pilot, "emoji").value = "←"
        await pilot.press("enter")
        await wait_for_workers(pilot)
        assert "“←” is not an emoji" in str(app.screen.query_one("#dialog-error").render())
        assert transport.requests == []
        dialog_input(pilot, "emoji").value = "🎉"
        await pilot.press("enter")
        await wait_for_workers(pilot)
        assert not isinstance(app.screen, FormDialog)
        assert "🎉 Vault" in labels_under(tree_of(pilot), "Northwind Labs")


@pytest.mark.parametrize(
    "value",
    [
        "🎉",
        "1f389",
        "U+1F468-200D-1F469",
        "👍🏽",
        "🇫🇷",
        "1️⃣",
        "👨‍👩‍👧",
        "©",
        "←",
        "→",
        "■",
        "⬛",
        "⤴",
        "☐",
    ],
)
def test_the_form_and_the_model_agree_on_emoji(value: str) -> None:
    """The form's check is the model's rule, which the sandbox and the gateway apply."""
    from docdeck.models import SpaceUpdate

    try:
        SpaceUpdate(emoji=value)
    except ValidationError:
        accepted = False
    else:
        accepted = True
    assert (emoji_problem(value) == "") is accepted, value


async def test_create_a_collection_at_the_top_level(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Northwind Labs")
        await pilot.press("c")
        await type_text(pilot, "Research")
        await pilot.press("enter")
        await wait_for_workers(pilot)
        children = labels_under(tree_of(pilot), "Northwind Labs")
        assert children[:3] == ["▤ Engineering", "▤ Company Handbook", "▤ Research"]


async def test_rename_a_space(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Release Notes")
        await pilot.press("e")
        assert dialog_input(pilot, "title").value == "Release Notes"
        dialog_input(pilot, "title").value = "Changelog"
        await pilot.press("enter")
        await wait_for_workers(pilot)
        assert "📣 Changelog" in labels_under(tree_of(pilot), "Northwind Labs")
        fields = app.screen.query_one(DetailPane).query_one(FieldList)
        assert fields.value_of("Title") == "📣 Changelog"


async def test_a_title_with_brackets_is_said_as_written(make_app: AppFactory) -> None:
    """Notifications and dialogs read their text as Textual markup: "Renamed to “Docs
    [beta]”." showed as "Renamed to “Docs ”.", the delete question as "Delete the space
    “Docs   x”?", and a title holding "[/]" could raise a MarkupError as it drew."""
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Release Notes")
        await pilot.press("e")
        dialog_input(pilot, "title").value = "Docs [beta] [/] [bold]x"
        await pilot.press("enter")
        await wait_for_workers(pilot)
        await wait_until(pilot, lambda: bool(app.screen.query(Toast)), "the notification on screen")
        toasts = [str(toast.render()) for toast in app.screen.query(Toast)]
        assert any("Renamed to “Docs [beta] [/] [bold]x”." in text for text in toasts), toasts
        await pilot.press("d")  # the dialog asks about it by its name, as written
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the question")
        question = str(app.screen.query_one("#dialog-question").render())
        assert "“Docs [beta] [/] [bold]x”" in question, question
        await pilot.press("n")
        assert app._exception is None


async def test_move_a_space_into_a_collection(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Engineering")
        await select(pilot, "Design System")
        await pilot.press("m")
        assert isinstance(app.screen, PickDialog)
        labels = [label for label, _ in app.screen.choices]
        assert labels[:4] == [
            "(top level of the organization)  (current)",
            "Engineering",
            "Engineering / API",
            "Company Handbook",
        ]
        await pilot.press("down", "enter")
        await wait_for_workers(pilot)
        tree = tree_of(pilot)
        assert "🎨 Design System" not in labels_under(tree, "Northwind Labs")
        assert "🎨 Design System" in labels_under(tree, "Engineering")
        fields = app.screen.query_one(DetailPane).query_one(FieldList)
        assert fields.value_of("Collection") == "Engineering"


async def test_delete_then_restore_a_space(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Design System")
        await pilot.press("d")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await wait_for_workers(pilot)
        tree = tree_of(pilot)
        assert "🎨 Design System" not in labels_under(tree, "Northwind Labs")

        await open_node(pilot, "Recently deleted")
        assert "🎨 Design System" in labels_under(tree, "Recently deleted")
        await select(pilot, "Design System")
        fields = app.screen.query_one(DetailPane).query_one(FieldList)
        assert fields.value_of("Deleted") != "—"
        await pilot.press("u")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await wait_for_workers(pilot)
        assert "🎨 Design System" not in labels_under(tree, "Recently deleted")
        assert "🎨 Design System" in labels_under(tree, "Northwind Labs")


async def test_cancelled_delete_changes_nothing(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Design System")
        await pilot.press("d", "n")
        await wait_for_workers(pilot)
        assert "🎨 Design System" in labels_under(tree_of(pilot), "Northwind Labs")


async def test_q_in_a_dialog_cancels_it_and_keeps_the_app(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Design System")
        for key, dialog in (("m", PickDialog), ("d", ConfirmDialog)):
            await pilot.press(key)
            assert isinstance(app.screen, dialog)
            await pilot.press("q")
            await wait_for_workers(pilot)
            assert app.is_running
            assert isinstance(app.screen, MainScreen)
        assert "🎨 Design System" in labels_under(tree_of(pilot), "Northwind Labs")
        await pilot.press("e")  # in a form, q is a letter like any other
        await pilot.press("q")
        assert isinstance(app.screen, FormDialog)
        assert app.screen.query_one("#field-title", Input).value.endswith("q")


async def test_duplicate_a_space(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Release Notes")
        await pilot.press("D")
        await wait_for_workers(pilot)
        children = labels_under(tree_of(pilot), "Northwind Labs")
        copies = [label for label in children if "Release Notes" in label]
        assert len(copies) == 2
        current = tree_of(pilot).current
        assert isinstance(current, SpaceEntry) and "Release Notes" in current.title
        assert current.node is not None and current.node.label.plain == copies[1]


async def test_rename_and_delete_a_collection(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Recently deleted")
        await select(pilot, "Company Handbook")
        await pilot.press("e")
        dialog_input(pilot, "title").value = "Handbook"
        await pilot.press("enter", "enter")  # title, then description (kept as it was)
        await wait_for_workers(pilot)
        tree = tree_of(pilot)
        assert "▤ Handbook" in labels_under(tree, "Northwind Labs")

        await pilot.press("d")
        assert "Recently deleted" in str(app.screen.query_one("#dialog-question").render())
        await pilot.press("y")
        await wait_for_workers(pilot)
        assert "▤ Handbook" not in labels_under(tree, "Northwind Labs")
        # Its space went to the bin, which was open and is reloaded.
        assert "👋 Onboarding" in labels_under(tree, "Recently deleted")


async def test_rename_then_delete_a_team(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Teams")
        await select(pilot, "Platform")
        await pilot.press("e")
        dialog_input(pilot, "title").value = "Platform Crew"
        await pilot.press("enter")
        await wait_for_workers(pilot)
        assert any(
            label.startswith("Platform Crew") for label in labels_under(tree_of(pilot), "Teams")
        )

        await pilot.press("d", "y")
        await wait_for_workers(pilot)
        teams = labels_under(tree_of(pilot), "Teams")
        assert teams and not any(label.startswith("Platform") for label in teams)
