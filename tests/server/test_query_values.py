"""The fast path reads a query string as Starlette's `request.query_params` does, without
building its multidict (`fast_routes._Query`): the same value for a name, the last of a
repeated one, and the same list for a sequence parameter."""

from __future__ import annotations

import pytest
from starlette.datastructures import QueryParams

from docdeck.server.http.fast_routes import _Query

RAW = [
    b"format=markdown",
    b"format=markdown&format=document",
    b"a=1&b=&c&a=2&a=",
    b"limit=+5&page=%2Fx%2B%20y&type=basic&type=premium",
    b"shareKey=%C3%A9%FF&shareKey=%ZZ",
    b"x=1;y=2&=v&&k==",
    "q=caf\xe9&q=%E2%82%AC".encode("latin-1"),
    b"&",
]


@pytest.mark.parametrize("raw", RAW)
def test_query_values_are_starlettes(raw: bytes) -> None:
    ours, theirs = _Query(raw), QueryParams(raw)
    assert bool(ours) == bool(theirs)
    names = {key for key, _ in theirs.multi_items()} | {"absent", "a", "type", "q"}
    for name in names:
        assert ours.get(name) == theirs.get(name), name
        assert ours.getlist(name) == theirs.getlist(name), name
