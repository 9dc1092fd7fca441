"""Setting up the test editor script as $EDITOR for a test."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).with_name("editor_script.py")


def use_test_editor(
    monkeypatch: pytest.MonkeyPatch, replace: str = "", *, exit_status: int = 0
) -> None:
    """$EDITOR becomes the script; `replace` is "old=>new" (\\n for line ends)."""
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", f"{shlex.quote(sys.executable)} {shlex.quote(str(SCRIPT))}")
    monkeypatch.setenv("DOCDECK_TEST_EDIT", replace)
    monkeypatch.setenv("DOCDECK_TEST_EDIT_EXIT", str(exit_status))
    monkeypatch.delenv("DOCDECK_TEST_EDIT_WRITE", raising=False)
