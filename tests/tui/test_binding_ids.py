"""Binding ids are what users remap keys by: every one is listed in docs/tui.md and in
`kit/keymap.py` (read at start-up, before most screens are imported), and none is lost."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest
from textual.binding import Binding

import docdeck.tui
from docdeck.tui.kit.keymap import ALIASES, BINDING_IDS, resolve_keymap

DOC = Path(__file__).parents[2] / "docs" / "tui.md"


def _bindings() -> dict[str, list[str]]:
    """Every binding of every class in the TUI's package tree (lazily imported screens too),
    by id; bindings without an id are listed under ""."""
    found: dict[str, list[str]] = {}
    for info in pkgutil.walk_packages(docdeck.tui.__path__, "docdeck.tui."):
        module = importlib.import_module(info.name)
        for cls in vars(module).values():
            if not inspect.isclass(cls) or cls.__module__ != module.__name__:
                continue
            for binding in cls.__dict__.get("BINDINGS", []):
                key = binding.id if isinstance(binding, Binding) and binding.id else ""
                found.setdefault(key, []).append(f"{cls.__module__}.{cls.__qualname__}")
    return found


def _documented() -> set[str]:
    text = DOC.read_text()
    table = text.split("<!-- binding-ids: start -->")[1].split("<!-- binding-ids: end -->")[0]
    return set(re.findall(r"^\| `([^`]+)` \|", table, flags=re.MULTILINE))


def test_every_binding_has_an_id() -> None:
    assert _bindings().get("", []) == []


def test_binding_ids_match_the_docs_and_the_keymap_list() -> None:
    in_code = set(_bindings()) - {""}
    assert in_code == _documented()
    assert in_code == BINDING_IDS


def test_an_alias_names_a_current_id() -> None:
    for old, new in ALIASES.items():
        assert old not in BINDING_IDS
        assert new in BINDING_IDS


def test_unknown_ids_are_reported_and_aliases_resolved() -> None:
    keymap, unknown, invalid = resolve_keymap({"app.quit": "ctrl+q", "no.such_id": "x"})
    assert keymap == {"app.quit": "ctrl+q"}
    assert unknown == ["no.such_id"] and invalid == {}


def test_a_thread_key_has_one_id_and_one_key_wherever_it_is_bound() -> None:
    """The review pane binds the thread keys for its diff beside the panel's own: under the
    panel's ids and keys, so one `[keymap]` entry remaps the key in both places."""
    from docdeck.tui.threads import ThreadsPanel

    panel = {b.id: b.key for b in ThreadsPanel.BINDINGS if isinstance(b, Binding)}
    elsewhere: list[Binding] = []
    for info in pkgutil.walk_packages(docdeck.tui.__path__, "docdeck.tui."):
        module = importlib.import_module(info.name)
        for cls in vars(module).values():
            if (
                inspect.isclass(cls)
                and cls.__module__ == module.__name__
                and cls is not ThreadsPanel
            ):
                elsewhere += [
                    b
                    for b in cls.__dict__.get("BINDINGS", [])
                    if isinstance(b, Binding) and b.action.startswith("thread_")
                ]
    assert len(elsewhere) == len(panel)
    for binding in elsewhere:
        assert binding.id in panel and binding.key == panel[binding.id], binding
    keymap, unknown, _invalid = resolve_keymap({"review.thread_reply": "ctrl+r"})
    assert keymap == {"threads.reply": "ctrl+r"} and unknown == []


@pytest.mark.parametrize(
    ("keys", "said"),
    [
        ("ctrl+", "has no key after its last +"),
        ("ctlr+j", "“ctlr” in “ctlr+j” is not a modifier"),
        ("escpae", "“escpae” is not a key name"),
        ("j,,k", "an empty key"),
        ("  ", "no key given"),
    ],
)
def test_a_key_no_terminal_sends_is_refused_with_why(keys: str, said: str) -> None:
    """`"list.down" = "ctrl+"` was applied without a word: the key then did nothing."""
    keymap, unknown, invalid = resolve_keymap({"list.down": keys, "app.quit": "ctrl+q"})
    assert keymap == {"app.quit": "ctrl+q"} and unknown == []
    assert said in invalid["list.down"]


def test_every_key_docdeck_binds_is_a_key_the_check_accepts() -> None:
    """The check refuses no key the app itself binds (so a user may copy any of them)."""
    from docdeck.tui.kit.keymap import key_problem

    for info in pkgutil.walk_packages(docdeck.tui.__path__, "docdeck.tui."):
        module = importlib.import_module(info.name)
        for cls in vars(module).values():
            if inspect.isclass(cls) and cls.__module__ == module.__name__:
                for binding in cls.__dict__.get("BINDINGS", []):
                    if isinstance(binding, Binding):
                        assert key_problem(binding.key) == "", (cls, binding.key)
    for keys in ("?", "question_mark", "shift+tab", "f5", "pageup", "ctrl+j,J", "delete"):
        assert key_problem(keys) == "", keys


def test_the_help_screens_keymap_example_remaps_a_real_key() -> None:
    """The `?` screen's example `[keymap]` line names a binding id that exists: it said
    `review.reply`, which no key has (a user copying it got an "unknown id" warning and no
    remap)."""
    import tomllib

    from docdeck.tui.kit.help import KEYMAP_NOTE

    example = re.search(r'e\.g\. (\S+ = "[^"]+")', KEYMAP_NOTE)
    assert example is not None
    table = tomllib.loads(example.group(1))
    [(group, ids)] = table.items()
    [(name, keys)] = ids.items()
    keymap, unknown, invalid = resolve_keymap({f"{group}.{name}": keys})
    assert unknown == [] and invalid == {} and keymap == {f"{group}.{name}": keys}
