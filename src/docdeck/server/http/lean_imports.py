"""FastAPI imported with its own pydantic models built on first use (`docdeck serve`).

`import fastapi` builds about sixty pydantic models describing an OpenAPI document
(`fastapi.openapi.models`) and a few more: ~100 ms of CPU, a tenth of a first start, for
classes used only when `/openapi.json` is built. pydantic builds a model's validator when
the class is made unless its config says `defer_build`; the default for that comes from
pydantic's own defaults table, which is set for the length of the import and restored
after. Only FastAPI's classes are made in that window: docdeck's models set `defer_build`
themselves, and routes (with the models FastAPI makes for them) are built after it. Without
that table (another pydantic), FastAPI is imported as usual, only slower.

FastAPI also asks, for every parameter of every route, whether its type is a pydantic v1
model, importing `pydantic.v1` to find out (~35 ms of the first routes' build). docdeck has
no v1 model, so in this process `pydantic.v1` is marked absent: FastAPI's check then says
"no" at once, as it does where pydantic ships without v1.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["import_fastapi"]


@contextmanager
def _models_built_on_first_use() -> Iterator[None]:
    try:
        from pydantic._internal._config import config_defaults
    except ImportError:  # pragma: no cover - another pydantic
        yield
        return
    if config_defaults.get("defer_build") is not False:  # pragma: no cover - another pydantic
        yield
        return
    config_defaults["defer_build"] = True
    try:
        yield
    finally:
        config_defaults["defer_build"] = False


def import_fastapi() -> None:
    """Import FastAPI, its models deferred (once; if it is already in, only `pydantic.v1`
    is marked absent)."""
    sys.modules.setdefault("pydantic.v1", None)  # type: ignore[arg-type]
    if "fastapi" in sys.modules:
        return
    with _models_built_on_first_use():
        import fastapi  # noqa: F401
