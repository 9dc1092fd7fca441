"""The demo workspace: what `docdeck serve --demo`, the launcher's sandbox, tests and benches
load. Only the CLI, the launcher's server process and tests import it (an import-linter
contract keeps the API's code from depending on demo data)."""

from docdeck.server.demo.workspace import (
    DemoAccount,
    add_bulk_spaces,
    demo_content_pending,
    ensure_demo,
    finish_demo,
)

__all__ = [
    "DemoAccount",
    "add_bulk_spaces",
    "demo_content_pending",
    "ensure_demo",
    "finish_demo",
]
