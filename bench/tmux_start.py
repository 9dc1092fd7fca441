"""The cold start again, inside a real tmux (80x24): docdeck beside a bare Textual app.

tmux sits between the app and the terminal (its own parsing and redraw), as
for many users over SSH. Times are from just before `tmux new-session` to:
the ready file (bare: first frame; docdeck: live organizations), the first
`capture-pane` showing "Northwind Labs" (polled every 10 ms), and, after `q`,
the end of the pane's command (`tmux wait-for`). Same variants as
cold_start.py: running_cached, running, first_run. `--against SRC`: another source
tree's docdeck (SRC on PYTHONPATH, e.g. an export of `main`) runs the `running` variant
in the same loop, with its own sandbox, as `running@against` (paired, run by run).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from _harness import PYTHON, summarize, tmux_server, write_result
from _harness import tmux as _tmux

BARE_APP = Path(__file__).resolve().parent / "_bare_app.py"
TITLE = "Northwind Labs"


def _run(command: list[str], env: dict[str, str], ready: Path, title: bool) -> dict[str, float]:
    ready.unlink(missing_ok=True)
    session = f"ddk-bench-{os.getpid()}"
    channel = f"{session}-done"
    exports = " ".join(f"{name}={shlex.quote(value)}" for name, value in env.items())
    inner = f"env {exports} {shlex.join(command)}; tmux wait-for -S {channel}"
    started = time.time()
    _tmux("new-session", "-d", "-s", session, "-x", "80", "-y", "24", inner)
    seen_title: float | None = None
    try:
        deadline = started + 60
        while True:
            if (
                title
                and seen_title is None
                and TITLE in _tmux("capture-pane", "-p", "-t", session).stdout
            ):
                seen_title = time.time()
            try:
                ready_at = float(ready.read_text())
                break
            except (OSError, ValueError):
                pass
            if time.time() > deadline:
                raise RuntimeError(f"{command} not ready in tmux")
            time.sleep(0.01)
        while title and seen_title is None and time.time() < deadline:
            if TITLE in _tmux("capture-pane", "-p", "-t", session).stdout:
                seen_title = time.time()
            time.sleep(0.01)
        time.sleep(0.5)  # at rest, as a user quits
        waiter = subprocess.Popen(["tmux", "wait-for", channel])
        quit_at = time.time()
        _tmux("send-keys", "-t", session, "q")
        waiter.wait(timeout=30)
        quit_s = time.time() - quit_at
    finally:
        _tmux("kill-session", "-t", session)
    result = {"ready_s": ready_at - started, "quit_s": quit_s}
    if seen_title is not None:
        result["first_title_s"] = seen_title - started
    return result


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--against", type=Path, default=None, help="another source tree (its src) to pair with"
    )
    args = parser.parse_args(argv)
    if shutil.which("tmux") is None:
        raise SystemExit("tmux is not installed")
    from docdeck.launcher import stop_sandbox

    rows: dict[str, list[dict[str, float]]] = {
        "bare": [],
        "running_cached": [],
        "running": [],
        "first_run": [],
    }
    if args.against is not None:
        import compileall

        compileall.compile_dir(args.against.resolve(), quiet=1)
        rows["running@against"] = []
    with tmux_server(), tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        ready = root / "ready"

        def env(data: Path, cache: Path, **extra: str) -> dict[str, str]:
            return {
                "DOCDECK_BENCH_READY_FILE": str(ready),
                "DOCDECK_DATA_DIR": str(data),
                "DOCDECK_CONFIG_DIR": str(root / "config"),
                "DOCDECK_CACHE_DIR": str(cache),
                "TERM": "screen-256color",
                **extra,
            }

        existing, cache = root / "existing", root / "cache"
        docdeck = [PYTHON, "-m", "docdeck"]
        bare = [PYTHON, str(BARE_APP)]
        other = root / "existing-against"
        against = {"PYTHONPATH": str(args.against.resolve())} if args.against else {}
        try:
            _run(docdeck, env(existing, cache), ready, False)  # warm-up: starts the sandbox
            if against:
                _run(docdeck, env(other, root / "cache-against", **against), ready, False)
            for index in range(args.runs):
                rows["bare"].append(_run(bare, env(root, cache, BENCH_BARE_STAY="1"), ready, False))
                shutil.rmtree(cache, ignore_errors=True)
                rows["running"].append(_run(docdeck, env(existing, cache), ready, True))
                if against:  # right after this tree's, so the load hits both alike
                    shutil.rmtree(root / "cache-against", ignore_errors=True)
                    rows["running@against"].append(
                        _run(docdeck, env(other, root / "cache-against", **against), ready, True)
                    )
                rows["running_cached"].append(_run(docdeck, env(existing, cache), ready, True))
                fresh = root / f"fresh-{index}"
                rows["first_run"].append(
                    _run(docdeck, env(fresh, root / f"fresh-cache-{index}"), ready, True)
                )
                stop_sandbox(fresh)
        finally:
            stop_sandbox(existing)
            if other.is_dir():
                stop_sandbox(other)

    def med(name: str, key: str) -> float:
        values = [row[key] for row in rows[name] if key in row]
        return summarize(values)["median_s"] if values else float("nan")

    bare_s = med("bare", "ready_s")
    result: dict[str, Any] = {"runs": args.runs, "terminal": "tmux 80x24, TERM=screen-256color"}
    result["medians_s"] = {
        name: {key: med(name, key) for key in ("ready_s", "first_title_s", "quit_s")}
        for name in rows
    }
    result["ratio_to_bare"] = {
        "running_cached_first_title": round(med("running_cached", "first_title_s") / bare_s, 2),
        "running_ready": round(med("running", "ready_s") / bare_s, 2),
        "running_cached_ready": round(med("running_cached", "ready_s") / bare_s, 2),
        "first_run_ready": round(med("first_run", "ready_s") / bare_s, 2),
    }
    if args.against is not None:
        result["ratio_to_bare"]["running@against_ready"] = round(
            med("running@against", "ready_s") / bare_s, 2
        )
        pairs = [
            a["ready_s"] / b["ready_s"]
            for a, b in zip(rows["running"], rows["running@against"], strict=True)
        ]
        result["paired_running_this_over_against"] = round(statistics.median(pairs), 3)
        result["against"] = str(args.against)
    result["samples"] = rows
    print(f"tmux_start: median of {args.runs} runs (tmux 80x24)")
    print(f"  bare first frame {bare_s * 1000:.0f} ms, quit {med('bare', 'quit_s') * 1000:.0f} ms")
    for name in [name for name in rows if name != "bare"]:
        print(
            f"  {name:<16} first title {med(name, 'first_title_s') * 1000:5.0f} ms  "
            f"live tree {med(name, 'ready_s') * 1000:5.0f} ms  "
            f"quit {med(name, 'quit_s') * 1000:4.0f} ms"
        )
    print("  ratios to bare: " + json.dumps(result["ratio_to_bare"]))
    if args.against is not None:
        print(f"  paired running this/against: median {result['paired_running_this_over_against']}")
    name = "tmux_start-against" if args.against is not None else "tmux_start"
    print(f"  -> {write_result(name, result)}")
    return result


if __name__ == "__main__":
    main()
