"""The README shows the main keys and links the TUI guide; `make run` says what it installs."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_readme_lists_the_main_keys_and_links_the_tui_guide() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/tui.md)" in readme
    from docdeck.tui.orgs import OrgBrowser  # the home screen's browser, which binds its keys

    bound = {key for binding in OrgBrowser.BINDINGS for key in binding.key.split(",")}  # type: ignore[union-attr]
    names = {"question_mark": "?", "slash": "/"}
    bound = {names.get(key, key) for key in bound}
    for key in ("?", "/", "n", "c", "e", "m", "d", "D", "y", "Y", "o", "r", "q"):
        assert re.search(rf"`{re.escape(key)}`", readme), f"README does not show `{key}`"
        assert key in bound, f"README shows `{key}`, which the browser does not bind"


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_run_shows_what_it_installs() -> None:
    plan = subprocess.run(
        ["make", "-n", "-B", "run"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert "==> Installing docdeck and its dependencies" in plan
    install = next(line for line in plan.splitlines() if "pip install -e" in line)
    assert "--quiet" not in install  # pip's own per-package progress shows
