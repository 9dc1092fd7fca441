"""Responsiveness with 1,000 spaces in one organization.

Adds 1,000 spaces (`add_bulk_spaces`) to a demo organization served by
`docdeck serve` on loopback, then drives the real app headless (120x40):
time to expand the organization (first page), time to page in all 1,000
spaces by scrolling to "load more", the time a cursor key takes to be handled
with all of them in the tree, and the time a filter takes to apply.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from _harness import Server, percentile, write_result
from _tui import CountingTransport, find_node, run_app, settle, tree_of

ORG_TITLE = "Northwind Labs"


def _spaces_shown(tree: Any) -> int:
    org = find_node(tree, ORG_TITLE)
    return sum(1 for child in org.children if "Bulk space" in child.label.plain)


async def _drive(pilot: Pilot[None], transport: CountingTransport, bulk: int) -> dict[str, Any]:
    tree = tree_of(pilot)
    tree.focus()
    org = find_node(tree, ORG_TITLE)
    tree.move_cursor(org)
    await settle(pilot)

    transport.reset()
    began = time.perf_counter()
    org.expand()
    await settle(pilot)
    expand_s = time.perf_counter() - began
    first_page = _spaces_shown(tree)

    began = time.perf_counter()
    pages = 0
    while _spaces_shown(tree) < bulk and pages < 100:
        org = find_node(tree, ORG_TITLE)
        more = [c for c in org.children if "load more" in c.label.plain]
        if not more:
            break
        tree.move_cursor(more[0])
        await settle(pilot)
        pages += 1
    all_pages_s = time.perf_counter() - began

    tree.move_cursor(find_node(tree, ORG_TITLE))
    await pilot.pause()
    keys: list[float] = []
    for key in ["down"] * 60 + ["end", "home"] + ["pagedown"] * 5 + ["pageup"] * 5:
        began = time.perf_counter()
        await pilot.press(key)
        keys.append(time.perf_counter() - began)

    began = time.perf_counter()
    await pilot.press("slash", *"0999")
    await settle(pilot)
    filter_s = time.perf_counter() - began
    await pilot.press("escape")
    await settle(pilot)

    return {
        "bulk_spaces": bulk,
        "spaces_in_first_page": first_page,
        "expand_first_page_ms": round(expand_s * 1000, 1),
        "pages_loaded_after_first": pages,
        "spaces_shown_after_paging": _spaces_shown(tree),
        "page_in_all_ms": round(all_pages_s * 1000, 1),
        "requests_total": len(transport.log),
        "key_ms_median": round(statistics.median(keys) * 1000, 2),
        "key_ms_p95": round(percentile(keys, 0.95) * 1000, 2),
        "key_ms_max": round(max(keys) * 1000, 2),
        "filter_typed_and_applied_ms": round(filter_s * 1000, 1),
    }


def _measure(spaces: int) -> dict[str, Any]:
    from docdeck.server import add_bulk_spaces

    with tempfile.TemporaryDirectory() as tmp, Server(Path(tmp) / "big.db") as server:
        import httpx

        token = server.token()
        orgs = httpx.get(
            f"{server.base_url}/v1/orgs", headers={"Authorization": f"Bearer {token}"}
        ).json()["items"]
        org_id = next(org["id"] for org in orgs if org["title"] == ORG_TITLE)
        if spaces:
            add_bulk_spaces(server.db, org_id, spaces)

        async def body(pilot: Pilot[None], transport: CountingTransport) -> dict[str, Any]:
            return await _drive(pilot, transport, spaces)

        return asyncio.run(run_app(server.base_url, token, body))


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--spaces", type=int, default=1000)
    parser.add_argument("--no-baseline", action="store_true", help="skip the run on the plain demo")
    args = parser.parse_args(argv)
    runs = {"bulk": _measure(args.spaces)}
    if not args.no_baseline:
        runs["baseline_demo"] = _measure(0)

    print(f"big_org: {args.spaces} spaces added to {ORG_TITLE!r}; headless 120x40, loopback server")
    for name, result in runs.items():
        print(f"  [{name}]")
        print(
            f"    expand (first page: {result['spaces_in_first_page']} bulk spaces): "
            f"{result['expand_first_page_ms']:.0f} ms"
        )
        if result["bulk_spaces"]:
            print(
                f"    page in the rest ({result['pages_loaded_after_first']} pages, "
                f"{result['spaces_shown_after_paging']} shown): {result['page_in_all_ms']:.0f} ms"
            )
        print(
            f"    cursor key handled: median {result['key_ms_median']:.1f} ms, "
            f"p95 {result['key_ms_p95']:.1f} ms, max {result['key_ms_max']:.1f} ms"
        )
        print(
            f"    filter '/0999' typed and applied: {result['filter_typed_and_applied_ms']:.0f} ms"
        )
    print(f"  -> {write_result('big_org', runs)}")
    return runs


if __name__ == "__main__":
    main()
