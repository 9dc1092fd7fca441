"""What one docdeck session shares: the gateway client, the caches of what was read, who the
caller is, and the one place a failure is reported.

Widgets reach it with `session_of(self)`, one typed accessor, instead of attributes looked
up by name on the app (a typo there was a silent None). Caches are kept per kind
(`session.cache(ContentCache)`) so that kit/ knows none of the packages that define them,
and leaving a screen and coming back reads nothing anew.

Imported with the first frame: nothing here imports the gateway or the models at run time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypeVar, cast

from textual.app import App

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from docdeck.gateway import Client
    from docdeck.models.comments import Comment, CommentReply, EmojiReaction

__all__ = ["Me", "Session", "SessionApp", "session_of"]

T = TypeVar("T")


class Me:
    """Who the caller is, as far as the comments tell: the API has no "who am I" row in the
    reference, so the author of anything the caller may edit is the caller, and a reaction
    the caller adds shows which user appeared."""

    def __init__(self) -> None:
        self.user_id: str | None = None

    def learn(self, subjects: Iterable[Comment | CommentReply]) -> None:
        if self.user_id is not None:
            return
        for subject in subjects:
            if subject.permissions.edit:
                self.user_id = subject.postedBy.id
                return

    def learn_from(
        self, before: list[EmojiReaction], after: list[EmojiReaction], emoji: str
    ) -> None:
        from docdeck.models import emoji_characters  # (the models: not with the first frame)

        wanted = emoji_characters(emoji)  # in whichever form the server writes it

        def users(reactions: list[EmojiReaction]) -> set[str]:
            for reaction in reactions:
                if emoji_characters(reaction.emoji) == wanted:
                    return {u.user.id for u in reaction.users}
            return set()

        changed = users(after) ^ users(before)
        if len(changed) == 1:
            self.user_id = next(iter(changed))

    def reacted(self, reaction: EmojiReaction) -> bool | None:
        """True or False when known; None when the caller is not known yet."""
        if self.user_id is None:
            return None
        return any(u.user.id == self.user_id for u in reaction.users)


class Session:
    """One per app run; a restarted sandbox gives it a new client, the caches notice
    (each cached reader remembers the client it reads with)."""

    def __init__(self) -> None:
        self.client: Client | None = None
        """The gateway client once connected (None before, and while reconnecting)."""
        self.me = Me()
        self._caches: dict[type, object] = {}
        self._report: Callable[[BaseException, str], None] | None = None

    def require_client(self) -> Client:
        """The client; widgets only exist on screen once it is connected."""
        if self.client is None:
            raise RuntimeError("docdeck is not connected yet")
        return self.client

    def cache(self, kind: Callable[[], T]) -> T:
        """The session's one `kind()`, made on first use (revision contents, change
        requests' contents)."""
        found = self._caches.get(cast(type, kind))
        if found is None:
            found = self._caches[cast(type, kind)] = kind()
        return cast(T, found)

    def forget_caches(self) -> None:
        """Read everything anew from now on (tests of cold reads)."""
        self._caches.clear()

    def reports_to(self, report: Callable[[BaseException, str], None]) -> None:
        self._report = report

    def report_error(self, error: BaseException, doing: str) -> None:
        """The app's one error handler: what failed, why, what to do."""
        if self._report is not None:
            self._report(error, doing)


class SessionApp(App[None]):
    """An app holding a session: what `session_of` finds on any widget's app."""

    def __init__(self) -> None:
        super().__init__()
        self.session = Session()


def session_of(node: DOMNode) -> Session:
    """The session of the app `node` is in."""
    app = node.app
    if not isinstance(app, SessionApp):
        raise RuntimeError(f"{type(app).__name__} holds no docdeck session")
    return app.session
