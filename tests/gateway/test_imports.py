"""What importing the gateway costs a start: httpx without its command-line tool."""

from __future__ import annotations

import subprocess
import sys


def test_the_gateway_imports_httpx_without_its_command_line_tool() -> None:
    # A fresh interpreter: this one has imported whatever the other tests needed.
    code = (
        "import sys, docdeck.gateway, httpx\n"
        "print(sorted(m for m in ('click', 'pygments.lexers', 'httpx._main') if m in sys.modules"
        " and sys.modules[m] is not None))\n"
        "print(callable(httpx.main))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[0] == "[]", f"imported with the gateway: {out[0]}"
    assert out[1] == "True"  # httpx's own fallback `main`, which says the CLI is missing
