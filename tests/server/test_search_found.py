"""`search` answers with `Found`, which makes a page's `PageHit` only when it is read: read
any way (index, slice, iteration, the cursor's binary search), it is the list of hits, and
`within` drops the pages a revision does not hold without reordering the others."""

from __future__ import annotations

import bisect
import sqlite3
from pathlib import Path

from docdeck.server.search import index as full_text

from ._content import API_DOCS
from ._support import DemoIds


def test_found_reads_as_the_list_of_its_hits(ids: DemoIds, sandbox_db: Path) -> None:
    conn = sqlite3.connect(sandbox_db)
    try:
        found = full_text.search(conn, ids.spaces[API_DOCS], "a")
    finally:
        conn.close()
    hits = list(found)
    assert len(hits) == len(found) >= 3
    assert all(isinstance(hit, full_text.PageHit) for hit in hits)
    assert [found[i] for i in range(len(found))] == hits
    assert found[-1] == hits[-1]
    assert found[1:3] == hits[1:3] and found[:] == hits
    assert [(h.rank, h.page_id) for h in hits] == sorted((h.rank, h.page_id) for h in hits)
    key = hits[1].rank, hits[1].page_id
    assert bisect.bisect_right(found, key, key=lambda h: (h.rank, h.page_id)) == 2

    assert found.within({h.page_id for h in hits}) is found
    dropped = {hits[0].page_id, hits[2].page_id}
    kept = found.within({h.page_id for h in hits} - dropped)
    assert list(kept) == [h for h in hits if h.page_id not in dropped]
    assert list(found.within(())) == []
