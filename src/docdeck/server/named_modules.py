"""Every server module named by a string rather than imported, in one place.

Import checks (lint-imports, mypy, a rename by an editor) cannot see a module named in a
string, so a move that forgets one fails only when that code path runs - for a deferred
router, after the server said it was ready. tests/server/test_named_modules.py imports each
name listed here, and the lazy names of `cli.py`.
"""

from __future__ import annotations

FIRST_ROUTERS = (
    "docdeck.server.orgs.routes",
    "docdeck.server.members.routes",
    "docdeck.server.teams.routes",
    "docdeck.server.collections.routes",
    "docdeck.server.spaces.routes",
)
"""What the organization tree needs: registered before the server says it is ready."""

LATER_ROUTERS = (
    "docdeck.server.search.routes",
    "docdeck.server.content.routes",
    "docdeck.server.content.write_routes",
    "docdeck.server.content.revision_routes",
    "docdeck.server.change_requests.routes",
    "docdeck.server.change_requests.content_routes",
    "docdeck.server.change_requests.review_routes",
    "docdeck.server.comments.routes",
    "docdeck.server.files.routes",
    "docdeck.server.sites.routes",
    "docdeck.server.sites.section_routes",
    "docdeck.server.sites.site_space_routes",
    "docdeck.server.sites.publishing_routes",
    "docdeck.server.sites.redirect_routes",
    "docdeck.server.sites.customization_routes",
    "docdeck.server.published.routes",
    "docdeck.server.published.app_pages",
    "docdeck.server.openapi_specs.routes",
    "docdeck.server.openapi_specs.published_routes",
    "docdeck.server.saml.routes",
    "docdeck.server.translations.routes",
)
"""Every other router, in this order after the first ones (`defer_routes`: after start-up).
The order is the order of `/openapi.json`'s paths."""

LAZY_HOMES = {
    "create_app": "docdeck.server.app",
    "UnknownUserError": "docdeck.server.http.auth",
    "mint_token": "docdeck.server.http.auth",
    "DemoAccount": "docdeck.server.demo",
    "add_bulk_spaces": "docdeck.server.demo",
    "ensure_demo": "docdeck.server.demo",
    "finish_demo": "docdeck.server.demo",
}
"""Where each name `docdeck.server` offers lives (it imports them on first use)."""
