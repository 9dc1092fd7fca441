"""Every server module named by a string rather than imported, in one place.

Import checks (lint-imports, mypy, a rename by an editor) cannot see a module named in a
string, so a move that forgets one fails only when that code path runs - for a deferred
router, after the server said it was ready. tests/server/test_named_modules.py imports each
name listed here, and the lazy names of `cli.py`.
"""

from __future__ import annotations

FIRST_ROUTERS = (
    "docdeck.server.routers.orgs",
    "docdeck.server.routers.members",
    "docdeck.server.routers.teams",
    "docdeck.server.routers.collections",
    "docdeck.server.routers.spaces",
)
"""What the organization tree needs: registered before the server says it is ready."""

LATER_ROUTERS = (
    "docdeck.server.routers.org_search",
    "docdeck.server.routers.content",
    "docdeck.server.routers.content_writes",
    "docdeck.server.routers.revisions",
    "docdeck.server.routers.change_requests",
    "docdeck.server.routers.change_request_content",
    "docdeck.server.routers.change_request_reviews",
    "docdeck.server.routers.comments",
    "docdeck.server.routers.change_request_comments",
    "docdeck.server.routers.files",
    "docdeck.server.routers.sites",
    "docdeck.server.routers.site_sections",
    "docdeck.server.routers.site_spaces",
    "docdeck.server.routers.site_publishing",
    "docdeck.server.routers.site_redirects",
    "docdeck.server.routers.site_customization",
    "docdeck.server.routers.published_pages",
    "docdeck.server.routers.app_pages",
)
"""Every other router, in this order after the first ones (`defer_routes`: after start-up).
The order is the order of `/openapi.json`'s paths."""

LAZY_HOMES = {
    "create_app": "docdeck.server.app",
    "UnknownUserError": "docdeck.server.auth",
    "mint_token": "docdeck.server.auth",
    "DemoAccount": "docdeck.server.demo",
    "add_bulk_spaces": "docdeck.server.demo",
    "ensure_demo": "docdeck.server.demo",
    "finish_demo": "docdeck.server.demo",
}
"""Where each name `docdeck.server` offers lives (it imports them on first use)."""
