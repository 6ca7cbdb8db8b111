"""Spectators: how far behind the record a game's spectators see it (its spectator delay, set by a
`record` key and read by anyone), and the last step that leaves them now. A spectate key's reads, the
public pages and the live stream all stop at that step.

What a spectator (a spectate key, its page session, a share link) has been released is decided in one
place, `ReleasedStore`: every request of a spectator reads its records through it (`released_records`,
called where the API and the pages resolve the caller's records), so each output it can reach is computed
from what the delays have released. A game held back is, to a spectator, the game stopped at its released
step: its listing (version, finished), its events and views, its summary, and so the standings, campaigns,
ratings, player pages and club home that fold the summaries. A game counts as finished for a spectator
only once the step that finished it is released."""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol, cast

import msgspec

from domain.record import Folded, decoder, start
from domain.registry import Rulesets
from domain.ruleset import Result, Viewer
from projections.ratings import PlayerRating, RatingPoint, rate_all
from service.cache import Recent, of_games
from service.store.base import (
    ClubRecords,
    EventRecorder,
    GameFilter,
    GameRecord,
    GameSummary,
    Outcome,
    ReadModels,
    ResultChange,
    SnapshotRow,
    SpectatorDelay,
    Store,
    StoredEvent,
    StreamId,
)
from service.usecases.access import Principal
from service.usecases.games import Records
from service.usecases.ratings import rated


class DelayedStreams(ReadModels, EventRecorder, Protocol):
    """What the horizon reads: the delay (a read model) and when each event was recorded (the log)."""


class ReleasableStore(DelayedStreams, ClubRecords, Protocol):
    """What `ReleasedStore` reads itself: the delays, the log, the read models and the games' listings (it
    passes every other call through unchanged)."""


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


def records_horizon(records: Records, principal: Principal, stream_id: StreamId) -> int | None:
    """`spectator_horizon` on the store under `records` (for a controller, which reaches no store)."""
    return spectator_horizon(records.store, principal, stream_id)


def spectators_horizon(store: DelayedStreams, stream_id: StreamId) -> int | None:
    """The last step spectators may see of the game on `stream_id` now (at least the set-up), or None
    when it has no spectator delay."""
    if isinstance(store, ReleasedStore):  # decided once per request: the events it reads stop there already
        return store.horizon(stream_id)
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
    def of(cls, records: Records) -> Spectators:
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


def released_records(records: Records, principal: Principal) -> Records:
    """The records as `principal` may read them: all of them for a key that sees hidden information,
    else through a `ReleasedStore` (one per request: a horizon moves on with time)."""
    if principal.sees_hidden:
        return records
    store = ReleasedStore(records.store, records.rulesets)
    return records.reading_from(cast(Store, store), folds=ReleasedFolds(records.folds, store))


def released_again(records: Records) -> Records:
    """The records as their reader may read them now: a spectator's (`released_records`, whose horizons are
    fixed when made) over a new `ReleasedStore`, so a long stream (a tournament's screens) sees time pass."""
    store = records.store
    if not isinstance(store, ReleasedStore):
        return records
    fresh = ReleasedStore(store.everything, store.rulesets)
    folds = records.folds
    shared = folds.shared if isinstance(folds, ReleasedFolds) else folds
    return records.reading_from(cast(Store, fresh), folds=ReleasedFolds(shared, fresh))


def holds_back(store: object, record: GameRecord) -> bool:
    """Whether the store's reader (a spectator) is held back from some of the game of `record`."""
    return isinstance(store, ReleasedStore) and store.release(record.club_id, record.game_id, record) is not None


def released_now(store: DelayedStreams) -> DelayedStreams:
    """The store as its reader may read it now: for a spectator's (a `ReleasedStore`, whose horizons are
    fixed when made), a new one over the same store, so a long request (a feed's stream) sees time pass."""
    if isinstance(store, ReleasedStore):
        return cast(DelayedStreams, ReleasedStore(store.everything, store.rulesets))
    return store


def unreleased(store: DelayedStreams) -> DelayedStreams:
    """The store under a `ReleasedStore` (a live stream follows the record and releases steps itself)."""
    return store.everything if isinstance(store, ReleasedStore) else store


class Release(msgspec.Struct, frozen=True, kw_only=True):
    """A game held back by its spectator delay, as spectators have been released it: its listing and its
    outcome at the released step."""

    record: GameRecord
    outcome: Outcome


_UNPLAYED = Result(finished=False, score_unit="", players=())
_OUTCOMES: Recent[tuple[StreamId, int], Outcome] = of_games(1024)
"""Games' outcomes at a released step, by stream and step."""


