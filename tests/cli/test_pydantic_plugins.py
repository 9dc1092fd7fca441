"""`docdeck._cli.pydantic_plugins`: pydantic's plugin loader without importlib.metadata when
plugins are off, and exactly pydantic's own behaviour otherwise. Each case runs in a fresh
interpreter (this one has imported pydantic's loader long ago)."""

from __future__ import annotations

import importlib.machinery
import os
import subprocess
import sys
from pathlib import Path

import pydantic.plugin

from docdeck._cli.pydantic_plugins import LOADER, OFF_VALUES


def _run(code: str, *, disable: str | None, path: Path | None = None) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    if disable is not None:
        env["PYDANTIC_DISABLE_PLUGINS"] = disable
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(path), env.get("PYTHONPATH", "")])
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_pydantics_loader_returns_nothing_before_any_scan_when_plugins_are_off() -> None:
    """What the light loader relies on, read from the installed pydantic (2.14.3 when this
    was written): with these values, `get_plugins()` returns `()` before it scans."""
    spec = importlib.machinery.PathFinder.find_spec(LOADER, list(pydantic.plugin.__path__))
    assert spec is not None and spec.origin is not None
    source = Path(spec.origin).read_text(encoding="utf-8")
    body = source[source.index("def get_plugins(") :]
    condition = "elif disabled_plugins in ('__all__', '1', 'true'):\n        return ()"
    assert condition in body
    assert OFF_VALUES == ("__all__", "1", "true")
    assert "os.getenv('PYDANTIC_DISABLE_PLUGINS')" in body  # read at every call
    assert body.index(condition) < body.index("entry_points(")


_MODEL = """
import sys
from docdeck._cli.pydantic_plugins import install
installed = install()
from pydantic import BaseModel
class Thing(BaseModel):
    name: str
Thing.model_validate_json(b'{"name": "a"}')
from pydantic.plugin._loader import get_plugins
print(installed, "importlib.metadata" in sys.modules, list(get_plugins()))
"""


def test_with_plugins_off_no_distribution_is_scanned() -> None:
    for value in OFF_VALUES:
        assert _run(_MODEL, disable=value) == ["True False []"]


def test_with_plugins_on_pydantics_own_loader_is_left_alone() -> None:
    assert _run(_MODEL, disable=None) == ["False True []"]
    assert _run(_MODEL, disable="some_plugin") == ["False True []"]


def _plugin_distribution(root: Path) -> Path:
    """An installed distribution with a pydantic plugin, on a path of its own."""
    (root / "fake_plugin_mod.py").write_text(
        "class Plugin:\n"
        "    def new_schema_validator(self, *args, **kwargs):\n"
        "        return None, None, None\n"
        "plugin = Plugin()\n"
    )
    info = root / "fake_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[pydantic]\nfake = fake_plugin_mod:plugin\n")
    return root


def test_plugins_turned_on_after_install_are_found_by_pydantics_own_loader(
    tmp_path: Path,
) -> None:
    """Installed with plugins off, then the variable changed: from then on pydantic's own
    loader scans (and is the module of that name); off again, nothing, as pydantic's does."""
    code = """
import os, sys
from docdeck._cli.pydantic_plugins import install
print(install())
from pydantic.plugin import _loader as before
import fake_plugin_mod
print(list(before.get_plugins()))
os.environ["PYDANTIC_DISABLE_PLUGINS"] = "other"
print([p is fake_plugin_mod.plugin for p in before.get_plugins()])
real = sys.modules["pydantic.plugin._loader"]
print(real is not before, real.PYDANTIC_ENTRY_POINT_GROUP, "importlib.metadata" in sys.modules)
os.environ["PYDANTIC_DISABLE_PLUGINS"] = "true"
print(list(before.get_plugins()), list(real.get_plugins()))
"""
    out = _run(code, disable="__all__", path=_plugin_distribution(tmp_path))
    assert out == ["True", "[]", "[True]", "True pydantic True", "[] []"]


def test_the_same_plugin_is_found_with_or_without_the_light_loader(tmp_path: Path) -> None:
    code = """
import os, sys
from docdeck._cli.pydantic_plugins import install
light = install()
os.environ["PYDANTIC_DISABLE_PLUGINS"] = "other"
from pydantic.plugin._loader import get_plugins
print(light, [type(p).__name__ for p in get_plugins()])
"""
    root = _plugin_distribution(tmp_path)
    assert _run(code, disable="__all__", path=root) == ["True ['Plugin']"]
    assert _run(code, disable=None, path=root) == ["False ['Plugin']"]


def test_the_cli_installs_it() -> None:
    code = (
        "import sys\n"
        "from docdeck.cli import main\n"
        "try:\n"
        "    main(['--version'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(type(sys.modules.get('pydantic.plugin._loader')).__name__)\n"
    )
    assert _run(code, disable=None)[-1] == "_LightLoader"
