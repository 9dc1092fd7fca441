"""A terminal driver that does not hold the quit back for its input thread's polling.

Textual's Linux driver stops reading keys by setting an event and joining its
input thread, which polls stdin every 0.1 s and then waits one more 0.1 s
after unregistering it: 100-200 ms of every quit, more than the whole rest of
it. When the app is exiting (not suspending), this driver does the same
terminal work (mouse off, pending input flushed) without the join; the
`docdeck` executable ends the process right after the app (`os._exit`), so
the thread never reads again. Textual is pinned (8.2.8); this relies on its
`_running` flag being cleared before `disable_input` at shutdown.
"""

from __future__ import annotations

import contextlib
import signal
import termios

from textual.drivers.linux_driver import LinuxDriver

__all__ = ["QuickExitDriver"]


class QuickExitDriver(LinuxDriver):
    def disable_input(self) -> None:
        if getattr(self._app, "_running", True) or self.exit_event.is_set() or _relaunch(self._app):
            # Suspending, already stopped, or another app comes next in this process (a
            # profile switch): wait for the reader, so it reads no key meant for that app.
            super().disable_input()
            return
        try:
            signal.signal(signal.SIGWINCH, signal.SIG_DFL)
            self._disable_mouse_support()
            self.exit_event.set()  # the reader stops at its next poll; nobody waits for it
            with contextlib.suppress(termios.error):
                termios.tcflush(self.fileno, termios.TCIFLUSH)
        except Exception:
            super().disable_input()


def _relaunch(app: object) -> bool:
    from docdeck.tui.kit.profiles import SwitchProfile

    return isinstance(getattr(app, "return_value", None), SwitchProfile)
