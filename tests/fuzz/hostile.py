"""Hypothesis strategies for the inputs the hostile test found to break servers: strings with
lone surrogates, control characters, invisible characters and very long values, oversized
arrays, and tampered page cursors. The fuzz test mixes them into schemathesis's own cases."""

from __future__ import annotations

import base64
import json
from typing import Any

from hypothesis import strategies as st

_PLAIN = st.text(max_size=6)
_SURROGATES = st.text(st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1)
_CONTROLS = st.text(st.characters(categories=["Cc"]), min_size=1, max_size=4)
_INVISIBLE = st.text(
    st.sampled_from(["\u200b", "\u200d", "\u2060", "\ufeff", "\u3164", "\u00a0", " "]),
    min_size=1,
    max_size=6,
)
_LONG = st.builds(lambda n, c: c * n, st.integers(500, 20_000), st.sampled_from("xé🎉\u0301"))


def _around(core: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.builds(lambda a, b, c: a + b + c, _PLAIN, core, _PLAIN)


URL_SAFE_HOSTILE = st.one_of(_around(_CONTROLS), _around(_INVISIBLE), _LONG)
"""Hostile strings a client can put in a URL (a lone surrogate cannot be encoded there; the
server tests send the invalid UTF-8 bytes that stand for one)."""

HOSTILE = st.one_of(_around(_SURROGATES), _SURROGATES, URL_SAFE_HOSTILE)
"""Hostile strings for JSON bodies, where `\\ud800` escapes carry lone surrogates."""


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def tampered_cursors(genuine: list[str]) -> st.SearchStrategy[str]:
    """Real cursors of this sandbox, changed: a flipped character, a swapped or missing
    signature, a forged payload (an integer >= 2^63, a lone surrogate), or noise."""

    def flip(cursor: str, index: int, char: str) -> str:
        index %= len(cursor)
        return cursor[:index] + char + cursor[index + 1 :]

    def forged(key: list[Any], signature: str) -> str:
        payload = json.dumps({"v": 1, "s": "spaces:0", "k": key}).encode()
        return f"{_b64(payload)}.{signature}"

    signatures = st.sampled_from([c.partition(".")[2] for c in genuine] + [""])
    keys = st.lists(
        st.one_of(
            st.integers(2**63, 2**70),
            st.integers(max_value=-(2**63) - 1),
            HOSTILE,
            st.floats(allow_nan=True, allow_infinity=True),
        ),
        max_size=3,
    )
    real = st.sampled_from(genuine)
    return st.one_of(
        st.builds(flip, real, st.integers(0, 10_000), st.sampled_from("A_-.=x0")),
        st.builds(lambda c: c.partition(".")[0], real),
        st.builds(lambda a, b: a.partition(".")[0] + "." + b.partition(".")[2], real, real),
        st.builds(forged, keys, signatures),
        st.builds(lambda c, n: c * n, real, st.integers(2, 50)),
        URL_SAFE_HOSTILE,
    )


def _string_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, str):
        return [path]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _string_paths(v, (*path, k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _string_paths(v, (*path, i))]
    return []


def _list_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path] if isinstance(value, list) else []
    if isinstance(value, dict):
        found += [p for k, v in value.items() for p in _list_paths(v, (*path, k))]
    return found


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replace(value[head], rest, new)}
    copy = list(value)
    copy[head] = _replace(copy[head], rest, new)
    return copy


def mutated_body(body: Any) -> st.SearchStrategy[Any]:
    """The generated body as is, or with one string made hostile, a hostile item added to an
    array, a hostile field name added to an object, or an array made longer than the limit."""
    options: list[st.SearchStrategy[Any]] = [st.just(body)]
    strings = _string_paths(body)
    if strings:
        hostile_leaf = st.builds(
            lambda p, s: _replace(body, p, s), st.sampled_from(strings), HOSTILE
        )
        options += [hostile_leaf] * 4  # the likeliest way to reach code that uses the value
    lists = _list_paths(body)
    if lists:

        def append(path: tuple[Any, ...], item: str) -> Any:
            return _replace(body, path, [*_at(body, path), item])

        options.append(st.builds(append, st.sampled_from(lists), HOSTILE))
        options.append(
            st.builds(lambda p, s: _replace(body, p, [s] * 1001), st.sampled_from(lists), st.text())
        )
    objects = _object_paths(body)
    if objects:

        def add_key(path: tuple[Any, ...], key: str, value: Any) -> Any:
            return _replace(body, path, {**_at(body, path), key: value})

        options.append(
            st.builds(add_key, st.sampled_from(objects), _around(_SURROGATES), st.just("x"))
        )
    return st.one_of(options)


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        value = value[part]
    return value


def _object_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path] if isinstance(value, dict) else []
    if isinstance(value, dict):
        found += [p for k, v in value.items() for p in _object_paths(v, (*path, k))]
    return found
