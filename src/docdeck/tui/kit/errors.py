"""Every failure the TUI shows goes through here: what failed, why, and what to do next."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from docdeck.gateway import (
    APIConnectionError,
    APIResponseValidationError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    InternalServerError,
    NotFoundError,
    OperationUnavailableError,
    PermissionDeniedError,
    PreconditionFailedError,
    RateLimitError,
    UnsendableTextError,
)

__all__ = [
    "Problem",
    "account_advice",
    "describe",
    "one_line",
    "raw_answer_file",
    "sandbox_gone",
]


@dataclass(frozen=True)
class Problem:
    title: str
    message: str
    fatal: bool = False
    """True when nothing will work until the user fixes the account (a refused token)."""
    brief: str = ""
    """The message for a notification: as short as it can be (at 80x24 a toast is 36
    columns wide). The connection screen and dialogs have room for `message`."""
    unreachable: bool = False
    """The server could not be reached (no answer at all, or a proxy's 502/503/504 for it):
    before anything has loaded, this is the connection screen's business, not a
    notification's (a cached first view on screen does not change that)."""
    retry_helps: bool = True
    """Whether sending again may give another answer: not for an answer docdeck cannot read,
    an operation the server does not offer, a refused role or input."""

    @property
    def retry_note(self) -> str:
        """ " (r retries)" where a retry can help, else nothing: for a view's error line
        after `brief`. Nothing either where the advice already says to press r."""
        if not self.retry_helps or "press r" in (self.brief or self.message):
            return ""
        return " (r retries)"


_ADVICE: tuple[tuple[type[BaseException] | tuple[type[BaseException], ...], str, bool], ...] = (
    # In this order: a subclass before the class it refines (a timeout is a connection error,
    # an operation the server does not offer a 404).
    (AuthenticationError, "The server refused the API token.", True),
    (OperationUnavailableError, "The rest works as usual; no retry will change this.", False),
    (
        PermissionDeniedError,
        "Your role does not allow this; ask an organization admin for a higher role.",
        False,
    ),
    (
        NotFoundError,
        "It may have been deleted or moved meanwhile; press r to refresh.",
        False,
    ),
    (BadRequestError, "Correct the input and try again.", False),
    (
        (ConflictError, PreconditionFailedError),
        "Something changed meanwhile; press r to refresh, then try again.",
        False,
    ),
    (RateLimitError, "The server is rate limiting; wait a moment and try again.", False),
    (InternalServerError, "The server failed; try again, or later if it keeps failing.", False),
    (APITimeoutError, "The server did not answer in time; press r to retry.", False),
    (
        APIConnectionError,
        "Cannot reach the server; check that it runs, then press r to retry.",
        False,
    ),
    (UnsendableTextError, "Remove that character (retype the text) and try again.", False),
)
"""What to do next, per kind of failure, and whether nothing works until it is fixed."""


def _advice(error: BaseException) -> tuple[str, bool]:
    if isinstance(error, APIResponseValidationError):
        saved = raw_answer_file(error)
        where = f"; its answer is saved in {saved} for an issue report" if saved else ""
        return f"docdeck may be older than the server (update it){where}.", False
    for kind, advice, fatal in _ADVICE:
        if isinstance(error, kind):
            return advice, fatal
    return "This is a bug in docdeck; please report it.", False


_IN_DIALOG = {
    # Longest first: "then press r to retry" must not become "then then send again".
    "then press r to retry": "then send again (escape closes the dialog)",
    "press r to retry": "send again (escape closes the dialog)",
    "press r to refresh, then try again": (
        "close the dialog (escape), press r to refresh, then try again"
    ),
    "press r to refresh": "close the dialog (escape) and press r to refresh",
}


def describe(error: BaseException, doing: str, *, in_dialog: bool = False) -> Problem:
    """Turn an exception from a request into words for a notification or an error screen.

    `in_dialog`: the advice is read inside an open dialog, where `r` types a letter.
    """
    advice, fatal = _advice(error)
    if isinstance(error, BadRequestError) and not in_dialog:
        # A key's request carries nothing the user typed: "correct the input" would send
        # them looking for a field there is not. The server's reason (above) says what.
        advice = "The server refused it as sent; nothing was changed."
    if in_dialog:
        for browser, dialog in _IN_DIALOG.items():
            if browser in advice:
                advice = advice.replace(browser, dialog)
                break
    if isinstance(error, OperationUnavailableError):
        why = f"{error.message}."
    elif isinstance(error, APIResponseValidationError):
        # One line: the operation, the field and the value (a retry reads the same answer).
        value = f" = {error.value}" if error.value is not None else ""
        why = f"Could not read {error.method} {error.path}: field {error.field}{value}"
    elif isinstance(error, APIStatusError):
        why = f"{error.message} ({error.status_code} {error.reason})"
    elif isinstance(error, APIConnectionError | UnsendableTextError):
        why = error.message
    else:
        why = f"{type(error).__name__}: {error}"
    message = f"{why}\n{advice}"
    brief = message
    if isinstance(error, APIConnectionError):
        # Which exception httpx raised (and the URL, shown in the header) does not change
        # what to do: the detail is on the connection screen and in dialogs.
        brief = advice
    return Problem(
        title=f"{doing} failed",
        message=message,
        brief=brief,
        fatal=fatal,
        unreachable=_unreachable(error),
        retry_helps=not isinstance(error, _NO_RETRY),
    )


_NO_RETRY = (
    APIResponseValidationError,
    OperationUnavailableError,
    AuthenticationError,
    PermissionDeniedError,
    BadRequestError,
    UnsendableTextError,
)


def raw_answer_file(error: APIResponseValidationError) -> Path | None:
    """The unreadable answer, written once to the cache directory (`DOCDECK_CACHE_DIR`) so a
    user can attach it to an issue; None when there is none or it cannot be written."""
    if error.raw is None:
        return None
    saved = getattr(error, "saved_to", None)
    if isinstance(saved, Path):
        return saved
    import hashlib

    override = os.environ.get("DOCDECK_CACHE_DIR")
    if override:
        root = Path(override)
    else:
        import platformdirs

        root = Path(platformdirs.user_cache_dir("docdeck"))
    digest = hashlib.sha256(error.raw.encode("utf-8", "replace")).hexdigest()[:12]
    path = root / "unreadable-answers" / f"{digest}.json"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(error.raw, encoding="utf-8")
    except OSError:
        return None
    error.saved_to = path  # type: ignore[attr-defined]
    return path


_GATEWAY_STATUSES = frozenset({502, 503, 504})
"""What a proxy or load balancer answers when the server behind it is down."""


def _unreachable(error: BaseException) -> bool:
    """No answer from the server: no connection, or only its proxy answering for it."""
    if isinstance(error, APIConnectionError):
        return True
    return isinstance(error, APIStatusError) and error.status_code in _GATEWAY_STATUSES


def one_line(error: BaseException) -> str:
    """What went wrong, without the advice: for a note that keeps it next to stale data."""
    return describe(error, "").message.split("\n", 1)[0]


def account_advice(source: str | None, label: str) -> str:
    """Where the address and token came from, so the user knows what to check and change.

    `source` is how the account was chosen (`docdeck.config.Account.source`): "flags",
    "environment", "profile" or "sandbox"; None when unknown.
    """
    if source == "flags":
        return "The address and token come from --base-url and --token: check both."
    if source == "environment":
        return (
            "The address and token come from DOCDECK_BASE_URL and DOCDECK_TOKEN "
            "(they win over profiles): check both, or unset them to use a profile."
        )
    if source == "profile":
        return (
            f"The address and token come from the profile “{label}” in config.toml: "
            f"check them with `docdeck profile list`; replace the token with "
            f"`docdeck profile add {label} --base-url URL --replace`."
        )
    if source == "sandbox":
        return "This is the embedded sandbox; its log is sandbox.log in the data directory."
    return (
        "Check the address and token: --base-url and --token, DOCDECK_BASE_URL and "
        "DOCDECK_TOKEN, or the profile (docdeck profile list)."
    )


def sandbox_gone(error: BaseException) -> bool:
    """A request to a loopback server was refused or cut: for the embedded sandbox, its
    server is not running any more (a slow answer is not that)."""
    return isinstance(error, APIConnectionError) and not isinstance(error, APITimeoutError)
