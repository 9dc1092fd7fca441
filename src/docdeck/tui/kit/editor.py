"""Editing text in the user's own editor (`$VISUAL`, `$EDITOR`, else `vi`).

One helper for every screen that offers "edit in $EDITOR" (a page of a change request, a
comment body, a conflict): the text goes to a temporary file, the editor runs on it with the
terminal handed over (`App.suspend()`), and what the file holds afterwards comes back.

Where the app cannot hand the terminal over (Textual's headless driver under `run_test()`,
Textual Web), `App.suspend()` raises `SuspendNotSupported`. The editor is then run without a
terminal (stdin closed): a non-interactive editor command (a script, `sed -i`, a test's
editor) works; an interactive one fails, and that failure is reported like any other.

Nothing is lost on a failure: the caller still holds the text it passed in, and when the
editor changed the file but then failed (a non-zero exit, as `:cq` in vim gives), the file
is kept and the notification names it.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import SuspendNotSupported

if TYPE_CHECKING:
    from textual.app import App

__all__ = ["EditorOutcome", "edit_text", "editor_command", "run_editor"]


def editor_command() -> list[str]:
    """The editor to run, as the shell would split it (`EDITOR="code --wait"` works)."""
    for name in ("VISUAL", "EDITOR"):
        value = os.environ.get(name, "").strip()
        if value:
            try:
                words = shlex.split(value)
            except ValueError:
                words = value.split()
            if words:
                return words
    return ["vi"]


@dataclass(frozen=True)
class EditorOutcome:
    """What came back from one run of the editor."""

    text: str | None
    """The file's text when the editor succeeded and changed it; None otherwise."""
    error: str = ""
    """Why the editor failed ("" when it did not)."""
    kept: Path | None = None
    """The temporary file, kept because the editor changed it and then failed."""


async def run_editor(app: App[Any], text: str, suffix: str = ".md") -> EditorOutcome:
    """Run the editor on `text`; never raises for an editor that is missing or fails."""
    command = editor_command()
    handle, name = tempfile.mkstemp(prefix="docdeck-", suffix=suffix, text=True)
    path = Path(name)
    with os.fdopen(handle, "w", encoding="utf-8", newline="") as file:
        file.write(text)
    keep = False
    try:
        try:
            status = await _run(app, [*command, str(path)])
        except OSError as error:
            return EditorOutcome(None, f"cannot run {command[0]!r}: {error.strerror or error}")
        try:
            edited = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            return EditorOutcome(None, f"cannot read what the editor saved: {error}")
        if status != 0:
            keep = edited != text
            return EditorOutcome(
                None,
                f"{shlex.join(command)} exited with status {status}",
                path if keep else None,
            )
        return EditorOutcome(edited if edited != text else None)
    finally:
        if not keep:
            path.unlink(missing_ok=True)


INTERRUPTED = 130
"""The editor's status when it was interrupted (Ctrl+C reached docdeck too), as a shell says."""


async def _run(app: App[Any], argv: list[str]) -> int:
    failed: OSError | None = None
    try:
        with app.suspend():
            # The terminal belongs to the editor: the app waits, as a shell would. Nothing
            # may leave this block by an exception: Textual's `suspend` resumes the app only
            # after a block that ended (an editor that cannot start left it suspended, the
            # screen blank and every key echoed by the terminal).
            try:
                status = subprocess.run(argv, check=False).returncode
            except OSError as error:
                failed = error
            except KeyboardInterrupt:
                status = INTERRUPTED
        if failed is not None:
            raise failed
        return status
    except SuspendNotSupported:
        pass
    process = await asyncio.create_subprocess_exec(
        *argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return await process.wait()


async def edit_text(app: App[Any], text: str, suffix: str = ".md") -> str | None:
    """The edited text, or None when it is unchanged or the editor failed (either is said
    here, so an editor closed without a change never looks like nothing happened).

    On a failure the caller still has `text`; an edit the editor saved before failing is
    kept in its file, named in the notification.
    """
    outcome = await run_editor(app, text, suffix)
    if outcome.text is None and not outcome.error:
        app.notify("The editor closed without a change.", title="No change", timeout=5)
    if outcome.error:
        where = f" Your edit is kept in {outcome.kept}." if outcome.kept else ""
        app.notify(
            f"{outcome.error}.{where} Set $VISUAL or $EDITOR to an editor that works "
            "here, then try again.",
            title="The editor failed",
            severity="error",
            timeout=10,
        )
    return outcome.text
