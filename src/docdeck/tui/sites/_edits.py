"""The site editor's edits: the dialogs each key opens and the requests they send.

Plain functions of the screen (not a mixin): every write goes through the screen's
writes (`kit/in_flight`), so its row is marked busy, a repeat is ignored, and the
structure is read again when it ends; a dialog whose write is refused stays open with
what was typed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from docdeck.models import Space, TemplateCondition
from docdeck.tui.kit.chooser import Chooser
from docdeck.tui.kit.dialogs.confirm import ConfirmDialog
from docdeck.tui.kit.dialogs.form import FormDialog, FormField
from docdeck.tui.kit.dialogs.request import RequestDialog
from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.in_flight import Subject, Write
from docdeck.tui.kit.workers import client_of, read
from docdeck.tui.sites._adaptive import read_schema, read_templates, reading_schema
from docdeck.tui.sites.moves import MovePlan, plan_paste
from docdeck.tui.sites.structure_model import (
    GROUP,
    SECTION,
    SITE_SPACE,
    Kind,
    Row,
    published_path,
    redirect_destination,
)
from docdeck.tui.sites.validation import check_condition, check_path, check_redirect_source

if TYPE_CHECKING:
    from docdeck.tui.sites._screen import SiteScreen

__all__ = [
    "add_site_space",
    "condition",
    "cut",
    "delete",
    "edit",
    "make_default",
    "new_group",
    "new_section",
    "offer_redirect",
    "paste",
]

SPACES_LIMIT = 1000


def _open(
    screen: SiteScreen,
    dialog: RequestDialog[Any],
    subject: Subject,
    action: str,
    then: Callable[[Any], None] | None = None,
    *,
    lands: Kind | None = None,
) -> None:
    applied = _applied(screen, then, lands)
    dialog.follow(screen.writes, subject, action, applied=applied, reread=screen.reread)
    screen.app.push_screen(dialog)


def _write(
    screen: SiteScreen,
    subject: Subject,
    action: str,
    doing: str,
    request: Callable[[], Awaitable[Any]],
    then: Callable[[Any], None] | None = None,
    *,
    lands: Kind | None = None,
) -> None:
    applied = _applied(screen, then, lands)
    started = screen.writes.start(
        Write(subject, action, doing, request, applied=applied, reread=screen.reread)
    )
    if not started:
        screen.notify(f"{doing} is still being sent.", title="Wait", timeout=3)


def _applied(
    screen: SiteScreen, then: Callable[[Any], None] | None, lands: Kind | None
) -> Callable[[Any], None]:
    """What a write does with the server's answer: `then`, the cursor put on what it made
    (`lands`), and the structure read again."""

    def applied(result: Any) -> None:
        if then is not None:
            then(result)
        _land(screen, lands, result)
        screen.reload()

    return applied


def _offer_redirect_later(
    screen: SiteScreen, old_path: str, destination: dict[str, str], to_what: str
) -> None:
    """A redirect from `old_path` offered once the write's dialog has closed (it closes
    once the answer is applied)."""
    screen.call_after_refresh(offer_redirect, screen, old_path, destination, to_what)


def _land(screen: SiteScreen, kind: Kind | None, created: Any) -> None:
    """After an add, the re-read puts the cursor on the item the server made."""
    item_id = getattr(created, "id", None)
    if kind is not None and isinstance(item_id, str):
        screen.land_on = (kind, item_id)


# ----- choosing a space ------------------------------------------------------------------------


@read("spaces", "Reading the spaces", opens_a_screen=True)
async def _pick_space(screen: SiteScreen, title: str, chosen: Callable[[Space], None]) -> None:
    """The organization's spaces, filtered as typed; `chosen` gets the one picked."""

    # every page: an organization of more spaces than a page holds offers them all
    found = await client_of(screen).spaces.list(screen.org_id, limit=SPACES_LIMIT).all()
    items = [(space.title or "(untitled)", space) for space in found]
    if not items:
        screen.notify("The organization has no space to show.", title=title)
        return

    def done(space: Space | None) -> None:
        if space is not None:
            chosen(space)

    screen.app.push_screen(Chooser(title, items), done)


