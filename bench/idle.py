"""An app left open: `docdeck`'s CPU and wake-ups while nobody uses it, beside a bare Textual
app's in the same run.

Each app is spawned in an 80x24 pseudo-terminal; once it is ready (docdeck: its live
organizations shown, `DOCDECK_BENCH_READY_FILE`; the bare app: its first frame) and has
been left alone `--settle` seconds, every thread's CPU time and context switches are read
from `/proc/<pid>/task/*/schedstat` over `--seconds`: the process's CPU, and its main
thread's (the event loop's) CPU and wake-ups. Textual's own input thread polls stdin ten
times a second in both apps. docdeck's sandbox is another process and is not counted.
Goal: the event loop sleeps (no wake-up of docdeck's own), as the bare app's does.
`--against SRC` runs another source tree's docdeck (SRC on PYTHONPATH) in the same loop.

    .venv/bin/python bench/idle.py --runs 3
    .venv/bin/python bench/idle.py --runs 3 --against /tmp/before/src
"""

from __future__ import annotations

import argparse
import os
import select
import shutil
import signal
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from _harness import PYTHON, BenchError, write_result

BARE_APP = Path(__file__).resolve().parent / "_bare_app.py"


def _threads(pid: int) -> dict[int, tuple[int, int]]:
    """Each thread's (CPU ns, context switches), from schedstat."""
    found = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            ran, _wait, switches = (task / "schedstat").read_text().split()
        except (OSError, ValueError):
            continue  # a thread that ended meanwhile
        found[int(task.name)] = (int(ran), int(switches))
    return found


def _drain(fd: int, seconds: float) -> None:
    """Read what the app writes (a full pty would block it) for `seconds`."""
    until = time.monotonic() + seconds
    while (left := until - time.monotonic()) > 0:
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                os.read(fd, 65536)
            except OSError:
                return


def measure(command: list[str], env: dict[str, str], ready: Path, args: Any) -> dict[str, float]:
    """Spawn `command`, wait for it to be ready and settled, then read its threads."""
    import fcntl
    import struct
    import termios

    ready.unlink(missing_ok=True)
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    process = subprocess.Popen(
        command,
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env={**os.environ, **env, "TERM": "xterm-256color"},
        start_new_session=True,
        close_fds=True,
    )
    os.close(slave)
    try:
        deadline = time.monotonic() + 60
        while not (ready.exists() and ready.read_text().strip()):
            if time.monotonic() > deadline or process.poll() is not None:
                raise BenchError(f"{command[-1]} was not ready within 60 s")
            _drain(master, 0.05)
        _drain(master, args.settle)
        before = _threads(process.pid)
        _drain(master, args.seconds)
        after = _threads(process.pid)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)
        os.close(master)
    per = 10.0 / args.seconds  # figures per 10 s
    main = process.pid
    cpu = sum(after[t][0] - before.get(t, (0, 0))[0] for t in after) / 1e6 * per
    loop_cpu = (after[main][0] - before[main][0]) / 1e6 * per
    wakeups = (after[main][1] - before[main][1]) * per
    return {"cpu_ms": cpu, "loop_cpu_ms": loop_cpu, "loop_wakeups": wakeups}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--settle", type=float, default=6.0, help="seconds left alone first")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds measured")
    parser.add_argument("--against", type=Path, default=None, help="another tree's src")
    args = parser.parse_args(argv)
    trees: dict[str, dict[str, str]] = {"docdeck": {}}
    if args.against is not None:
        trees["docdeck@against"] = {"PYTHONPATH": str(args.against.resolve())}
    results: dict[str, list[dict[str, float]]] = {"bare": [], **{name: [] for name in trees}}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        ready = root / "ready"
        for name in trees:
            (root / name).mkdir()
        try:
            for _ in range(args.runs):
                env = {"DOCDECK_BENCH_READY_FILE": str(ready), "BENCH_BARE_STAY": "1"}
                results["bare"].append(measure([PYTHON, str(BARE_APP)], env, ready, args))
                for name, extra in trees.items():
                    home = root / name
                    env = {
                        **extra,
                        "DOCDECK_BENCH_READY_FILE": str(ready),
                        "DOCDECK_DATA_DIR": str(home / "data"),
                        "DOCDECK_CONFIG_DIR": str(home / "config"),
                        "DOCDECK_CACHE_DIR": str(home / "cache"),
                    }
                    results[name].append(measure([PYTHON, "-m", "docdeck"], env, ready, args))
        finally:
            for name in trees:
                data = root / name / "data"
                if data.is_dir():
                    subprocess.run(
                        [PYTHON, "-m", "docdeck", "sandbox", "stop"],
                        env={**os.environ, "DOCDECK_DATA_DIR": str(data)},
                        capture_output=True,
                        timeout=30,
                    )
            shutil.rmtree(root, ignore_errors=True)
    load = os.getloadavg()
    print(f"idle: {args.runs} runs, {args.seconds:g} s measured after {args.settle:g} s left alone")
    print(f"  figures per 10 s, medians; load {load[0]:.1f}")
    report: dict[str, Any] = {"load": load, "settle_s": args.settle, "seconds": args.seconds}
    for name, runs in results.items():
        medians = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
        report[name] = {"median": medians, "runs": runs}
        print(
            f"  {name:16} process CPU {medians['cpu_ms']:7.1f} ms   event loop"
            f" {medians['loop_cpu_ms']:7.1f} ms, {medians['loop_wakeups']:5.1f} wake-ups"
        )
    report["goal_met"] = report["docdeck"]["median"]["loop_wakeups"] <= max(
        1.0, report["bare"]["median"]["loop_wakeups"]
    )
    print(f"  goal (the event loop asleep, as the bare app's): {report['goal_met']}")
    print(f"  -> {write_result('idle', report)}")
    return report


if __name__ == "__main__":
    main()
