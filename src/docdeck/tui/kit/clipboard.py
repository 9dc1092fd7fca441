"""Copying text to the user's clipboard from a terminal app, locally, over SSH and inside tmux.

A terminal app cannot reach the desktop clipboard directly (over SSH there is
no desktop), so it asks the terminal with OSC 52, which every modern terminal
emulator honours and which travels over SSH. Inside tmux an OSC 52 sequence
is swallowed by tmux unless its `set-clipboard` allows it, so there the text
goes to tmux itself (`tmux load-buffer -w -`: the paste buffer, and with `-w`
the outer terminal's clipboard through tmux's own OSC 52), with the
passthrough escape as a second route for a tmux that cannot do `-w`.
Whatever happens, the caller shows the copied text, so it can be selected by
hand where nothing else works.
"""

from __future__ import annotations

import asyncio
import base64
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass

__all__ = ["CopyResult", "copy_text", "osc52", "tmux_passthrough"]

TMUX_TIMEOUT = 2.0
"""Seconds to wait for `tmux load-buffer`; a wedged tmux must not hang the UI."""


def osc52(text: str) -> str:
    """The escape sequence that asks the terminal to put `text` on the system clipboard."""
    encoded = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return f"\x1b]52;c;{encoded}\a"


def tmux_passthrough(sequence: str) -> str:
    """`sequence` wrapped so tmux hands it to the outer terminal (needs `allow-passthrough`)."""
    return "\x1bPtmux;" + sequence.replace("\x1b", "\x1b\x1b") + "\x1b\\"


@dataclass(frozen=True)
class CopyResult:
    text: str
    route: str
    """How it went, in words for the notification: "terminal clipboard (OSC 52)", ..."""
    problem: str = ""
    """Why the preferred route failed, when it did (the text was still sent another way)."""


async def _tmux_load_buffer(text: str, *, clipboard: bool) -> str:
    """Run `tmux load-buffer [-w] -` with the text on stdin; "" on success, else why not."""
    args = ["tmux", "load-buffer", *(["-w"] if clipboard else []), "-"]
    try:
        process = await asyncio.create_subprocess_exec(
            *args,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
    except OSError as error:
        return f"tmux could not be run ({error.strerror or error})"
    try:
        _, stderr = await asyncio.wait_for(process.communicate(text.encode("utf-8")), TMUX_TIMEOUT)
    except TimeoutError:
        process.kill()
        await process.wait()
        return f"tmux did not answer within {TMUX_TIMEOUT:g} s"
    if process.returncode != 0:
        detail = stderr.decode("utf-8", "replace").strip().splitlines()
        return f"tmux load-buffer failed: {detail[0] if detail else process.returncode}"
    return ""


async def copy_text(
    text: str,
    write: Callable[[str], object],
    environ: Mapping[str, str] | None = None,
    *,
    copy: Callable[[str], object] | None = None,
) -> CopyResult:
    """Put `text` on the clipboard by the best route for where docdeck runs.

    `copy` is the app's `App.copy_to_clipboard` (Textual's OSC 52, and the text its
    own paste uses inside the app); without it, `write` sends the OSC 52 itself.
    `write` sends raw bytes to the terminal (the app's driver). Inside tmux, which
    Textual does not know about, the text goes through tmux as well; the OSC 52
    passthrough is sent when tmux cannot set the outer clipboard itself.
    """
    environ = os.environ if environ is None else environ
    if not environ.get("TMUX"):
        if copy is not None:
            copy(text)
        else:
            write(osc52(text))
        return CopyResult(text, "terminal clipboard (OSC 52)")
    if copy is not None:
        copy(text)  # the in-app paste; tmux passes the OSC 52 on if `set-clipboard` allows
    problem = await _tmux_load_buffer(text, clipboard=True)
    if not problem:
        return CopyResult(text, "tmux buffer and clipboard")
    # An older tmux without -w still takes the buffer; the passthrough tries the terminal.
    fallback = await _tmux_load_buffer(text, clipboard=False)
    write(tmux_passthrough(osc52(text)))
    route = "tmux buffer, terminal via passthrough" if not fallback else "terminal via passthrough"
    return CopyResult(text, route, problem)
