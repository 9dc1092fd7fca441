"""The organization's translations: each with its status, followed without a key press while
a job may run; create one (a source space and languages picked, instructions written in
`$EDITOR`), change the instructions, delete after asking, and Enter to open a completed
translation's result space on the space screen (`OpenSpace`).

A translation that stays `pending` is explained in plain words: the docdeck sandbox runs one
only when it was started with a translator (docs/admin.md); the API has no field saying so,
so the screen says it once a pending translation has not started for `STALL_S` seconds."""

from __future__ import annotations

import time
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.widgets import Button, DataTable, Static

from docdeck.models import Organization, Space, Translation
from docdeck.tui.admin._base import AdminScreen, Column, Subject, with_answer
from docdeck.tui.admin._form import AdminForm, FormPart
from docdeck.tui.admin.instructions import document_of, text_of
from docdeck.tui.admin.rules import translation_create, translation_edit
from docdeck.tui.kit.availability import Availability
from docdeck.tui.kit.bindings import binder
from docdeck.tui.kit.dialogs import FormField
from docdeck.tui.kit.formatting import datetime_text
from docdeck.tui.kit.navigation import OpenSpace
from docdeck.tui.kit.workers import read

__all__ = ["LANGUAGES", "NO_TRANSLATOR_WORDS", "TranslationInstructions", "TranslationsScreen"]

_b = binder("translations")
_f = binder("translation_form")

LANGUAGES: dict[str, str] = {
    "en": "English", "fr": "French", "de": "German", "es": "Spanish", "it": "Italian",
    "pt": "Portuguese", "ru": "Russian", "ja": "Japanese", "zh": "Chinese", "ko": "Korean",
    "ar": "Arabic", "hi": "Hindi", "nl": "Dutch", "pl": "Polish", "tr": "Turkish",
    "sv": "Swedish", "no": "Norwegian", "da": "Danish", "fi": "Finnish", "el": "Greek",
    "cs": "Czech", "hu": "Hungarian", "ro": "Romanian", "th": "Thai", "vi": "Vietnamese",
    "id": "Indonesian", "ms": "Malay", "he": "Hebrew", "uk": "Ukrainian", "sk": "Slovak",
    "bg": "Bulgarian", "hr": "Croatian", "lt": "Lithuanian", "lv": "Latvian",
    "et": "Estonian", "sl": "Slovenian",
}  # fmt: skip
"""The platform's languages (`TranslationLanguage`, in its order) with their English names."""
_CHOICES = tuple(f"{code} · {name}" for code, name in LANGUAGES.items())

NO_TRANSLATOR_WORDS = (
    "A translation runs only where the server has a translator. The docdeck sandbox ships no "
    "translation engine: started without DOCDECK_TRANSLATOR_COMMAND (a command that "
    "translates markdown) or DOCDECK_TRANSLATOR=pseudo (pseudo-localized text, to try the "
    "workflow), it leaves every translation pending (docs/admin.md says how). On the hosted "
    "platform, a pending translation starts when the platform gets to it."
)


def _document(translation: Translation) -> dict[str, Any] | None:
    found = translation.instructions
    return found.model_dump() if found is not None else None


def _code(choice: str) -> str:
    return choice.split(" · ", 1)[0]


def _choice(code: str) -> str:
    return f"{code} · {LANGUAGES[code]}" if code in LANGUAGES else code


class TranslationInstructions(FormPart):
    """The new translation's instructions, written in `$EDITOR` (the button, or ctrl+e from
    any field of the form), and a line showing their start."""

    BINDINGS: ClassVar[list[BindingType]] = [
        _f("ctrl+e", "edit_instructions", "Instructions", "Write the instructions in $EDITOR"),
    ]
    FIELD = "instructions"

    def __init__(self) -> None:
        super().__init__()
        self.text = ""

    @property
    def value(self) -> str:
        return self.text

    def compose(self) -> ComposeResult:
        yield Static("", id="instructions-preview", classes="form-note", markup=False)
        yield Button("Instructions in $EDITOR… (ctrl+e)", id="instructions-edit")

    def on_mount(self) -> None:
        self._preview()

    def _preview(self) -> None:
        text = self.text.strip()
        if not text:
            shown = "Instructions: none (optional: tone, terms to keep, audience)."
        else:
            first = text.splitlines()[0]
            words = len(text.split())
            shown = f"Instructions ({words} word{'s' if words != 1 else ''}): {first[:60]}"
        self.query_one("#instructions-preview", Static).update(shown)

    @on(Button.Pressed, "#instructions-edit")
    def _edit_pressed(self) -> None:
        self.action_edit_instructions()

    def action_edit_instructions(self) -> None:
        if not self.sending:
            self._edit()

    @read("instructions-editor", "Editing the instructions in $EDITOR")
    async def _edit(self) -> None:
        from docdeck.tui.kit.editor import edit_text

        edited = await edit_text(self.app, self.text, suffix=".txt")
        if edited is not None and not self.sending:
            self.text = edited.strip()
            self._preview()


