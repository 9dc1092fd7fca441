"""What a space view reads from: the space, and the revision shown (its content and page
tree). The screen holds them and a refresh replaces them, so a view asks at each load."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from docdeck.models import Space
    from docdeck.tui.content.page_tree import SpacePages
    from docdeck.tui.content.revision_cache import RevisionContent

__all__ = ["SpaceSource"]


class SpaceSource(Protocol):
    space: Space
    older: bool
    """An older revision is shown (not the space's current content)."""
    content: RevisionContent
    pages: SpacePages | None
    """None until the page tree is read."""
