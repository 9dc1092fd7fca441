"""Translations against the sandbox: the demo's pending translation explained in plain words
(the sandbox has no translator unless one is configured); with the pseudo-localization
translator, one created through the form (instructions written in $EDITOR) runs to
`completed` with no key pressed and Enter opens its result space; instructions changed and
the translation deleted, each checked through the API; a reader told why it cannot."""

from __future__ import annotations

from collections.abc import Callable
from typing import get_args

import pytest
from textual.widgets import Select

from docdeck.gateway import Client, NotFoundError
from docdeck.models import TranslationLanguage
from docdeck.tui.admin import (
    LANGUAGES,
    AdminForm,
    TranslationsScreen,
    document_of,
    text_of,
)
from docdeck.tui.space import SpaceScreen
from tui.admin.helpers import open_admin
from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, screen_lines, wait_for_workers, wait_until
from tui.review.editor import use_test_editor


def _text(pilot) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(screen_lines(pilot))


def _api(transport: RecordingTransport, token: str) -> Client:
    return Client("http://sandbox", token, transport=transport, max_retries=0)


def _posts(transport: RecordingTransport) -> list[str]:
    return [r for r in transport.requests if r.startswith("POST") and "/translations" in r]


def test_languages_and_instructions() -> None:
    assert tuple(LANGUAGES) == get_args(TranslationLanguage)
    text = "Keep product names in English.\n\nUse the formal you."
    document = document_of(text)
    assert document["object"] == "document" and len(document["nodes"]) == 2
    assert text_of(document) == text
    assert document_of("  \n\n ")["nodes"] == []


async def test_a_pending_translation_is_explained(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_admin(pilot, "Translations")
        assert isinstance(screen, TranslationsScreen)
        screen.STALL_S = 0.2
        await wait_until(pilot, lambda: screen.translations is not None, "the list is read")
        text = _text(pilot)
        assert "Translations · Northwind Labs" in text
        assert "Webhooks Guide" in text and "en → fr" in text
        assert "Keep product names and code in English." in text  # its instructions
        await wait_until(pilot, lambda: "⏸ not started" in _text(pilot), "it stays pending")
        text = _text(pilot)
        assert "1 not started: the server has no translator" in text
        assert "DOCDECK_TRANSLATOR=pseudo" in text and "DOCDECK_TRANSLATOR_COMMAND" in text
        assert screen._poll is None  # not read again and again once it is known to wait
        await pilot.press("enter")
        await pilot.pause()
        assert any("has no result yet" in n.message for n in app._notifications)
        assert app.screen is screen


async def test_a_pseudo_translation_runs_opens_changes_and_goes(
    make_app: AppFactory,
    transport: RecordingTransport,
    admin_token: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DOCDECK_TRANSLATOR", "pseudo")  # the sandbox's documented switch
    use_test_editor(monkeypatch)
    monkeypatch.setenv("DOCDECK_TEST_EDIT_WRITE", "Keep code in English.")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_admin(pilot, "Translations")
        assert isinstance(screen, TranslationsScreen)
        screen.POLL_S = 0.05
        await wait_until(pilot, lambda: screen.spaces is not None, "the spaces are read")
        before = {t.id for t in screen.translations or []}
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, AdminForm), "the form")
        form = app.screen
        assert isinstance(form, AdminForm)
        form.query_one("#field-space", Select).value = "Webhooks Guide"
        form.query_one("#field-language", Select).value = "en · English"
        await pilot.press("ctrl+s")  # the same language twice: refused before sending
        await wait_until(
            pilot,
            lambda: (
                "must differ from the source" in str(form.query_one("#error-language").render())
            ),
            "the problem is shown under the language",
        )
        assert not _posts(transport)
        form.query_one("#field-language", Select).value = "de · German"
        await pilot.press("ctrl+e")  # the instructions, in $EDITOR
        await wait_until(
            pilot,
            lambda: form.values["instructions"] == "Keep code in English.",
            "the editor wrote them",
        )
        assert "Keep code in English." in str(form.query_one("#instructions-preview").render())
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.screen is screen, "the form closed")
        # No key from here: the status follows the job until it completes.
        await wait_until(
            pilot,
            lambda: any(
                t.id not in before and t.status == "completed" for t in screen.translations or []
            ),
            "the new translation completed",
        )
        created = next(t for t in screen.translations or [] if t.id not in before)
        assert screen.highlighted is not None and screen.highlighted.id == created.id
        assert created.result is not None
        await wait_until(pilot, lambda: "✔ completed" in _text(pilot), "shown completed")
        org = screen.organization.id
        async with _api(transport, admin_token) as api:
            stored = await api.translations.get(org, created.id)
            assert stored.status == "completed" and stored.language == "de"
            assert stored.stats.totalPages > 0
            assert text_of(stored.instructions.model_dump()) == "Keep code in English."  # type: ignore[union-attr]

            await pilot.press("enter")  # the result space, on the space screen
            await wait_until(pilot, lambda: isinstance(app.screen, SpaceScreen), "space screen")
            space_screen = app.screen
            assert isinstance(space_screen, SpaceScreen)
            assert space_screen.space.id == created.result.space
            await wait_for_workers(pilot)
            await pilot.press("escape")
            await wait_until(pilot, lambda: app.screen is screen, "back on the translations")

            monkeypatch.setenv("DOCDECK_TEST_EDIT_WRITE", "Use the formal Sie.")
            await pilot.press("e")
            await wait_until(
                pilot,
                lambda: any(r.startswith("PUT") for r in transport.requests),
                "the new instructions are sent",
            )
            await wait_until(
                pilot,
                lambda: "Use the formal Sie." in _text(pilot),
                "the new instructions are shown",
            )
            changed = await api.translations.get(org, created.id)
            assert text_of(changed.instructions.model_dump()) == "Use the formal Sie."  # type: ignore[union-attr]

            await wait_until(
                pilot,
                lambda: screen.highlighted is not None and screen.highlighted.status == "completed",
                "the run with the new instructions is over",
            )
            await pilot.press("d")
            await wait_until(pilot, lambda: app.screen is not screen, "asked first")
            question = str(app.screen.query_one("#dialog-question").render())
            assert "Its result space stays" in question
            await pilot.press("y")
            await wait_until(
                pilot,
                lambda: created.id not in [t.id for t in screen.translations or []],
                "the translation is gone from the list",
            )
            with pytest.raises(NotFoundError):
                await api.translations.get(org, created.id)


async def test_a_reader_is_told_why_it_cannot_translate(
    make_app: AppFactory, token_for: Callable[[str], str], transport: RecordingTransport
) -> None:
    app = make_app(token=token_for("freya@northwind.dev"))  # read role
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_admin(pilot, "Translations")
        assert isinstance(screen, TranslationsScreen)
        await wait_until(pilot, lambda: screen.translations is not None, "the list is read")
        for key in ("n", "e", "d"):
            await pilot.press(key)
            await pilot.pause()
        assert any("needs the create role" in n.message for n in app._notifications)
        assert app.screen is screen
        assert not _posts(transport)
        assert not any(r.startswith(("PUT", "DELETE")) for r in transport.requests)
