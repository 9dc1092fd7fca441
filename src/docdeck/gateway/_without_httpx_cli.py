"""Keeps httpx's command-line tool out of the process: imported before httpx.

httpx imports its CLI with the package (click and pygments' lexers, ~25 ms of every start);
the gateway never runs it. With the module marked absent, httpx falls back, as it does when
its CLI extras are not installed, to a `main` that only says they are missing.
"""

import sys

sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
