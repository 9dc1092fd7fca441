"""`docdeck open <change request>`: the launcher's pick of the first changed page, from the
changes' JSON alone (`review.first_reads`), is the review pane's (`review_changes`)."""

from __future__ import annotations

import pytest

from docdeck.tui.review.changes import review_changes
from docdeck.tui.review.first_reads import CHANGES_LIMIT, first_changed_page
from tui.conftest import RecordingTransport
from tui.helpers import every_space


def _pane_pick(changes: object) -> tuple[str, bool, bool] | None:
    from docdeck.models import RevisionSemanticChanges

    parsed = review_changes(RevisionSemanticChanges.model_validate(changes))
    bodies = [page for page in parsed.pages if page.body_changed]
    return (bodies[0].page_id, bodies[0].in_base, bodies[0].in_change) if bodies else None


async def test_the_launchers_pick_is_the_panes_for_every_change_request_of_the_demo(
    transport: RecordingTransport, admin_token: str
) -> None:
    picked = 0
    async for client, get_json, space in every_space(transport, admin_token):
        for cr in (await client.change_requests.list(space.id, limit=100)).items:
            changes = await get_json(
                f"/v1/spaces/{space.id}/change-requests/{cr.number}/changes",
                limit=CHANGES_LIMIT,
            )
            assert first_changed_page(changes) == _pane_pick(changes), (space.id, cr)
            picked += first_changed_page(changes) is not None
    assert picked >= 3  # the demo has change requests with changed bodies


ID = {"id": "p1", "title": "P", "path": "p"}


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"changes": []}, None),
        ({"changes": [{"type": "page_moved", "page": ID, "parent": {}}]}, None),
        (
            {"changes": [{"type": "page_edited", "page": ID, "attributes": {"title": {}}}]},
            None,
        ),
        (
            {"changes": [{"type": "page_edited", "page": ID, "attributes": {"document": {}}}]},
            ("p1", True, True),
        ),
        ({"changes": [{"type": "page_created", "page": ID}]}, ("p1", False, True)),
        ({"changes": [{"type": "page_deleted", "page": ID}]}, ("p1", True, False)),
        (
            {
                "changes": [
                    {"type": "file_created", "file": {"id": "f", "name": "f"}},
                    {"type": "page_moved", "page": ID, "parent": {}},
                    {"type": "page_created", "page": {**ID, "id": "p2"}},
                    {"type": "page_edited", "page": ID, "attributes": {"document": {}}},
                ]
            },
            ("p1", True, True),  # by first mention, as the pane lists pages
        ),
        ({"changes": [{"type": "page_created", "page": "not a page"}]}, None),
        ({"changes": "not a list"}, None),
        (["not", "an", "object"], None),
    ],
)
def test_the_pick_reads_only_what_the_answer_says(
    changes: object, expected: tuple[str, bool, bool] | None
) -> None:
    assert first_changed_page(changes) == expected
