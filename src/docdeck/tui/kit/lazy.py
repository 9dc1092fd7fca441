"""A package's lazy public face, as Textual's `widgets/__init__.py` has: each name is
imported from its module on first use, so importing the package costs nothing."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from importlib import import_module

__all__ = ["lazy_exports"]


def lazy_exports(
    package: str, where: Mapping[str, str]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The module `__getattr__` and `__dir__` of `package`, whose public names are the keys
    of `where` (name -> the module that defines it). A name once imported is kept in the
    package, so the next use does not come here."""
    namespace = sys.modules[package].__dict__

    def __getattr__(name: str) -> object:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(module), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *where})

    return __getattr__, __dir__
