"""The request behind the organization tree's first view, without importing the gateway.

The launcher asks it of a running sandbox while the TUI is still starting
(`docdeck._cli.first_answer`); the tree's loader asks exactly this, through
`client.orgs.list(limit=PAGE_SIZE)`, and its client is handed the answer.
"""

from __future__ import annotations

__all__ = ["PAGE_SIZE", "ROOT_REQUEST"]

PAGE_SIZE = 100
"""Items per request for tree lists: a screenful or more, never the whole of a 1,000-space org."""

ROOT_REQUEST: tuple[str, dict[str, str]] = ("/v1/orgs", {"limit": str(PAGE_SIZE)})
"""The organizations' first page: `GET /v1/orgs?limit=100`, the tree's root."""