class ReleasedStore:
    """The store as a spectator may read it now. A game with a spectator delay stops at its released step:
    its events, snapshots and corrections up to it, its listing and summary as of it (so the standings,
    campaigns and ratings folded from the summaries count it as the game stopped there). Everything else is
    the store's own (reads pass through). Horizons are worked out once per store, so one request sees one
    moment of every game."""

    def __init__(self, store: ReleasableStore, rulesets: Rulesets) -> None:
        self.everything = store
        self.rulesets = rulesets
        self._horizons: dict[StreamId, tuple[int, int] | None] = {}
        """Per stream: (released step, recorded steps), or None when it has no delay."""
        self._releases: dict[StreamId, Release | None] = {}
        self._held: dict[str, dict[str, Release]] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.everything, name)

    def released(self, event: StoredEvent) -> bool:
        """Whether spectators may see this event of the log now."""
        last = self.horizon(event.stream_id)
        return last is None or event.version <= last

    # -- what is released ---------------------------------------------------------------------------------
    def _horizon(
        self, stream_id: StreamId, delay: SpectatorDelay | None = None, length: int | None = None
    ) -> tuple[int, int] | None:
        if stream_id not in self._horizons:
            delay = self.everything.spectator_delay(stream_id) if delay is None else delay
            if not delay.events and not delay.seconds:
                self._horizons[stream_id] = None
            elif delay.seconds:
                recorded = [e.recorded_at for e in self.everything.read_stream(stream_id)]
                self._horizons[stream_id] = (max(1, released(recorded, delay)), len(recorded))
            else:  # by events alone: the stream's length is enough
                length = self.everything.stream_version(stream_id) if length is None else length
                self._horizons[stream_id] = (max(1, length - delay.events), length)
        return self._horizons[stream_id]

    def horizon(self, stream_id: StreamId) -> int | None:
        """The last step spectators may see of the game on `stream_id` (None: it has no delay, or it is not
        a game's)."""
        known = self._horizon(stream_id)
        return None if known is None else known[0]

    def release(self, club_id: str, game_id: str, record: GameRecord | None = None) -> Release | None:
        """The club's game as released, or None when nothing of it is held back (`record`: its listing, when
        the caller has it)."""
        if record is None:
            record = self.everything.get_game(club_id, game_id)
            if record is None:
                return None
        stream_id = record.stream_id
        if stream_id not in self._releases:
            known = self._horizon(stream_id)
            found = None
            if known is not None and known[0] < known[1]:
                outcome = self._outcome(record, known[0])
                listing = msgspec.structs.replace(
                    record, version=known[0], finished=outcome.finished, finished_at=outcome.finished_at
                )
                found = Release(record=listing, outcome=outcome)
            self._releases[stream_id] = found
        return self._releases[stream_id]

    def _outcome(self, record: GameRecord, step: int) -> Outcome:
        """The outcome of the game stopped at `step`, as the projector works it out (the public's result),
        finished when the step finished it. A record only grows, so it is remembered by stream and step."""
        known = _OUTCOMES.get((record.stream_id, step))
        if known is not None:
            return known
        events = self.everything.read_stream(record.stream_id, limit=step)
        result = _UNPLAYED
        if record.ruleset in self.rulesets:
            ruleset = self.rulesets.get(record.ruleset)
            dec = decoder(ruleset)
            folded: Folded = start(ruleset, dec.decode(events[0].data), version=events[0].version)
            for event in events[1:]:
                folded = folded.apply(dec.decode(event.data), event.version)
            result = ruleset.result(folded.state, Viewer.public())
        at = events[-1].recorded_at if result.finished else None
        outcome = Outcome(finished=result.finished, finished_at=at, result=result)
        _OUTCOMES.put((record.stream_id, step), outcome)
        return outcome

    def held(self, club_id: str) -> dict[str, Release]:
        """The club's games held back now, by game id."""
        if club_id not in self._held:
            held = {}
            for game_id, (stream_id, delay, length) in self.everything.spectator_delays(club_id).items():
                self._horizon(stream_id, delay, length)
                found = self.release(club_id, game_id)
                if found is not None:
                    held[game_id] = found
            self._held[club_id] = held
        return self._held[club_id]

    # -- the record -----------------------------------------------------------------------------------------
    def read_stream(
        self, stream_id: StreamId, *, after_version: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        last = self.horizon(stream_id)
        if last is None:
            return self.everything.read_stream(stream_id, after_version=after_version, limit=limit)
        left = last - after_version
        if left <= 0:
            return []
        return self.everything.read_stream(
            stream_id, after_version=after_version, limit=left if limit is None else min(limit, left)
        )

    def stream_version(self, stream_id: StreamId) -> int:
        last = self.horizon(stream_id)
        length = self.everything.stream_version(stream_id)
        return length if last is None else min(last, length)

    def snapshots(self, stream_id: StreamId, *, up_to: int | None = None) -> list[SnapshotRow]:
        last = self.horizon(stream_id)
        return self.everything.snapshots(stream_id, up_to=up_to if last is None else min(last, up_to or last))

    def result_changes(self, stream_id: StreamId) -> list[ResultChange]:
        last = self.horizon(stream_id)
        return [c for c in self.everything.result_changes(stream_id) if last is None or c.version <= last]

    # -- listings -------------------------------------------------------------------------------------------
    def get_game(self, club_id: str, game_id: str) -> GameRecord | None:
        record = self.everything.get_game(club_id, game_id)
        if record is None:
            return None
        found = self.release(club_id, game_id, record)
        return record if found is None else found.record

    def list_games(self, club_id: str, where: GameFilter) -> list[GameRecord]:
        """The listing with held-back games as released; filtered on `finished` as released, paged exactly:
        the store's page is widened by as many games as are held back, the most that can leave it."""
        held = self.held(club_id)
        if not held:
            return self.everything.list_games(club_id, where)
        if where.finished is None:
            return [self._listed(club_id, g) for g in self.everything.list_games(club_id, where)]
        wide = msgspec.structs.replace(where, offset=0, limit=where.offset + where.limit + len(held))
        kept = [g for g in self.everything.list_games(club_id, wide) if g.game_id not in held]
        joining = [r.record for r in held.values() if r.record.finished == where.finished and _selects(where, r.record)]
        listed = sorted([*kept, *joining], key=lambda g: (-g.created_at.timestamp(), g.game_id))
        return listed[where.offset : where.offset + where.limit]

    def _listed(self, club_id: str, record: GameRecord) -> GameRecord:
        found = self.held(club_id).get(record.game_id)
        return record if found is None else found.record

    # -- read models --------------------------------------------------------------------------------------------
    def game_summaries(self, club_id: str, game_ids: Sequence[str]) -> dict[str, GameSummary]:
        summaries = self.everything.game_summaries(club_id, game_ids)
        held = self.held(club_id)
        return {g: _as_released(s, held.get(g)) for g, s in summaries.items()}

    def finished_summaries(self, club_id: str, ruleset: str) -> list[GameSummary]:
        held = {g: r for g, r in self.held(club_id).items() if r.record.ruleset == ruleset}
        if not held:
            return self.everything.finished_summaries(club_id, ruleset)
        kept = [s for s in self.everything.finished_summaries(club_id, ruleset) if s.game_id not in held]
        now = self.everything.game_summaries(club_id, sorted(held))
        return kept + [_as_released(s, held[g]) for g, s in now.items() if held[g].outcome.finished]

    def _rated_again(self, club_id: str, ruleset: str) -> tuple[dict[str, PlayerRating], list[tuple[str, RatingPoint]]]:
        return rate_all(rated(s) for s in self.finished_summaries(club_id, ruleset))

    def _holds(self, club_id: str, ruleset: str) -> bool:
        return any(r.record.ruleset == ruleset for r in self.held(club_id).values())

    def player_ratings(self, club_id: str, ruleset: str) -> dict[str, PlayerRating]:
        """The stored ratings, or, while a game of the ruleset is held back, the games released rated again."""
        if not self._holds(club_id, ruleset):
            return self.everything.player_ratings(club_id, ruleset)
        return self._rated_again(club_id, ruleset)[0]

    def rating_history(self, club_id: str, ruleset: str, player_id: str) -> list[RatingPoint]:
        if not self._holds(club_id, ruleset):
            return self.everything.rating_history(club_id, ruleset, player_id)
        return [point for who, point in self._rated_again(club_id, ruleset)[1] if who == player_id]


def _as_released(summary: GameSummary, found: Release | None) -> GameSummary:
    if found is None:
        return summary
    return msgspec.structs.replace(summary, version=found.record.version, outcome=found.outcome)


def _selects(where: GameFilter, record: GameRecord) -> bool:
    """Whether the store's filter `where` selects `record`, `finished` and paging aside (as `game_filter_sql`)."""
    return (
        (where.ruleset is None or record.ruleset == where.ruleset)
        and (where.player_id is None or where.player_id in record.player_ids)
        and (where.created_from is None or record.created_at >= where.created_from)
        and (where.created_to is None or record.created_at < where.created_to)
    )


class ReleasedFolds(Recent[StreamId, Folded]):
    """The process's remembered folds, for the games without a spectator delay: a delayed game is folded
    to its released step for each request, and that fold is never remembered."""

    def __init__(self, shared: Recent[StreamId, Folded], store: ReleasedStore) -> None:
        super().__init__(1)
        self.shared, self._store = shared, store

    def get(self, key: StreamId) -> Folded | None:
        return self.shared.get(key) if self._store.horizon(key) is None else None

    def put(self, key: StreamId, value: Folded) -> None:
        if self._store.horizon(key) is None:
            self.shared.put(key, value)
