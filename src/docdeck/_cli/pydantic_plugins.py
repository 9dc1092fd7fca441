"""pydantic's plugin loader, without its import of `importlib.metadata` when plugins are off.

pydantic asks `pydantic.plugin._loader.get_plugins()` when it builds a model's first
validator. That module imports `importlib.metadata` (email, zipfile, csv...: ~20 ms of
the TUI's start, on the way to the first live view, and of the sandbox server's) even
when `PYDANTIC_DISABLE_PLUGINS` turns every plugin off, which `docdeck.cli` does unless
the user set it. `install()` puts a module of the same name in its place whose
`get_plugins()` does exactly what pydantic's does:

- plugins off (`PYDANTIC_DISABLE_PLUGINS` is `__all__`, `1` or `true`, read at each
  call as pydantic does): nothing, as pydantic's returns `()` before any scan;
- otherwise (another value, e.g. a list of plugin names to leave out, or the variable
  changed since): pydantic's own module is loaded from its file and does the work, and
  from then on it is the module under that name.

Any other attribute of the module is pydantic's own (loaded when first read). Checked
against pydantic 2.14.3 (`tests/cli/test_pydantic_plugins.py` reads pydantic's source
for the condition above, so an upgrade that changes it fails there).
"""

from __future__ import annotations

import os
import sys
from types import ModuleType
from typing import Any

__all__ = ["LOADER", "OFF_VALUES", "install"]

LOADER = "pydantic.plugin._loader"
OFF_VALUES = ("__all__", "1", "true")
"""The values of `PYDANTIC_DISABLE_PLUGINS` with which pydantic loads no plugin at all."""


def plugins_off() -> bool:
    return os.getenv("PYDANTIC_DISABLE_PLUGINS") in OFF_VALUES


def install() -> bool:
    """Put the light loader in place, if plugins are off and pydantic's is not imported yet;
    True if it is in place."""
    if not plugins_off() or LOADER in sys.modules:
        return isinstance(sys.modules.get(LOADER), _LightLoader)
    sys.modules[LOADER] = _LightLoader(LOADER)
    return True


def _pydantic_loader() -> ModuleType:
    """pydantic's own `_loader`, loaded from its file (and from now on the module of that
    name, so pydantic and any reader share its cache of plugins)."""
    import importlib.machinery
    import importlib.util

    import pydantic.plugin

    current = sys.modules.get(LOADER)
    if current is not None and not isinstance(current, _LightLoader):
        return current
    spec = importlib.machinery.PathFinder.find_spec(LOADER, list(pydantic.plugin.__path__))
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot find {LOADER}", name=LOADER)
    module = importlib.util.module_from_spec(spec)
    sys.modules[LOADER] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules[LOADER] = current  # type: ignore[assignment]
        raise
    pydantic.plugin._loader = module  # type: ignore[attr-defined]
    return module


class _LightLoader(ModuleType):
    def get_plugins(self) -> Any:
        if plugins_off():
            return ()
        return _pydantic_loader().get_plugins()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(_pydantic_loader(), name)
