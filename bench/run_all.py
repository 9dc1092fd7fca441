"""Run every benchmark (what `make bench` does) and print one summary at the end.

A benchmark that fails is reported and the others still run; the exit code is
1 if any failed. Results land in bench/results/<name>.json.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any

import big_org
import cold_start
import content
import content_growth
import load
import members
import open_url
import paging
import slow_imports
import tree_requests


def _summaries(results: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    if cold := results.get("cold_start"):
        ratios, met = cold["ratio_to_bare"], cold["goals_met"]
        lines.append(
            f"cold start vs bare Textual: first title (cached, sandbox running) "
            f"{ratios['running_cached_first_title']:.2f}x, live tree "
            f"{ratios['running_ready']:.2f}x (sandbox running), "
            f"{ratios['first_run_ready']:.2f}x (first run); quit "
            f"{cold['quit']['median_s'] * 1000:.0f} ms; goals met: "
            f"{', '.join(name for name, ok in met.items() if ok) or 'none'}"
        )
    if opened := results.get("open_url"):
        ratios = opened["ratio_to_bare"]
        lines.append(
            f"docdeck open vs bare Textual's first frame (tmux): change request to its first "
            f"added line {ratios['cr']:.2f}x, space to its first page's text "
            f"{ratios['space']:.2f}x (goal 2x), load {opened['load_average_before']}"
        )
    if tree := results.get("tree_requests"):
        verdict = "yes" if tree["one_round_trip_per_level_no_duplicates"] else "NO"
        lines.append(f"tree: one round trip per level, no duplicate requests: {verdict}")
    if hot := results.get("load"):
        rates = ", ".join(
            f"{name.removeprefix('GET ')} {row['ratio_requests_per_s_to_bare']:.2f}x "
            f"(p99 {row['ratio_p99_to_bare']:.2f}x)"
            for name, row in hot["endpoints"].items()
        )
        lines.append(f"load vs bare FastAPI ({hot['client']}): {rates}")
    if people := results.get("members"):
        lines.append(
            f"members list, 10,000 members: slowest page {people['slowest_page_ms']:.1f} ms "
            f"wall, {people['slowest_page_cpu_ms']:.1f} ms CPU (goal 10 ms)"
        )
    if big := results.get("big_org"):
        bulk = big["bulk"]
        lines.append(
            f"1,000 spaces: expand {bulk['expand_first_page_ms']:.0f} ms, all pages "
            f"{bulk['page_in_all_ms']:.0f} ms, key median {bulk['key_ms_median']:.0f} ms "
            f"(plain demo {big.get('baseline_demo', {}).get('key_ms_median', float('nan')):.0f} ms)"
        )
    if pages := results.get("paging"):
        rows = pages["rows"]
        lines.append(
            "paging 100 at a time: "
            + ", ".join(
                f"{r['spaces']:,} spaces {r['walk_ms']:.0f} ms ({r['walk_ratio_to_smallest']:.1f}x)"
                for r in rows
            )
            + f"; SQL a page {rows[0]['new_query_deep_page_ms']:.2f}-"
            f"{rows[-1]['new_query_deep_page_ms']:.2f} ms"
        )
    if space := results.get("content"):
        for run in space["runs"]:
            lines.append(
                f"{run['pages']} pages: tree {run['page_tree_warm_ms_median']:.0f} ms, search p95 "
                f"{run['search_p95_ms']:.0f} ms, links after a change "
                f"{run['links_after_one_page_change_ms']:.0f} ms, store "
                f"{run['revision_store_to_content']}x content"
            )
    if growth := results.get("content_growth"):
        small, large = growth["sizes"]
        lines.append(
            f"{large} vs {small} pages: links after a one-page change "
            f"{growth['links_ratio_of_medians']:.2f}x (goal 2x), search p95 "
            f"{growth['search_p95_ratio']:.2f}x (goal 3x), load {growth['load_average_1min']}"
        )
    if slow := results.get("slow_imports"):
        lines.append(
            f"a comment while {slow['imports']} slow imports run: p50 "
            f"{slow['comment_busy_p50_ms']:.0f} ms, max {slow['comment_busy_max_ms']:.0f} ms "
            f"(idle p50 {slow['comment_idle_p50_ms']:.0f} ms); the imports ended after "
            f"{slow['all_imports_ended_s']:.1f} s (deadline {slow['deadline_s']:.0f} s)"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    benches: dict[str, Callable[[], Any]] = {
        "cold_start": lambda: cold_start.main([]),
        "open_url": lambda: open_url.main(["--runs", "3"]),
        "tree_requests": tree_requests.main,
        "load": lambda: load.main([]),
        "members": lambda: members.main([]),
        "big_org": lambda: big_org.main([]),
        "paging": lambda: paging.main([]),
        "content": lambda: content.main([]),
        "content_growth": lambda: content_growth.main([]),
        "slow_imports": lambda: slow_imports.main([]),
    }
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--only", nargs="+", choices=list(benches), metavar="NAME", help="these benches only"
    )
    args = parser.parse_args(argv)
    if args.only:
        benches = {name: run for name, run in benches.items() if name in args.only}
    results: dict[str, Any] = {}
    failed: list[str] = []
    for name, run in benches.items():
        began = time.perf_counter()
        print(f"=== {name}", flush=True)
        try:
            results[name] = run()
        except Exception:
            failed.append(name)
            traceback.print_exc()
        print(f"    ({time.perf_counter() - began:.1f} s)\n", flush=True)
    print("=== summary")
    for line in _summaries(results):
        print(f"  {line}")
    for name in failed:
        print(f"  {name}: FAILED (see above)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
