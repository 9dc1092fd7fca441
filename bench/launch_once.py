"""One launch in an 80x24 pty, for whole-process timers (`/usr/bin/time -v`, hyperfine-style).

    python bench/launch_once.py bare        # a bare Textual app to its first frame, then q
    python bench/launch_once.py docdeck     # docdeck to its live tree, then q

docdeck uses the data, config and cache directories of the environment
(`DOCDECK_DATA_DIR`, `DOCDECK_CONFIG_DIR`, `DOCDECK_CACHE_DIR`), so a timer can
measure it with a sandbox already running and a first view cached (run it
once first) or afresh (point them at empty directories). The process's own
CPU time then covers this script and the app, not a sandbox server left
running in the background.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from _harness import PYTHON, run_until_ready

BARE_APP = Path(__file__).resolve().parent / "_bare_app.py"


def main(mode: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        ready = Path(tmp) / "ready"
        env = {"DOCDECK_BENCH_READY_FILE": str(ready)}
        if mode == "bare":
            command = [PYTHON, str(BARE_APP)]
            run = run_until_ready(
                command, ready, env={**env, "BENCH_BARE_STAY": "1"}, marker=b"hello"
            )
        elif mode == "docdeck":
            command = [PYTHON, "-m", "docdeck"]
            run = run_until_ready(command, ready, env=env, marker=b"docdeck")
        else:
            raise SystemExit(f"usage: {sys.argv[0]} bare|docdeck")
    if os.environ.get("LAUNCH_ONCE_VERBOSE"):
        print(f"ready {run.ready_s * 1000:.0f} ms, quit {run.quit_s}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "")