# ----- adding ----------------------------------------------------------------------------------


def _group_at(row: Row | None) -> Row | None:
    """The section group the cursor is in: the group itself, or the group of the highlighted
    section (or of its site space)."""
    while row is not None and row.kind != GROUP:
        row = row.parent
    return row


def new_section(screen: SiteScreen) -> None:
    """A section showing a chosen space, in the group the cursor is in (else at the top
    level): the API adds it at the top level, then into the group with a second call."""
    group = _group_at(screen.view.current)
    into = f" to the group “{group.title}”" if group is not None else ""

    def chosen(space: Space) -> None:
        client = client_of(screen)
        org_id, site_id = screen.org_id, screen.site.id

        async def request() -> Any:
            section = await client.sites.sections.create(org_id, site_id, spaceId=space.id)
            if group is not None:
                await client.sites.section_groups.add_section(
                    org_id, site_id, group.id, sectionId=section.id
                )
            return section

        _write(
            screen,
            screen.site_subject,
            "new_section",
            f"Adding the section “{space.title}”{into}",
            request,
            lands=SECTION,
        )

    where = f" in “{group.title}”" if group is not None else ""
    _pick_space(screen, f"New section{where}: the space it shows", chosen)


def new_group(screen: SiteScreen) -> None:
    client = client_of(screen)

    async def submit(values: dict[str, str]) -> Any:
        icon = values["icon"].strip() or None
        return await client.sites.section_groups.create(
            screen.org_id, screen.site.id, title=values["title"].strip(), icon=icon
        )

    dialog = FormDialog(
        "New section group",
        [
            FormField("title", "Title", required=True, max_length=100),
            FormField("icon", "Icon (optional)", max_length=50),
        ],
        submit,
        doing="Adding a section group",
        action_label="Add",
    )
    _open(screen, dialog, screen.site_subject, "new_group", lands=GROUP)


def add_site_space(screen: SiteScreen) -> None:
    row = screen.view.current
    section = row if row is not None and row.kind == SECTION else (row.parent if row else None)
    if screen.view.model.kind == "sections" and (section is None or section.kind != SECTION):
        screen.notify("Highlight a section (or one of its site spaces) first.", title="Add")
        return
    section_id = section.id if section is not None and section.kind == SECTION else None
    where = f"“{section.title}”" if section_id and section else "the site"
    subject: Subject = section if section is not None else screen.site_subject

    def chosen(space: Space) -> None:
        client = client_of(screen)
        extra = {"sectionId": section_id} if section_id else {}
        _write(
            screen,
            subject,
            "add_site_space",
            f"Adding “{space.title}” to {where}",
            lambda: client.sites.site_spaces.create(
                screen.org_id, screen.site.id, spaceId=space.id, **extra
            ),
            lands=SITE_SPACE,
        )

    _pick_space(screen, f"Add a site space to {where}", chosen)


# ----- editing ---------------------------------------------------------------------------------


