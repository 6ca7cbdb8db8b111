"""The one bounded cache the service keeps things in (folds, game identities, chain links, resolved
credentials): the latest `size` entries, each for at most `ttl` seconds when one is given, thread-safe."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any, Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Recent(Generic[K, V]):
    """The `size` entries put or read last (least recently used out first); with `ttl`, an entry older
    than `ttl` seconds is gone."""

    def __init__(self, size: int, *, ttl: float | None = None) -> None:
        self.size = size
        self.ttl = ttl
        self._entries: OrderedDict[K, tuple[float, V]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            if self.ttl is not None and time.monotonic() - entry[0] >= self.ttl:
                del self._entries[key]
                return None
            self._entries.move_to_end(key)
            return entry[1]

    def put(self, key: K, value: V) -> None:
        stamp = time.monotonic() if self.ttl is not None else 0.0
        with self._lock:
            self._entries[key] = (stamp, value)
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


_OF_GAMES: list[Recent[Any, Any]] = []


def of_games(size: int) -> Recent[K, V]:
    """A process-wide cache of what a game's stream gives (a narration, choices, a fold), by stream id:
    forgotten whenever an app opens its database (`forget_games`), since a stream id names one game within
    one database only (readable ids such as `2026-11-28-mn-1` recur in another)."""
    made: Recent[K, V] = Recent(size)
    _OF_GAMES.append(made)
    return made


def forget_games() -> None:
    """Empty every cache made by `of_games`."""
    for cache in _OF_GAMES:
        cache.clear()
