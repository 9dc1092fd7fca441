"""What the imports cost a start: httpx without its CLI, request bodies built on first use."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys


def _fresh(code: str) -> str:
    """What `code` prints in a fresh interpreter (this one has imported whatever the other
    tests needed)."""
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout


def test_the_gateway_imports_httpx_without_its_command_line_tool() -> None:
    code = (
        "import sys, docdeck.gateway, httpx\n"
        "print(sorted(m for m in ('click', 'pygments.lexers', 'httpx._main') if m in sys.modules"
        " and sys.modules[m] is not None))\n"
        "print(callable(httpx.main))\n"
    )
    out = _fresh(code).split("\n")
    assert out[0] == "[]", f"imported with the gateway: {out[0]}"
    assert out[1] == "True"  # httpx's own fallback `main`, which says the CLI is missing


def test_request_bodies_are_built_on_first_use_except_in_the_server() -> None:
    """The TUI sends no body before its first view, so body validators wait (like responses);
    the server's routes need them complete (FastAPI reads a deferred one through a path that
    fails), and every body class, made before or after the routers, is complete there."""
    code = (
        "import docdeck.models as m\n"
        "print(m.SpaceUpdate.__pydantic_complete__)\n"
        "from docdeck.server.http.deferred_routes import router_routes\n"
        "from docdeck.server.named_modules import FIRST_ROUTERS\n"
        "router_routes(FIRST_ROUTERS)\n"
        "print(m.SpaceUpdate.__pydantic_complete__)\n"
        "from docdeck.models import SiteSpaceCreate\n"  # a module imported after the routers
        "print(SiteSpaceCreate.__pydantic_complete__)\n"
    )
    out = _fresh(code).split()
    assert out == ["False", "True", "True"]


def test_a_lazy_model_imports_only_the_module_that_defines_it() -> None:
    """Asking `docdeck.models` for a page's model builds the content module's classes only,
    not the change requests' and comments' that come before it in `_LAZY_MODULES`."""
    code = (
        "import sys, docdeck.models as m\n"
        "m.RevisionFile\n"
        "print(sorted(k.rpartition('.')[2] for k in sys.modules if k.startswith('docdeck.models.')"
        " and k.rpartition('.')[2] in m._LAZY_MODULES))\n"
    )
    out = _fresh(code).split()
    assert out == ["['content']"]


def test_every_lazy_model_name_is_mapped_to_the_module_that_defines_it() -> None:
    code = (
        "import json, docdeck.models as m\n"
        "print(json.dumps(sorted(set(m.__all__) - set(vars(m)))))\n"
    )
    lazy = set(json.loads(_fresh(code)))
    import docdeck.models as models

    where = models._where()
    assert lazy, "no lazy name: the test reads nothing"
    assert lazy == where.keys()
    assert set(where.values()) == set(models._LAZY_MODULES)
    for name, module in where.items():
        assert hasattr(importlib.import_module(f"docdeck.models.{module}"), name), (name, module)


def test_the_models_annotations_are_evaluated_when_their_classes_are_made() -> None:
    """No model module defers its annotations (`from __future__ import annotations`): pydantic
    would compile and evaluate each field's annotation from its text when the class is made
    (a thousand on the way to a change request's first diff, ~4.5 ms of the models' import).
    A name defined further down stays quoted."""
    from pathlib import Path

    import docdeck.models

    package = Path(docdeck.models.__file__).parent
    deferring = sorted(
        path.name
        for path in package.glob("*.py")
        if "from __future__ import annotations" in path.read_text(encoding="utf-8").splitlines()
    )
    assert deferring == []


def test_no_model_field_defaults_through_a_builtin_class() -> None:
    """pydantic asks a `default_factory`'s signature each time it builds a validator holding
    the field; for a builtin class (`list`, `dict`) that is ~0.3 ms a time (a quarter of the
    page tree's validator, asked 12 times). Fields default through `empty_list`/`empty_dict`,
    whose signatures are worked out once; a new model written the usual way fails here."""
    import inspect

    from pydantic import BaseModel

    import docdeck.models as models
    from docdeck.models._base import empty_dict, empty_list

    builtin = (list, dict, set, frozenset, tuple)
    classes = {
        value
        for name in models.__all__
        if inspect.isclass(value := getattr(models, name)) and issubclass(value, BaseModel)
    }
    assert len(classes) > 100, "the models were not all read"
    found = [
        f"{cls.__name__}.{field}"
        for cls in classes
        for field, info in cls.model_fields.items()
        if info.default_factory in builtin
    ]
    assert found == []
    factories = {empty_list, empty_dict}
    assert all("__signature__" in vars(factory) for factory in factories)