def edit(screen: SiteScreen) -> None:
    row = screen.view.current
    if row is None:
        return
    client = client_of(screen)
    org, site = screen.org_id, screen.site.id
    old_path = published_path(row)
    value = row.value
    fields: list[FormField]
    if row.kind == GROUP:
        fields = [
            FormField("title", "Title", row.title, required=True, max_length=100),
            FormField("icon", "Icon (empty: none)", value.icon or "", max_length=50),
        ]
    elif row.kind == SECTION:
        fields = [
            FormField("title", "Title", row.title, required=True, max_length=128),
            FormField(
                "path", "Path", row.path or "", required=True, max_length=100, check=check_path
            ),
            FormField("icon", "Icon (empty: none)", value.icon or "", max_length=50),
            FormField(
                "description", "Description (empty: none)", value.description or "", max_length=256
            ),
        ]
    else:
        fields = [
            FormField(
                "path", "Path", row.path or "", required=True, max_length=100, check=check_path
            ),
        ]

    async def submit(values: dict[str, str]) -> Any:
        text = {name: value.strip() for name, value in values.items()}
        if row.kind == GROUP:
            return await client.sites.section_groups.update(
                org, site, row.id, title=text["title"], icon=text["icon"] or None
            )
        if row.kind == SECTION:
            changes: dict[str, Any] = {}
            if text["title"] != row.title:
                changes["title"] = text["title"]
            if text["path"] != row.path:
                changes["path"] = text["path"]
            if text["icon"] != (value.icon or ""):
                changes["icon"] = text["icon"] or None
            if text["description"] != (value.description or ""):
                changes["description"] = text["description"] or None
            return await client.sites.sections.update(org, site, row.id, **changes)
        return await client.sites.site_spaces.update(org, site, row.id, path=text["path"])

    def moved(result: Any) -> None:
        new_path = getattr(result, "path", None)
        if row.kind != GROUP and new_path is not None and new_path != row.path:
            _offer_redirect_later(screen, old_path, redirect_destination(row), row.describe())

    dialog = FormDialog(f"Edit {row.describe()}", fields, submit, doing=f"Saving {row.describe()}")
    _open(screen, dialog, row, "edit", moved)


def condition(screen: SiteScreen) -> None:
    """The condition's dialog, with the site's adaptive schema and template conditions read
    first (a site without a schema, or a failed read, says so in their place)."""
    row = screen.view.current
    if row is None or row.kind == GROUP:
        return
    _ask_condition(screen, row)


@reading_schema
async def _ask_condition(screen: SiteScreen, row: Row) -> None:
    from docdeck.tui.sites._condition import ConditionDialog
    from docdeck.tui.sites.claims import claims_of

    client = client_of(screen)
    org, site = screen.org_id, screen.site.id

    async def submit(values: dict[str, str]) -> Any:
        text = values["condition"].strip() or None
        if row.kind == SECTION:
            return await client.sites.sections.update(org, site, row.id, condition=text)
        return await client.sites.site_spaces.update(org, site, row.id, condition=text)

    schema: dict[str, Any] | None = None
    templates: list[TemplateCondition] = []
    note = ""
    try:
        schema = await read_schema(screen)
        if schema is None:
            note = "The site has no adaptive schema (A adds one): any claim is accepted."
        else:
            templates = await read_templates(screen)
    except Exception as error:
        why = describe(error, "Reading the adaptive schema").message
        note = f"The adaptive schema could not be read: {why}"
    dialog = ConditionDialog(
        f"Condition of {row.describe()}",
        FormField(
            "condition",
            "Shown to visitors when (empty: to everyone)",
            row.condition or "",
            placeholder='visitor.claims.plan === "pro"',
            max_length=1024,
            check=check_condition,
        ),
        submit,
        doing=f"Saving the condition of {row.describe()}",
        claims=claims_of(schema),
        templates=templates,
        schema_note=note,
    )
    _open(screen, dialog, row, "condition")


def make_default(screen: SiteScreen) -> None:
    row = screen.view.current
    if row is None or row.kind == GROUP or row.default:
        return
    client = client_of(screen)
    org, site = screen.org_id, screen.site.id
    request: Callable[[], Awaitable[Any]]
    if row.kind == SECTION:
        request = lambda: client.sites.update(org, site, defaultSiteSection=row.id)  # noqa: E731
    elif row.parent is not None:
        parent = row.parent
        request = lambda: client.sites.sections.update(  # noqa: E731
            org, site, parent.id, defaultSiteSpace=row.id
        )
    else:
        request = lambda: client.sites.update(org, site, defaultSiteSpace=row.id)  # noqa: E731
    _write(screen, row, "make_default", f"Making {row.describe()} the default", request)


# ----- deleting --------------------------------------------------------------------------------


