"""A terminal driver that does not hold the quit back for its input thread's polling.

Textual's Linux driver stops reading keys by setting an event and joining its
input thread, which polls stdin every 0.1 s and then waits one more 0.1 s
after unregistering it: 100-200 ms of every quit, more than the whole rest of
it. When the app is exiting (not suspending), this driver does the same
terminal work (mouse off, pending input flushed) without the join; the
`docdeck` executable ends the process right after the app (`os._exit`), so
the thread never reads again. Textual is pinned (8.2.8); this relies on its
`_running` flag being cleared before `disable_input` at shutdown.

It also ends the app when its terminal hangs up (an SSH connection dropped, the terminal
window or tmux server closed) without the SIGHUP that would end the process: Textual's
input thread then reads end-of-file at once, again and again, and the orphaned app spun a
core (and held its sandbox lease) until killed. A second thread waits, without polling
the input, for the terminal's hangup, and ends the app. It sleeps until then: its wait has
no timeout (it woke every second to look for the reader's stop, one of the wake-ups of an
app left open; `kit/paced.py`), and the reader's stop closes a pipe the wait also watches.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import termios
from threading import Thread

from textual.drivers.linux_driver import LinuxDriver

__all__ = ["QuickExitDriver"]


_HUNG_UP = select.POLLHUP | select.POLLERR | select.POLLNVAL


class QuickExitDriver(LinuxDriver):
    _watch_stop: int | None = None
    """The write end of the pipe the hang-up watcher also waits on: closed, it stops."""

    def _run_input_thread(self) -> None:
        self._start_watching()
        super()._run_input_thread()

    def _start_watching(self) -> Thread:
        stop, self._watch_stop = os.pipe()
        watcher = Thread(target=self._watch_hangup, args=(stop,), name="docdeck-hangup")
        watcher.daemon = True
        watcher.start()
        return watcher

    def _watch_hangup(self, stop: int) -> None:
        """Until the reader stops (`_stop_watching`): when the terminal hangs up, stop it and
        end the app."""
        poller = select.poll()
        poller.register(self.fileno, 0)  # no input asked for: only a hangup or an error
        poller.register(stop, select.POLLIN)  # its write end closed: a hangup of its own
        try:
            while True:
                ready = poller.poll()  # no timeout: nothing to do until one of the two
                if any(fd == stop for fd, _mask in ready):
                    return
                if any(mask & _HUNG_UP for _fd, mask in ready):
                    if not self.exit_event.is_set():
                        self.exit_event.set()  # the reader stops reading end-of-file
                        self._app.call_later(self._app.exit, None, 129)  # 128 + SIGHUP
                    return
        finally:
            os.close(stop)

    def _stop_watching(self) -> None:
        stop, self._watch_stop = self._watch_stop, None
        if stop is not None:
            with contextlib.suppress(OSError):
                os.close(stop)

    def disable_input(self) -> None:
        self._stop_watching()  # the reader stops (or the app suspends): so does the watcher
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
    """Whether the app ends asking for another account (a profile switch). Its module is
    imported only by the palette's switch: not imported, no switch. (Imported here, it
    cost every quit 3-3.5 ms: the profiles' and the palette's modules.)"""
    profiles = sys.modules.get("docdeck.tui.kit.profiles")
    if profiles is None:
        return False
    return isinstance(getattr(app, "return_value", None), profiles.SwitchProfile)
