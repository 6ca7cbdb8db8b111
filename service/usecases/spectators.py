"""Spectators: how far behind the record a game's spectators see it (its spectator delay, set by a
`record` key and read by anyone), and the last step that leaves them now. A spectate key's reads, the
public pages and the live stream all stop at that step."""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from service.store.base import EventRecorder, ReadModels, SpectatorDelay, StreamId
from service.usecases.access import Principal
from service.usecases.games import GameRecords


class DelayedStreams(ReadModels, EventRecorder, Protocol):
    """What the horizon reads: the delay (a read model) and when each event was recorded (the log)."""


def released(recorded: Sequence[datetime], delay: SpectatorDelay, now: float | None = None) -> int:
    """How many of a game's steps (recorded at these times, in order) spectators may see now: all but
    the last `delay.events`, and none recorded less than `delay.seconds` ago."""
    last = len(recorded) - delay.events
    if delay.seconds:
        horizon = (time.time() if now is None else now) - delay.seconds
        while last > 0 and recorded[last - 1].timestamp() > horizon:
            last -= 1
    return max(last, 0)


def spectator_horizon(store: DelayedStreams, principal: Principal, stream_id: StreamId) -> int | None:
    """The last step `principal` may see of the game on `stream_id`, or None when it sees all of it."""
    return None if principal.sees_hidden else spectators_horizon(store, stream_id)


def records_horizon(records: GameRecords, principal: Principal, stream_id: StreamId) -> int | None:
    """`spectator_horizon` on the store under `records` (for a controller, which reaches no store)."""
    return spectator_horizon(records.store, principal, stream_id)


def spectators_horizon(store: DelayedStreams, stream_id: StreamId) -> int | None:
    """The last step spectators may see of the game on `stream_id` now (at least the set-up), or None
    when it has no spectator delay."""
    delay = store.spectator_delay(stream_id)
    if not delay.events and not delay.seconds:
        return None
    recorded = [e.recorded_at for e in store.read_stream(stream_id)]
    return max(1, released(recorded, delay))


class Spectators:
    """A game's spectator delay, set and read, and the horizon it gives."""

    def __init__(self, store: DelayedStreams) -> None:
        self.store = store

    @classmethod
    def of(cls, records: GameRecords) -> Spectators:
        return cls(records.store)

    def delay(self, stream_id: StreamId) -> SpectatorDelay:
        return self.store.spectator_delay(stream_id)

    def set_delay(self, stream_id: StreamId, events: int, seconds: int) -> SpectatorDelay:
        delay = SpectatorDelay(events=events, seconds=seconds)
        self.store.set_spectator_delay(stream_id, delay)
        return delay

    def horizon(self, principal: Principal, stream_id: StreamId) -> int | None:
        """The last step `principal` may see now (None: all of it)."""
        return spectator_horizon(self.store, principal, stream_id)

    def public_horizon(self, stream_id: StreamId) -> int | None:
        """The last step spectators may see now (None: all of it)."""
        return spectators_horizon(self.store, stream_id)