def _languages_differ(values: dict[str, str]) -> tuple[str, str] | None:
    if _code(values["language"]) == _code(values["source_language"]):
        return "language", "Language: must differ from the source language."
    return None


class TranslationsScreen(AdminScreen):
    DEFAULT_CSS = """
    TranslationsScreen #translations { height: auto; max-height: 50%; }
    TranslationsScreen #translation-side { height: 1fr; }
    TranslationsScreen #translation-detail { height: auto; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *AdminScreen.BINDINGS,
        _b("escape", "back", "Back", "Back to the organization tree"),
        _b("n", "new", "New", "Translate a space into another language"),
        _b("enter", "open", "Open result", "Open the translated space"),
        _b("e", "instructions", "Instructions", "Change the instructions in $EDITOR"),
        _b("d,delete", "delete", "Delete", "Delete the translation (asks first)"),
        _b("r", "refresh", "Refresh", "Read the translations again"),
    ]
    FOOTER_PRIORITY = ("app.help", "back", "new", "open", "instructions", "delete")
    ACTIONS = ("new", "open", "instructions", "delete")
    TABLE = "translations"
    COLUMNS = (
        Column("Source space", "space", 30, narrow=20),
        Column("Languages", "languages", 9),
        Column("Status", "status", 18),
        Column("Updated", "updated", 20, wide_only=True),
        Column("Pages · words", "stats", 14, wide_only=True),
    )
    heading = "Translations"
    READING = "the translations"
    STALL_S = 5.0
    """A translation still pending this long after it was seen or sent has not started: the
    server has no translator (the sandbox's default), and the screen says so."""

    def __init__(self, organization: Organization) -> None:
        super().__init__(organization)
        self.translations: list[Translation] | None = None
        self.spaces: dict[str, Space] | None = None
        self._watched_since: dict[str, float] = {}
        """Per translation id: when it was first seen pending, or last sent."""

    def compose_side(self) -> ComposeResult:
        with VerticalScroll(id="translation-side"):
            yield Static("", id="translation-detail", markup=False)

    @property
    def highlighted(self) -> Translation | None:
        return self.table.item_of(self.translations or [])

    def subject(self, translation: Translation) -> Subject:
        return self.subjects.setdefault(translation.id, Subject(self._title_of(translation)))

    def _title_of(self, translation: Translation) -> str:
        space = (self.spaces or {}).get(translation.source.space)
        title = space.title if space is not None else translation.source.space
        return f"“{title}” → {translation.language}"

    # ----- status -------------------------------------------------------------------------

    def stalled(self, translation: Translation) -> bool:
        """Pending for `STALL_S` since it was first seen or last sent: nothing runs it."""
        if translation.status != "pending":
            return False
        since = self._watched_since.setdefault(translation.id, time.monotonic())
        return time.monotonic() - since >= self.STALL_S

    def _may_run(self, translation: Translation) -> bool:
        return translation.status == "running" or (
            translation.status == "pending" and not self.stalled(translation)
        )

    def status_text(self, translation: Translation) -> Text:
        if translation.status == "completed":
            return Text("✔ completed", style="green")
        if translation.status == "running":
            return Text("⟳ running", style="yellow")
        if translation.status == "pending":
            if self.stalled(translation):
                return Text("⏸ not started", style="red")
            return Text("⏳ pending", style="yellow")
        return Text(str(translation.status))

    # ----- reading ------------------------------------------------------------------------

    def load(self) -> None:
        if self.translations is None:
            self.say("reading the translations…")
        self._load()

    async def _reload(self) -> None:
        org = self.organization.id
        try:
            if self.spaces is None:
                spaces = await self.client.spaces.list(org, limit=100).all()
                self.spaces = {space.id: space for space in spaces}
            found = await self.client.translations.list(org, limit=100).all()
        except Exception as error:
            self.say_failure(error, "Reading the translations")
            return
        self.show(found)

    def show(self, translations: list[Translation], *, select: str | None = None) -> None:
        current = select or (self.highlighted.id if self.highlighted else None)
        self.translations = translations
        self.fill(translations, lambda translation: translation.id, self._cells, current)
        self._say_state()
        self._follow()
        self._show_detail()

    def _say_state(self) -> None:
        translations = self.translations or []
        count = len(translations)
        if not count:
            self.say("No translations yet (n translates a space).")
            return
        state = f"{count} translation{'s' if count != 1 else ''}"
        running = [t for t in translations if self._may_run(t)]
        stalled = [t for t in translations if self.stalled(t)]
        if running:
            state += f" · {len(running)} followed while it may run"
        if stalled:
            state += (
                f" · {len(stalled)} not started: the server has no translator (see below)"
                if len(stalled) > 1
                else " · 1 not started: the server has no translator (see below)"
            )
        self.say(state)

    def _cells(self, translation: Translation) -> list[Any]:
        space = (self.spaces or {}).get(translation.source.space)
        title = space.title if space is not None else translation.source.space
        cells: list[Any] = [
            self.busy_mark(translation.id, title),
            f"{translation.source.language} → {translation.language}",
            self.status_text(translation),
        ]
        if len(self.table.columns) > 3:
            stats = translation.stats
            cells += [
                datetime_text(translation.updatedAt),
                f"{stats.totalPages} · {stats.totalWords}" if stats.runs else "—",
            ]
        return cells

    def _replace(self, translation: Translation, *, select: bool = False) -> None:
        items = with_answer(self.translations or [], translation, lambda t: t.id, new_first=True)
        self.show(items, select=translation.id if select else None)

    def _sent(self, translation: Translation, *, select: bool = False) -> None:
        """The server took a create or new instructions: a job may start now."""
        self._watched_since[translation.id] = time.monotonic()
        self._replace(translation, select=select)

    def subject_changed(self) -> None:
        if self.translations is not None:
            self.show(self.translations)

    def _follow(self) -> None:
        """Read the translations that may be running again every `POLL_S` until none may."""
        running = any(self._may_run(t) for t in self.translations or [])
        self.follow(running, self._reread_running, "translation jobs")

    @read("poll", "Following the translations")
    async def _reread_running(self) -> None:
        watched = [t for t in self.translations or [] if self._may_run(t)]
        for translation in watched:
            try:
                fresh = await self.client.translations.get(self.organization.id, translation.id)
            except Exception as error:
                self.say_failure(error, f"Reading {self._title_of(translation)} again")
                return
            result = fresh.result
            if result is not None and self.spaces is not None and result.space not in self.spaces:
                try:  # the result space is new: its title for the list and the detail
                    self.spaces[result.space] = await self.client.spaces.get(result.space)
                except Exception as error:
                    self.say_failure(error, "Reading the result space")
            self._replace(fresh)
        if not watched and self.translations is not None:
            self.show(self.translations)  # one became stalled: say so and stop

    # ----- the highlighted translation ----------------------------------------------------

    def _show_detail(self) -> None:
        translation = self.highlighted
        detail = self.query_one("#translation-detail", Static)
        if translation is None:
            detail.update("")
            return
        source = LANGUAGES.get(translation.source.language, translation.source.language)
        target = LANGUAGES.get(translation.language, translation.language)
        text = Text()
        text.append(self._title_of(translation), style="bold")
        text.append(f"  {source} → {target}  ")
        text.append_text(self.status_text(translation))
        if translation.status == "pending":
            if self.stalled(translation):
                text.append("\nNot started. ", style="bold red")
            else:
                text.append("\nWaiting to start. ", style="yellow")
            text.append(NO_TRANSLATOR_WORDS)
        elif translation.status == "running":
            text.append("\nThe server is translating its pages; this updates by itself.")
        elif translation.result is not None:
            space = (self.spaces or {}).get(translation.result.space)
            name = f"“{space.title}”" if space is not None else translation.result.space
            text.append(f"\nResult: {name} (Enter opens it)")
        stats = translation.stats
        if stats.runs:
            text.append(
                f"\nRuns {stats.runs} · {stats.totalPages} pages · {stats.totalWords} words · "
                f"last run {stats.latestRunDuration} s",
                style="dim",
            )
        instructions = text_of(_document(translation))
        text.append("\n\nInstructions", style="bold dim")
        text.append(" (e edits them)\n" if translation.permissions.edit else "\n", style="dim")
        text.append(instructions or "none", style="" if instructions else "dim")
        detail.update(text)

    # ----- actions ------------------------------------------------------------------------

    def availability_of(self, action: str) -> Availability:
        translation = self.highlighted
        if action == "new":
            return translation_create(self.organization)
        if action == "instructions":
            return translation_edit(translation, "change the instructions of")
        if action == "delete":
            return translation_edit(translation, "delete")
        if action == "open":
            if translation is None:
                return Availability(applies=False)
            if translation.result is None:
                status = (
                    "not started (no translator on the server)"
                    if self.stalled(translation)
                    else str(translation.status)
                )
                return Availability(
                    applies=True,
                    reason=f"{self._title_of(translation)} has no result yet: it is {status}.",
                    cause="no result yet",
                )
        return Availability(applies=True)

    def action_refresh(self) -> None:
        self.spaces = None
        self._watched_since.clear()
        self.load()

    def action_open(self) -> None:
        translation = self.highlighted
        if translation is None or self.explain("open") or translation.result is None:
            return
        self._open(translation.result.space)

    @read("open", "Opening the result space")
    async def _open(self, space_id: str) -> None:
        try:
            space = await self.client.spaces.get(space_id)
        except Exception as error:
            self.say_failure(error, "Reading the result space")
            return
        (self.spaces or {})[space.id] = space
        self.app.post_message(OpenSpace(space))  # its collections: read with the screen

    @on(DataTable.RowSelected, "#translations")
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    def action_new(self) -> None:
        if self.explain("new"):
            return
        spaces = list((self.spaces or {}).values())
        if self.spaces is None:
            self.notify("The spaces are still being read; try again in a moment.")
            return
        if not spaces:
            self.notify(f"“{self.organization.title}” has no space to translate.")
            return
        titles = [space.title for space in spaces]
        by_label = {
            (space.title if titles.count(space.title) == 1 else f"{space.title} ({space.id})"): (
                space.id
            )
            for space in spaces
        }
        org = self.organization.id

        async def create(values: dict[str, str]) -> Translation:
            instructions = values["instructions"].strip()
            extra: dict[str, Any] = {}
            if instructions:
                extra["instructions"] = document_of(instructions)
            return await self.client.translations.create(
                org,
                space=by_label[values["space"]],
                source_language=_code(values["source_language"]),  # type: ignore[arg-type]
                language=_code(values["language"]),  # type: ignore[arg-type]
                **extra,
            )

        dialog: AdminForm[Translation] = AdminForm(
            "New translation",
            [
                FormField("space", "Source space", choices=tuple(by_label)),
                FormField("source_language", "Written in", _choice("en"), choices=_CHOICES),
                FormField("language", "Translate to", _choice("fr"), choices=_CHOICES),
            ],
            create,
            doing="Creating the translation",
            action_label="Translate",
            note="Tab moves between fields; ctrl+s sends.",
            aliases={"source.space": "space", "source.language": "source_language"},
            part=TranslationInstructions(),
            check=_languages_differ,
        )
        self.open_write(
            dialog, Subject("the new translation"), "create", lambda t: self._sent(t, select=True)
        )

    def action_instructions(self) -> None:
        translation = self.highlighted
        if translation is None or self.explain("instructions"):
            return
        self._edit_instructions(translation)

    @read("instructions-editor", "Editing the instructions in $EDITOR")
    async def _edit_instructions(self, translation: Translation) -> None:
        from docdeck.tui.kit.editor import edit_text

        before = text_of(_document(translation))
        edited = await edit_text(self.app, before, suffix=".txt")
        if edited is None or edited.strip() == before:
            self.notify("The instructions are unchanged; nothing was sent.", timeout=4)
            return
        org, document = self.organization.id, document_of(edited)

        async def request() -> Translation:
            return await self.client.translations.update(org, translation.id, instructions=document)

        self.start_write(
            self.subject(translation),
            "instructions",
            f"Saving the instructions of {self._title_of(translation)}",
            request,
            self._sent,
        )

    def action_delete(self) -> None:
        translation = self.highlighted
        if translation is None or self.explain("delete"):
            return
        org = self.organization.id

        async def delete() -> str:
            await self.client.translations.delete(org, translation.id)
            return translation.id

        def deleted(translation_id: str) -> None:
            self._watched_since.pop(translation_id, None)
            self.show([t for t in self.translations or [] if t.id != translation_id])

        kept = " Its result space stays (a space of its own)." if translation.result else ""
        question = f"Delete the translation {self._title_of(translation)}?{kept}"
        self.start_write(
            self.subject(translation),
            "delete",
            f"Deleting {self._title_of(translation)}",
            delete,
            deleted,
            ask=("Delete translation", question),
        )