def _fallback(screen: SiteScreen, row: Row) -> dict[str, str] | None:
    """Where a redirect from a deleted row's path leads: its section, else the default."""
    if row.kind == SITE_SPACE and row.parent is not None:
        return redirect_destination(row.parent)
    for other in screen.view.model.rows:
        if other is row or not other.default or other.kind == GROUP:
            continue
        if other.kind == SECTION or other.parent is None:
            return redirect_destination(other)
    return None


def delete(screen: SiteScreen) -> None:
    row = screen.view.current
    if row is None:
        return
    client = client_of(screen)
    org, site = screen.org_id, screen.site.id
    old_path = published_path(row)
    parts: dict[str, Callable[[str, str, str], Awaitable[None]]] = {
        GROUP: client.sites.section_groups.delete,
        SECTION: client.sites.sections.delete,
        SITE_SPACE: client.sites.site_spaces.delete,
    }
    remove = parts[row.kind]
    destination = _fallback(screen, row) if row.kind != GROUP else None

    async def submit() -> None:
        await remove(org, site, row.id)

    def removed(_result: Any) -> None:
        if destination is not None:
            _offer_redirect_later(screen, old_path, destination, "what remains")

    question = f"Delete {row.describe()}? {screen.view.model.what_goes_with(row)}"
    if row.kind != GROUP:
        question += f"\nVisitors of {old_path} will get a “not found” unless you add a redirect."
    dialog = ConfirmDialog(
        f"Delete {row.describe()}", question, submit, doing=f"Deleting {row.describe()}"
    )
    _open(screen, dialog, row, "delete", removed)


def offer_redirect(
    screen: SiteScreen, source: str, destination: dict[str, str], to_what: str
) -> None:
    """After a path change or a delete: a redirect from the old path, filled in."""
    if source == "/":
        return
    client = client_of(screen)

    async def submit(values: dict[str, str]) -> Any:
        return await client.sites.redirects.create(
            screen.org_id, screen.site.id, source=values["source"].strip(), destination=destination
        )

    dialog = FormDialog(
        f"Redirect {source} to {to_what}? (escape: no)",
        [
            FormField(
                "source",
                "From the old path",
                source,
                required=True,
                max_length=512,
                check=partial(check_redirect_source, label="From the old path"),
            )
        ],
        submit,
        doing=f"Creating a redirect from {source}",
        action_label="Create redirect",
    )
    _open(screen, dialog, screen.site_subject, "redirect")


# ----- cut and paste ---------------------------------------------------------------------------


def cut(screen: SiteScreen) -> None:
    view = screen.view
    row = view.current
    if row is None or row.kind == GROUP:
        return
    view.cut = row
    view.refresh()
    screen.refresh_bindings()
    screen.notify(
        f"Cut {row.describe()}: put the cursor where it goes and press p (escape: keep it).",
        title="Cut",
        timeout=5,
    )


def paste(screen: SiteScreen) -> None:
    view = screen.view
    cut_row, target = view.cut, view.current
    if cut_row is None or target is None:
        return
    plan = plan_paste(client_of(screen), screen.org_id, screen.site.id, view.model, cut_row, target)
    if isinstance(plan, str):
        screen.notify(plan, title="Cannot paste here", severity="warning")
        return
    view.cut = None
    view.refresh()

    async def submit() -> None:
        await plan.run()

    if len(plan.steps) == 1 and not plan.warning:
        _write(screen, cut_row, "paste", plan.summary, submit)
        return
    dialog = ConfirmDialog(
        plan.summary, _plan_words(plan), submit, doing=plan.summary, action_label="Move"
    )
    _open(screen, dialog, cut_row, "paste")


def _plan_words(plan: MovePlan) -> str:
    lines = [f"This takes {len(plan.steps)} requests:"]
    lines += [f"{index}. {step}" for index, step in enumerate(plan.steps, 1)]
    if plan.warning:
        lines.append(plan.warning)
    lines.append("If one fails, the ones already sent are undone.")
    return "\n".join(lines)
