"""Requests the TUI makes when a tree node opens: one round trip per level, none twice.

Runs the real app headless against `docdeck serve` on loopback and logs every
request at the transport. For each node opened it reports the requests, whether
any was repeated, and how many ran at once (siblings should be concurrent).
"""

from __future__ import annotations

import asyncio
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from _harness import Server, write_result
from _tui import CountingTransport, find_node, run_app, settle, tree_of

STEPS = [
    ("organizations (start)", None),
    ("open an organization", "Northwind"),
    ("open a collection", "Engineering"),
    ("open a nested collection", "API"),
    ("open Teams", "Teams"),
    ("open Recently deleted", "Recently deleted"),
]


def _round_trips(log: list[Any]) -> int:
    """Sequential waves: a request starting after every earlier one finished starts a new wave."""
    waves, wave_end = 0, float("-inf")
    for sent in sorted(log, key=lambda s: s.started):
        if sent.started >= wave_end:
            waves += 1
            wave_end = sent.finished
        else:
            wave_end = max(wave_end, sent.finished)
    return waves


async def _walk(pilot: Pilot[None], transport: CountingTransport) -> dict[str, Any]:
    steps: list[dict[str, Any]] = []
    seen: Counter[str] = Counter()
    for name, title in STEPS:
        if title is not None:
            transport.reset()
            tree = tree_of(pilot)
            try:
                node = find_node(tree, title)
            except LookupError:
                steps.append({"step": name, "skipped": f"no node {title!r} in the demo"})
                continue
            node.expand()
            await settle(pilot)
        log = list(transport.log)
        targets = [f"{sent.method} {sent.target}" for sent in log]
        repeats = [t for t, n in Counter(targets).items() if n > 1]
        again = [t for t in targets if seen[t]]
        seen.update(targets)
        steps.append(
            {
                "step": name,
                "requests": targets,
                "count": len(targets),
                "round_trips": _round_trips(log),
                "most_in_flight": transport.most_in_flight,
                "duplicates_in_step": repeats,
                "repeated_from_earlier_steps": again,
            }
        )
    return {"steps": steps}


def main() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp, Server(Path(tmp) / "bench.db") as server:
        result = asyncio.run(run_app(server.base_url, server.token(), _walk))
    ok = all(
        not step.get("duplicates_in_step") and step.get("round_trips", 1) <= 1
        for step in result["steps"]
    )
    result["one_round_trip_per_level_no_duplicates"] = ok
    print("tree_requests: requests per opened node (over loopback)")
    for step in result["steps"]:
        if "skipped" in step:
            print(f"  {step['step']:<24} skipped: {step['skipped']}")
            continue
        print(
            f"  {step['step']:<24} {step['count']} request(s), "
            f"{step['round_trips']} round trip(s), {step['most_in_flight']} at once, "
            f"duplicates: {step['duplicates_in_step'] or 'none'}"
        )
        for target in step["requests"]:
            print(f"      {target}")
    print(f"  one round trip per level, no duplicates: {'yes' if ok else 'NO'}")
    print(f"  -> {write_result('tree_requests', result)}")
    return result


if __name__ == "__main__":
    import argparse

    argparse.ArgumentParser(description=__doc__).parse_args()  # --help, and no other option
    main()
