"""`docdeck open URL` in a real tmux (120x40): the first screen's content beside a bare app.

Two rows of issue 29's table, each against a bare Textual app's first frame
(`_bare_app.py`, its ready file) in the same run, alternated run by run:

- `cr`: `docdeck open <change request app URL>` to the first added line of the first
  changed page's diff on screen (the first page whose body changed, as the review pane
  picks it; the marker is the start of that added line);
- `space`: `docdeck open <space app URL>` to the first page's first text line on screen.

Times are from just before `tmux new-session` to the first `capture-pane` (polled every
10 ms) showing the marker; the bare app's is its ready file (Textual's `Ready`: the first
frame written). One shared sandbox is started before the loop on its own data directory
(so it is running for every launch, as for a user who ran docdeck before) and stopped at
the end. Cold: the cache directory is deleted before every launch (no first view of the
org tree, no last place: a user opening a link for the first time), so the app paints the
empty shell, connects and opens. `--cached` adds `cr_cached` and `space_cached`, which
keep their cache directory between launches (the org tree's first view painted at once;
the last place is never restored under `docdeck open`). `--against SRC`: another source
tree's docdeck (SRC on PYTHONPATH, e.g. an export of `main`) runs the cold variants in the
same loop, right after this tree's, as `cr@against` and `space@against` (paired run by
run), on a sandbox of its own started by its own code (the same demo, with other ids): a
tree's sandbox may hold a newer schema than the other tree's code understands. The ratio
of each variant is median / median bare.
"""

from __future__ import annotations

import argparse
import asyncio
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
WIDTH, HEIGHT = 120, 40
MARKER_CHARS = 40
"""The marker is this many characters of the line (a wide line is cut by the pane)."""


_SESSIONS = 0


def _run(command: list[str], env: dict[str, str], ready: Path, marker: str | None) -> float:
    """Seconds from `tmux new-session` to the marker on screen (None: to the ready file)."""
    ready.unlink(missing_ok=True)
    global _SESSIONS
    _SESSIONS += 1
    session = f"ddk-open-{os.getpid()}-{_SESSIONS}"  # never one still closing
    exports = " ".join(f"{name}={shlex.quote(value)}" for name, value in env.items())
    inner = f"env {exports} {shlex.join(command)}; sleep 30"
    started = time.time()
    made = _tmux("new-session", "-d", "-s", session, "-x", str(WIDTH), "-y", str(HEIGHT), inner)
    if made.returncode != 0:
        raise RuntimeError(f"tmux new-session failed: {made.stderr.strip()}")
    try:
        deadline = started + 60
        while True:
            if marker is None:
                try:
                    return float(ready.read_text()) - started
                except (OSError, ValueError):
                    pass
            else:
                screen = _tmux("capture-pane", "-p", "-t", session).stdout
                if marker in screen:
                    return time.time() - started
            if time.time() > deadline:
                screen = _tmux("capture-pane", "-p", "-t", session).stdout
                sessions = _tmux("ls").stdout
                raise RuntimeError(
                    f"{command} never showed {marker!r}:\n{screen}\n(tmux sessions: {sessions})"
                )
            time.sleep(0.01)
    finally:
        _tmux("kill-session", "-t", session)


