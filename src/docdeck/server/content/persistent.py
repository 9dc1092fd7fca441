"""Collections a revision derives from its parent's by a few changes, without copying them.

A snapshot's derived values (each page's body analysis, its links, the usages of every link
target) are the parent's with the changed pages' entries replaced. Copying a 5,000-entry
dict or list to change one entry costs more than the change (every entry is touched, most
of them out of the CPU's caches), so these share the parent's storage and hold only what
differs; the parent's values are never modified.

- `Layered`: a mapping that is a shared base dict plus a small dict of changes on top; when
  the changes grow past a fraction of the base, they are folded into a new base (a copy
  every so many revisions, not every revision).
- `SortedChunks`: a sorted sequence in chunks of about `CHUNK` items; a change copies the
  list of chunks and the chunk it changes. It is indexed like a list (for binary searches
  and slices) and found into by sort key.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Generic, TypeVar, overload

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")

_GONE: Any = object()

FOLD_MIN = 64
"""Changes kept on top before folding into a new base: at least this many..."""
FOLD_SHARE = 8
"""...or one in this many of the base's entries."""


class Layered(Mapping[K, V]):
    """A read-only mapping: `base` with `top` over it (`_GONE` in `top` removes a key)."""

    __slots__ = ("_base", "_length", "_top")

    def __init__(self, base: dict[K, V], top: dict[K, Any] | None = None) -> None:
        self._base = base
        self._top: dict[K, Any] = top or {}
        self._length = len(base)
        for key, value in self._top.items():
            self._length += (value is not _GONE) - (key in base)

    def __getitem__(self, key: K) -> V:
        top = self._top
        if key in top:
            value = top[key]
            if value is _GONE:
                raise KeyError(key)
            return value  # type: ignore[no-any-return]
        return self._base[key]

    def get(self, key: K, default: Any = None) -> Any:
        top = self._top
        if key in top:
            value = top[key]
            return default if value is _GONE else value
        return self._base.get(key, default)

    def __contains__(self, key: object) -> bool:
        top = self._top
        if key in top:
            return top[key] is not _GONE
        return key in self._base

    def __iter__(self) -> Iterator[K]:
        top = self._top
        for key in self._base:
            if key not in top:
                yield key
        for key, value in top.items():
            if value is not _GONE:
                yield key

    def __len__(self) -> int:
        return self._length

    def updated(
        self, changes: Mapping[K, V], removed: set[K] | frozenset[K] = frozenset()
    ) -> Layered[K, V]:
        """A new mapping: this one with `changes` set and `removed` deleted."""
        top: dict[K, Any] = dict(self._top)
        top.update(changes)
        for key in removed:
            top[key] = _GONE
        if len(top) > max(FOLD_MIN, len(self._base) // FOLD_SHARE):
            base = dict(self._base)
            for key, value in top.items():
                if value is _GONE:
                    base.pop(key, None)
                else:
                    base[key] = value
            return Layered(base)
        return Layered(self._base, top)


CHUNK = 256
"""Items per chunk of a `SortedChunks` (a chunk is split at twice this)."""


class _Indexed(Sequence[T]):
    """A sequence answering `[i]` and `[a:b]` from its two primitives: the item at a
    position already within bounds (`_at`) and a list of the items from `start` to `stop`
    (`_range`, `0 <= start <= stop <= len`)."""

    __slots__ = ()

    def _at(self, index: int) -> T:
        raise NotImplementedError

    def _range(self, start: int, stop: int) -> list[T]:
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                return [self._at(i) for i in range(start, stop, step)]
            return self._range(start, max(start, stop))
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self._at(index)


class SortedChunks(_Indexed[T], Generic[T]):
    """Items sorted by a key (unique), in chunks shared with the sequences it came from."""

    __slots__ = ("_chunks", "_key", "_keys", "_maxes", "_offsets")

    def __init__(
        self,
        key: Callable[[T], Any],
        chunks: list[list[T]],
        keys: list[list[Any]],
    ) -> None:
        self._key = key
        self._chunks = chunks
        self._keys = keys
        self._maxes = [k[-1] for k in keys]
        offsets = [0]
        for chunk in chunks:
            offsets.append(offsets[-1] + len(chunk))
        self._offsets = offsets

    @classmethod
    def of(cls, items: list[T], key: Callable[[T], Any]) -> SortedChunks[T]:
        """`items`, already sorted by `key`."""
        chunks = [items[i : i + CHUNK] for i in range(0, len(items), CHUNK)]
        return cls(key, chunks, [[key(item) for item in chunk] for chunk in chunks])

    def __len__(self) -> int:
        return self._offsets[-1]

    def _at(self, index: int) -> T:
        chunk = bisect_right(self._offsets, index) - 1
        return self._chunks[chunk][index - self._offsets[chunk]]

    def _range(self, start: int, stop: int) -> list[T]:
        out: list[T] = []
        while start < stop:
            chunk = bisect_right(self._offsets, start) - 1
            base = self._offsets[chunk]
            taken = self._chunks[chunk][start - base : stop - base]
            out += taken
            start += len(taken)
        return out

    def position(self, sort_key: Any) -> int:
        """Where `sort_key` is or would be (as `bisect_left` on the whole sequence)."""
        chunk = bisect_left(self._maxes, sort_key)
        if chunk == len(self._chunks):
            return len(self)
        return self._offsets[chunk] + bisect_left(self._keys[chunk], sort_key)

    def find(self, sort_key: Any) -> T | None:
        chunk = bisect_left(self._maxes, sort_key)
        if chunk == len(self._chunks):
            return None
        at = bisect_left(self._keys[chunk], sort_key)
        return self._chunks[chunk][at] if self._keys[chunk][at] == sort_key else None

    def updated(self, put: list[T], removed: list[Any]) -> SortedChunks[T]:
        """A new sequence: this one with the items of `put` added or replacing the item of
        the same key, and the items whose keys are in `removed` taken out."""
        chunks = list(self._chunks)
        keys = list(self._keys)
        maxes = list(self._maxes)
        copied: set[int] = set()

        def chunk_for(sort_key: Any) -> int:
            at = min(bisect_left(maxes, sort_key), len(chunks) - 1)
            if at not in copied:
                chunks[at], keys[at] = list(chunks[at]), list(keys[at])
                copied.add(at)
            return at

        for sort_key in removed:
            if not chunks:
                break
            at = chunk_for(sort_key)
            i = bisect_left(keys[at], sort_key)
            if i < len(keys[at]) and keys[at][i] == sort_key:
                del chunks[at][i], keys[at][i]
                if not chunks[at]:
                    del chunks[at], keys[at], maxes[at]
                    copied = {c - (c > at) for c in copied if c != at}
                else:
                    maxes[at] = keys[at][-1]
        for item in put:
            sort_key = self._key(item)
            if not chunks:
                chunks, keys, maxes = [[item]], [[sort_key]], [sort_key]
                copied = {0}
                continue
            at = chunk_for(sort_key)
            i = bisect_left(keys[at], sort_key)
            if i < len(keys[at]) and keys[at][i] == sort_key:
                chunks[at][i] = item
                continue
            chunks[at].insert(i, item)
            keys[at].insert(i, sort_key)
            maxes[at] = keys[at][-1]
            if len(chunks[at]) > 2 * CHUNK:
                half = len(chunks[at]) // 2
                chunks[at + 1 : at + 1] = [chunks[at][half:]]
                keys[at + 1 : at + 1] = [keys[at][half:]]
                del chunks[at][half:], keys[at][half:]
                maxes[at : at + 1] = [keys[at][-1], keys[at + 1][-1]]
                copied = {c + (c > at) for c in copied} | {at + 1}
        return SortedChunks(self._key, chunks, keys)


class Window(_Indexed[T]):
    """`items[start:stop]` without copying it."""

    __slots__ = ("_items", "_start", "_stop")

    def __init__(self, items: Sequence[T], start: int, stop: int) -> None:
        self._items, self._start, self._stop = items, start, stop

    def __len__(self) -> int:
        return self._stop - self._start

    def _at(self, index: int) -> T:
        return self._items[self._start + index]

    def _range(self, start: int, stop: int) -> list[T]:
        return list(self._items[self._start + start : self._start + stop])
