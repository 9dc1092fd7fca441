"""Cold start: `docdeck` to an interactive org tree, next to a bare Textual app's first frame.

Each run spawns a process in a fresh 80x24 pseudo-terminal and times from just
before the spawn to the wall-clock time the process writes to
`DOCDECK_BENCH_READY_FILE`: the bare app when its first frame is on screen
(Textual's Ready event), docdeck when its organization tree first shows
organizations (embedded sandbox, so the server's start is included). The first
paint (the app's title first appears in the terminal output) is reported too:
docdeck paints its shell before its data arrives. docdeck
runs twice per round: with a fresh data dir (the demo is loaded) and with an
existing one. Runs are interleaved so machine noise hits every variant alike.
The goal is docdeck (existing data dir) within 2x the bare app.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path
from typing import Any

from _harness import PYTHON, Run, run_until_ready, summarize, write_result

BARE_APP = Path(__file__).resolve().parent / "_bare_app.py"
GOAL = 2.0


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)

    samples: dict[str, list[float]] = {
        "bare_textual": [],
        "docdeck_existing": [],
        "docdeck_fresh": [],
    }
    paints: dict[str, list[float]] = {"bare_textual": [], "docdeck_existing": []}
    unclean_exits: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        ready = root / "ready"
        config = root / "config"

        def env(data: Path) -> dict[str, str]:
            return {
                "DOCDECK_BENCH_READY_FILE": str(ready),
                "DOCDECK_DATA_DIR": str(data),
                "DOCDECK_CONFIG_DIR": str(config),
            }

        def bare() -> Run:
            command = [PYTHON, str(BARE_APP)]
            return run_until_ready(command, ready, env=env(root), marker=b"hello", quit_keys=None)

        def docdeck(data: Path) -> Run:
            run = run_until_ready(
                [PYTHON, "-m", "docdeck"], ready, env=env(data), marker=b"docdeck"
            )
            if run.exit_code != 0:
                unclean_exits.append(f"exit code {run.exit_code} after 'q'")
            return run

        existing = root / "existing"
        docdeck(existing)  # creates the sandbox; warms the disk cache; not counted
        bare()
        for index in range(args.runs):
            for name, run in (
                ("bare_textual", bare()),
                ("docdeck_existing", docdeck(existing)),
                ("docdeck_fresh", docdeck(root / f"fresh-{index}")),
            ):
                samples[name].append(run.ready_s)
                if name in paints and run.first_paint_s is not None:
                    paints[name].append(run.first_paint_s)
            shutil.rmtree(root / f"fresh-{index}", ignore_errors=True)

    variants = {name: summarize(values) for name, values in samples.items()}
    bare = variants["bare_textual"]["median_s"]
    ratios = {
        name: round(variants[name]["median_s"] / bare, 2)
        for name in ("docdeck_existing", "docdeck_fresh")
    }
    first_paint = {name: summarize(values) for name, values in paints.items() if values}
    result = {
        "runs": args.runs,
        "first_paint": first_paint,
        "unclean_exits": unclean_exits,
        "terminal": "80x24 pty",
        "variants": variants,
        "ratio_to_bare": ratios,
        "goal_ratio": GOAL,
        "goal_met": ratios["docdeck_existing"] <= GOAL,
    }
    print(f"cold_start: median of {args.runs} runs, process spawn -> ready (80x24 pty)")
    for name, row in variants.items():
        ratio = f"  {ratios[name]:.2f}x bare" if name in ratios else ""
        print(
            f"  {name:<18} {row['median_s'] * 1000:7.0f} ms  "
            f"(min {row['min_s'] * 1000:.0f}, max {row['max_s'] * 1000:.0f}){ratio}"
        )
    for name, row in first_paint.items():
        print(f"  first paint, {name:<18} {row['median_s'] * 1000:7.0f} ms (shell on screen)")
    if unclean_exits:
        print(f"  docdeck did not quit cleanly: {', '.join(unclean_exits)}")
    verdict = "met" if result["goal_met"] else "NOT met"
    print(f"  goal: docdeck_existing within {GOAL:g}x bare -> {verdict}")
    print(f"  -> {write_result('cold_start', result)}")
    return result


if __name__ == "__main__":
    main()
