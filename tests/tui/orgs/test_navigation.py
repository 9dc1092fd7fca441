"""Browsing the demo workspace: the tree loads lazily and the detail pane follows the cursor."""

from __future__ import annotations

from docdeck.tui.orgs import DetailPane, FieldList
from tui.helpers import (
    AppFactory,
    open_node,
    open_northwind,
    select,
    tree_of,
    visible_labels,
    wait_for_workers,
)


async def test_organizations_then_their_children(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_workers(pilot)
        tree = tree_of(pilot)
        assert visible_labels(tree) == ["🏢 Northwind Labs", "🏢 Lumen"]

        await open_node(pilot, "Northwind Labs")
        assert visible_labels(tree) == [
            "🏢 Northwind Labs",
            "  ▤ Engineering",
            "  ▤ Company Handbook",
            "  📣 Release Notes",
            "  🎨 Design System",
            "  👥 Members",
            "  🤝 Teams",
            "  🌐 Sites",
            "  🚮 Recently deleted",
            "  ⚙ Settings",
            "  📜 OpenAPI specs",
            "  🔐 Single sign-on",
            "  🔤 Translations",
            "🏢 Lumen",
        ]

        await open_node(pilot, "Engineering")
        labels = visible_labels(tree)
        start = labels.index("  ▤ Engineering")
        assert labels[start + 1 : start + 4] == [
            "    ▤ API",
            "    🏛 Architecture Decisions",
            "    🚨 Incident Runbooks",
        ]


async def test_detail_pane_shows_the_selected_space(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Release Notes")
        fields = app.screen.query_one(DetailPane).query_one(FieldList)
        assert fields.value_of("Title") == "📣 Release Notes"
        assert fields.value_of("Visibility").startswith("public")
        assert fields.value_of("Collection") == "— (top level)"