async def _targets(base_url: str, token: str) -> dict[str, tuple[str, str]]:
    """(app URL, marker) for a change request of the demo with a changed body, and a space."""
    from docdeck.gateway import Client
    from docdeck.tui.review.changes import review_changes
    from docdeck.tui.review.content import CHANGES_LIMIT, base_revision
    from docdeck.tui.review.diff_model import diff_pages

    client = Client(base_url, token)
    try:
        orgs = (await client.orgs.list(limit=100)).items
        cr_target: tuple[str, str] | None = None
        space_target: tuple[str, str] | None = None
        for org in orgs:
            for space in (await client.spaces.list(org.id, limit=100)).items:
                if space_target is None:
                    revision = await client.content.revision_in_steps(space.id)
                    first = next((p for p in revision.pages if p.type == "document"), None)
                    if first is not None:
                        page = await client.content.page(space.id, first.id, format="markdown")
                        line = _first_text(str(getattr(page, "markdown", "") or ""))
                        if line:
                            space_target = (space.urls.app, line)
                if cr_target is not None:
                    continue
                for cr in (await client.change_requests.list(space.id, limit=100)).items:
                    changes = review_changes(
                        await client.change_requests.changes(
                            space.id, cr.number, limit=CHANGES_LIMIT
                        )
                    )
                    bodies = [p for p in changes.pages if p.body_changed]
                    if not bodies:
                        continue
                    changed = bodies[0]
                    old = new = ""
                    if changed.in_base:
                        old = str(
                            getattr(
                                await client.content.page(
                                    space.id,
                                    changed.page_id,
                                    format="markdown",
                                    revision=base_revision(cr),
                                ),
                                "markdown",
                                "",
                            )
                            or ""
                        )
                    if changed.in_change:
                        new = str(
                            getattr(
                                await client.change_requests.content.page(
                                    space.id, cr.number, changed.page_id, format="markdown"
                                ),
                                "markdown",
                                "",
                            )
                            or ""
                        )
                    diff = diff_pages(old, new)
                    added = [
                        row.change.text.strip()
                        for row in diff.unified
                        if row.kind in ("insert", "change")
                        and row.change is not None
                        and len(row.change.text.strip()) > 8
                    ]
                    if added:
                        cr_target = (cr.urls.app, added[0][:MARKER_CHARS])
                        break
    finally:
        await client.aclose()
    if cr_target is None or space_target is None:
        raise RuntimeError("the demo has no change request with an added line, or no page")
    return {"cr": cr_target, "space": space_target}


