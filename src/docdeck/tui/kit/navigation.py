"""Navigation between jobs, by message: a job posts what it wants opened, and `app.py`
opens it, importing the target screen inside its handler.

So a job never imports another job's screen (import-linter says so), and start-up stays
lazy: the home screen does not import the space screen or the review pane to be able to
open them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from docdeck.models import ChangeRequest, Organization, Site, Space

__all__ = ["Navigation", "OpenAdmin", "OpenChangeRequest", "OpenInbox", "OpenSite", "OpenSpace"]


class Navigation(Message):
    """A message that opens a screen: posted to the app, it holds the keys typed after it
    for that screen (`docdeck.tui.kit.typeahead`), so none reaches the screen below."""


@dataclass
class OpenSpace(Navigation):
    """Push the space screen for `space`; `trail` is the breadcrumb above it (None: the
    opener does not know it, e.g. a space found by a search of the organization; it is read
    once the screen is pushed)."""

    space: Space
    trail: list[str] | None = None


@dataclass
class OpenChangeRequest(Navigation):
    """Push the review pane for a change request of `space`; with `then_edit`, open that
    page in `$EDITOR` once the pane is shown."""

    space: Space
    change_request: ChangeRequest
    then_edit: str | None = None


@dataclass
class OpenInbox(Navigation):
    """Push the review inbox of an organization."""

    organization: Organization


@dataclass
class OpenAdmin(Navigation):
    """Push an organization's administration screen: `view` is "settings", "openapi",
    "sso" or "translations" (`docdeck.tui.kit.entries.ADMIN_VIEWS`)."""

    organization: Organization
    view: str


@dataclass
class OpenSite(Navigation):
    """Push the site editor for `site` of `organization`; `trail` is the breadcrumb above."""

    organization: Organization
    site: Site
    trail: list[str] = field(default_factory=list)
