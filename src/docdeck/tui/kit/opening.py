"""Opening a URL in the user's browser, only where a browser can actually be shown.

Python's `webbrowser` falls back to text browsers (lynx, w3m) without a
display, which would take over the terminal docdeck is drawing in, and over
SSH it would open a browser on the remote machine, where nobody sees it. So
those cases are detected first and the caller copies the URL instead.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Mapping

__all__ = ["browser_problem", "open_in_browser"]


def browser_problem(environ: Mapping[str, str] | None = None, platform: str | None = None) -> str:
    """Why no browser can be shown here ("" when one can)."""
    environ = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    if environ.get("SSH_CONNECTION") or environ.get("SSH_TTY"):
        return "docdeck runs over SSH (a browser would open on the remote machine)"
    if platform in ("darwin", "win32"):
        return ""
    if not (environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY")):
        return "no browser here (neither DISPLAY nor WAYLAND_DISPLAY is set)"
    return ""


async def open_in_browser(url: str) -> str:
    """Hand the URL to the desktop's browser; "" on success, else why it failed."""
    import webbrowser

    try:
        opened = await asyncio.to_thread(webbrowser.open, url)
    except webbrowser.Error as error:
        return f"the browser could not be started ({error})"
    return "" if opened else "no browser was found"