def _sandbox_of(src: Path, data: Path) -> tuple[str, str]:
    """A sandbox started by the docdeck of `src` on the data directory `data` (it keeps
    running after this returns, as a user's does): its base URL and token."""
    script = (
        "import json\n"
        "from docdeck._cli.locations import sandbox_db_path\n"
        "from docdeck.launcher import EmbeddedSandbox\n"
        "c = EmbeddedSandbox(sandbox_db_path()).ensure()\n"
        "print(json.dumps([c.base_url, c.token]))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(src), "DOCDECK_DATA_DIR": str(data)}
    done = subprocess.run(
        [PYTHON, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    base_url, token = json.loads(done.stdout.strip().splitlines()[-1])
    return str(base_url), str(token)


def _stop_sandbox_of(src: Path, data: Path) -> None:
    script = (
        "from pathlib import Path\nfrom docdeck.launcher import stop_sandbox\n"
        f"stop_sandbox(Path({str(data)!r}))"
    )
    env = {**os.environ, "PYTHONPATH": str(src)}
    subprocess.run([PYTHON, "-c", script], env=env, check=False)


def _first_text(markdown: str) -> str:
    """The first line of prose (not a heading, list mark or fence), as the reader shows it."""
    for line in markdown.splitlines():
        text = line.strip()
        if len(text) > 12 and text[0].isalpha():
            return text[:MARKER_CHARS]
    return ""


def _load() -> list[float]:
    return [round(value, 2) for value in os.getloadavg()]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cached", action="store_true", help="also the cached variants")
    parser.add_argument(
        "--against", type=Path, default=None, help="another source tree (its src) to pair with"
    )
    args = parser.parse_args(argv)
    if shutil.which("tmux") is None:
        raise SystemExit("tmux is not installed")
    rows: dict[str, list[float]] = {"bare": [], "cr": [], "space": []}
    if args.cached:
        rows |= {"cr_cached": [], "space_cached": []}
    if args.against is not None:
        import compileall

        compileall.compile_dir(args.against.resolve(), quiet=1)
        rows |= {"cr@against": [], "space@against": []}
    load_before = _load()
    with tmux_server(), tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        ready = root / "ready"
        data = root / "data"
        os.environ["DOCDECK_DATA_DIR"] = str(data)
        from docdeck._cli.locations import sandbox_db_path
        from docdeck.launcher import EmbeddedSandbox, stop_sandbox

        connection = EmbeddedSandbox(sandbox_db_path()).ensure()
        other_data = root / "data-against"
        try:
            targets = asyncio.run(_targets(connection.base_url, connection.token))
            if args.against is not None:
                # The other tree's docdeck gets a sandbox of its own, made by its own code:
                # one tree's sandbox may hold a newer schema than the other understands (the
                # other refused it: "written by a newer docdeck"). Same demo, other ids.
                base_url, token = _sandbox_of(args.against.resolve(), other_data)
                other_targets = asyncio.run(_targets(base_url, token))

            def env(cache: Path, *, data: Path = data, **extra: str) -> dict[str, str]:
                return {
                    "DOCDECK_BENCH_READY_FILE": str(ready),
                    "DOCDECK_DATA_DIR": str(data),
                    "DOCDECK_CONFIG_DIR": str(root / "config"),
                    "DOCDECK_CACHE_DIR": str(cache),
                    "TERM": "screen-256color",
                    **extra,
                }

            docdeck = [PYTHON, "-m", "docdeck", "open"]
            bare = [PYTHON, str(BARE_APP)]
            against = {"PYTHONPATH": str(args.against.resolve())} if args.against else {}
            cold, kept = root / "cache", root / "cache-kept"
            for name in ("cr", "space"):  # warm-up: the interpreter's and the OS's caches
                _run([*docdeck, targets[name][0]], env(cold), ready, targets[name][1])
                if args.cached:
                    _run([*docdeck, targets[name][0]], env(kept), ready, targets[name][1])
            for _ in range(args.runs):
                rows["bare"].append(_run(bare, env(cold), ready, None))
                for name in ("cr", "space"):
                    url, marker = targets[name]
                    shutil.rmtree(cold, ignore_errors=True)
                    rows[name].append(_run([*docdeck, url], env(cold), ready, marker))
                    if against:  # right after this tree's, so the load hits both alike
                        shutil.rmtree(cold, ignore_errors=True)
                        other_url, other_marker = other_targets[name]
                        rows[f"{name}@against"].append(
                            _run(
                                [*docdeck, other_url],
                                env(cold, data=other_data, **against),
                                ready,
                                other_marker,
                            )
                        )
                    if args.cached:
                        rows[f"{name}_cached"].append(
                            _run([*docdeck, url], env(kept), ready, marker)
                        )
        finally:
            stop_sandbox(data)
            if args.against is not None:
                _stop_sandbox_of(args.against.resolve(), other_data)
    load_after = _load()

    medians = {name: summarize(values)["median_s"] for name, values in rows.items()}
    bare_s = medians["bare"]
    result: dict[str, Any] = {
        "runs": args.runs,
        "terminal": f"tmux {WIDTH}x{HEIGHT}, TERM=screen-256color",
        "targets": {
            name: {"url": url, "marker": marker} for name, (url, marker) in targets.items()
        },
        "load_average_before": load_before,
        "load_average_after": load_after,
        "medians_s": medians,
        "ratio_to_bare": {
            name: round(value / bare_s, 2) for name, value in medians.items() if name != "bare"
        },
        "goal": "<= 2x for cr and space",
    }
    if args.against is not None:
        result["against"] = str(args.against)
        result["paired_this_over_against"] = {
            name: round(
                statistics.median(
                    a / b for a, b in zip(rows[name], rows[f"{name}@against"], strict=True)
                ),
                3,
            )
            for name in ("cr", "space")
        }
    result["samples"] = rows
    print(f"open_url: median of {args.runs} runs (tmux {WIDTH}x{HEIGHT}), load {load_before}")
    print(f"  bare first frame {bare_s * 1000:.0f} ms")
    for name, value in medians.items():
        if name != "bare":
            print(f"  {name:<14} {value * 1000:5.0f} ms  {value / bare_s:.2f}x bare")
    if args.against is not None:
        print(f"  paired this/against: {json.dumps(result['paired_this_over_against'])}")
    print(f"  load average after {load_after}")
    name = "open_url-against" if args.against is not None else "open_url"
    print(f"  -> {write_result(name, result)}")
    return result


if __name__ == "__main__":
    main()
