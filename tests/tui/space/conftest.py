"""A sandbox whose first organization also holds a generated 5,000-page space."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from docdeck.server.services.content.edits import Draft
from docdeck.server.services.ordering import end_position
from docdeck.server.services.spaces import insert_space

from docdeck.server import DemoAccount
from docdeck.server.store import Database

BIG_PAGES = 5000
BIG_TITLE = "Generated 5000"


def _body(index: int) -> str:
    return (
        f"# Page {index}\n\nText of page {index} about orders and webhooks.\n\n"
        f"## Details {index}\n\n- one\n- two\n\n```python\nprint({index})\n```\n"
    )


def add_big_space(path: Path, pages: int = BIG_PAGES) -> None:
    """A space of `pages` pages in three levels (17 x 17 x the rest) at the top level."""
    db = Database(path)
    now = datetime.now(UTC)
    try:
        with db.write() as conn:
            org = conn.execute("SELECT id FROM organizations ORDER BY created_at").fetchone()[0]
            space = insert_space(
                conn,
                org_id=org,
                now=now,
                title=BIG_TITLE,
                parent=None,
                position=end_position(conn, org, None),
            )
            draft = Draft(conn, space, now)
            made = 0
            tops = [draft.add_page(f"Part {a}", markdown=_body(a)) for a in range(17)]
            made += len(tops)
            middles = []
            for a, top in enumerate(tops):
                for b in range(17):
                    middles.append(
                        draft.add_page(f"Part {a}.{b}", parent=top, markdown=_body(made))
                    )
                    made += 1
            index = 0
            while made < pages:
                parent = middles[index % len(middles)]
                draft.add_page(f"Leaf {made}", parent=parent, markdown=_body(made))
                made += 1
                index += 1
            draft.commit(message="generated")
    finally:
        db.close()


@pytest.fixture(scope="session")
def _big_template(
    _demo_template: tuple[Path, list[DemoAccount]], tmp_path_factory: pytest.TempPathFactory
) -> Path:
    path = tmp_path_factory.mktemp("big-template") / "sandbox.db"
    shutil.copyfile(_demo_template[0], path)
    add_big_space(path)
    return path


@pytest.fixture
def big_sandbox_db(_big_template: Path, tmp_path: Path) -> Path:
    path = tmp_path / "big.db"
    shutil.copyfile(_big_template, path)
    return path
