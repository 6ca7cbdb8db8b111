"""The projector: runners that follow the global event log and keep the read models up to date.

Each projection has a name, the read-model tables it owns and a `handle(events)` that turns a batch
of stored events into rows to write (`service.store.readmodels`). A `Runner` reads the batch after the
projection's checkpoint (`store.read_all`), computes the rows outside any transaction (folding is
the slow part; PostgreSQL readers wait for open transactions, so they are kept short), then writes
the rows and moves the checkpoint in one transaction that succeeds only if the checkpoint has not
moved meanwhile. So each event takes effect exactly once, across restarts, crashes and rival
runners.

Only one runner runs a projection at a time: it holds a lease row (renewed well before it runs out,
taken over by another runner once it has run out: a killed runner is replaced after
`lease_seconds`). The lease saves work; the checkpoint's compare-and-set is what keeps it correct.

Runners run in a background thread of `tablelog serve` (setting `run_projector`) or in their own
process (`tablelog project`); `tablelog rebuild NAME` starts a projection again from zero.
"""

from __future__ import annotations

import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Protocol

import msgspec

from domain.record import Correction, Folded, GameStarted, decoder, start
from domain.registry import Rulesets, UnknownRuleset
from domain.ruleset import Viewer
from projections.errors import ProjectionError
from projections.replay import Snapshot, encode_snapshot, snapshot
from service.cache import Recent
from service.logs import get_logger
from service.store.base import (
    EventRecorder,
    GameSummary,
    Outcome,
    Projections,
    ReadModelWrite,
    ResultChange,
    SnapshotRow,
    Store,
    StoredEvent,
    StreamId,
    stream_game,
)
from service.usecases.ratings import Ratings

CORRECTION = Correction.__struct_config__.tag
GAME_STARTED = GameStarted.__struct_config__.tag


class ProjectionLog(EventRecorder, Projections, Protocol):
    """What running a projection needs of the store: the event log, and the projections' checkpoints
    and leases (the rows it writes come from the projection)."""


class Projection(Protocol):
    """A read model kept from the event log."""

    name: str
    tables: tuple[str, ...]
    """The read-model tables it alone writes (emptied by a rebuild)."""

    def handle(self, events: Sequence[StoredEvent]) -> list[ReadModelWrite]:
        """The rows a batch of events (in global order) writes."""
        ...


class GameFold:
    """A game folded up to an event, with what the summaries need besides the state. Mutable: it is
    advanced in place, event after event (the cheap path; a stream never changes, so a fold at
    version v is right whatever the checkpoint)."""

    __slots__ = ("club_id", "decode", "finished", "finished_at", "folded", "last_recorded", "started_at")

    def __init__(self, folded: Folded, club_id: str, recorded_at: datetime) -> None:
        self.folded = folded
        self.decode = decoder(folded.ruleset).decode
        self.club_id = club_id
        self.started_at = recorded_at
        self.last_recorded = recorded_at
        # As of the last `outcome` (results are computed per batch and at corrections, not per event).
        self.finished = False
        self.finished_at: datetime | None = None

    def outcome(self) -> Outcome:
        """The game's outcome now. It became finished when its last event was recorded: the rules refuse
        events after the end (G-1), so that event ended it; a correction that reopens it clears that."""
        # Standings and ratings are public: the result as the public knows it (G-2).
        result = self.folded.result(Viewer.public())
        if result.finished != self.finished:
            self.finished = result.finished
            self.finished_at = self.last_recorded if result.finished else None
        return Outcome(finished=self.finished, finished_at=self.finished_at, result=result)


class GameFolds:
    """Games folded event by event, the latest `size` kept; on a miss a game is folded again from its
    stream. Games of a ruleset not in `rulesets` are skipped."""

    def __init__(self, store: EventRecorder, rulesets: Rulesets, *, size: int = 256) -> None:
        self.store = store
        self.rulesets = rulesets
        self._folds: Recent[str, GameFold] = Recent(size)
        self._unknown: set[str] = set()

    def before(self, event: StoredEvent) -> GameFold | None:
        """The game's fold just before `event` (None before the first event, or for a game of a
        ruleset not served here)."""
        fold = self._folds.get(event.stream_id)
        if fold is not None and fold.folded.version == event.version - 1:
            return fold
        if event.version == 1 or event.stream_id in self._unknown:
            return None
        for stored in self.store.read_stream(event.stream_id, limit=event.version - 1):
            fold = self.apply(None if stored.version == 1 else fold, stored)
            if fold is None:
                return None
        return fold

    def apply(self, fold: GameFold | None, event: StoredEvent) -> GameFold | None:
        """`fold` advanced by `event` (a new fold for a game's first event); None when the game's ruleset
        is not served here: its events are skipped, and counted by a rebuild once it is."""
        if fold is None:
            if event.version != 1 or event.stream_id in self._unknown:
                return None
            if event.type != GAME_STARTED:  # not a game (a tournament's stream): no game read models
                self._unknown.add(event.stream_id)
                return None
            started = msgspec.json.decode(event.data, type=GameStarted)
            try:
                ruleset = self.rulesets.get(started.ruleset)
            except UnknownRuleset:
                self._unknown.add(event.stream_id)
                get_logger().warning("projector.unknown_ruleset", game_id=event.stream_id, ruleset=started.ruleset)
                return None
            fold = GameFold(start(ruleset, started, version=event.version), event.club_id, event.recorded_at)
        else:
            fold.folded = fold.folded.apply(fold.decode(event.data), event.version)
            fold.last_recorded = event.recorded_at
        self._folds.put(event.stream_id, fold)
        return fold


class Games:
    """The read models of every game, from one fold of its events: the summary (version, finished and
    when, players, result), what each correction of a finished game's outcome changed, a replay
    snapshot after every `snapshot_every` events, and the club ratings the finished games give
    (`service.usecases.ratings`). One projection, so each event is folded once."""

    name = "games"
    tables: tuple[str, ...] = (
        "game_summaries",
        "game_result_changes",
        "replay_snapshots",
        "player_ratings",
        "rating_history",
    )

    def __init__(self, store: Store, rulesets: Rulesets, *, snapshot_every: int = 100) -> None:
        self.every = snapshot_every
        self.folds = GameFolds(store, rulesets)
        self.ratings = Ratings(store)

    def handle(self, events: Sequence[StoredEvent]) -> list[ReadModelWrite]:
        # By stream: unique across clubs (a game id is its club's own).
        latest: dict[StreamId, GameFold] = {}
        applied: dict[StreamId, int] = {}
        was_finished: dict[StreamId, bool] = {}
        writes: list[ReadModelWrite] = []
        for event in events:
            fold = self.folds.before(event)
            was_finished.setdefault(event.stream_id, fold is not None and fold.finished)
            old = fold.outcome() if fold is not None and event.type == CORRECTION else None
            fold = self.folds.apply(fold, event)
            if fold is None:
                continue
            if old is not None:
                new = fold.outcome()
                if (old.finished or new.finished) and old != new:
                    writes.append(ResultChange(stream_id=event.stream_id, version=event.version, before=old, after=new))
            if event.version % self.every == 0:
                writes.extend(self._snapshot(event.stream_id, fold))
            latest[event.stream_id] = fold
            applied[event.stream_id] = applied.get(event.stream_id, 0) + 1
        summaries: dict[StreamId, GameSummary] = {}
        for stream_id, fold in latest.items():
            folded = fold.folded
            summaries[stream_id] = GameSummary(
                game_id=stream_game(stream_id),
                club_id=fold.club_id,
                ruleset=folded.ruleset.name,
                ruleset_version=folded.ruleset.version,
                version=folded.version,
                applied=applied[stream_id],
                started_at=fold.started_at,
                players=folded.setup.players,
                outcome=fold.outcome(),
            )
        writes.extend(summaries.values())
        changes = [w for w in writes if isinstance(w, ResultChange)]
        corrected = {change.stream_id for change in changes}
        finished = [
            s for g, s in summaries.items() if s.outcome.finished and not was_finished[g] and g not in corrected
        ]
        writes.extend(self.ratings.writes(finished, changes, summaries))
        return writes

    @staticmethod
    def _snapshot(stream_id: StreamId, fold: GameFold) -> list[ReadModelWrite]:
        try:
            return [snapshot_row(stream_id, snapshot(fold.folded))]
        except ProjectionError as error:
            # A ruleset whose state does not survive its encoding gets no snapshots (its replays fold
            # from the start) rather than stalling the projection behind it.
            get_logger().warning(
                "projector.snapshot_skipped", stream_id=stream_id, code=error.code, ruleset=fold.folded.ruleset.name
            )
            return []


def snapshot_row(stream_id: StreamId, snap: Snapshot) -> SnapshotRow:
    """A replay snapshot as a stored row."""
    return SnapshotRow(
        stream_id=stream_id, version=snap.version, ruleset_version=snap.ruleset_version, data=encode_snapshot(snap)
    )


def projections(store: Store, rulesets: Rulesets, *, snapshot_every: int = 100) -> list[Projection]:
    """Every projection the service keeps, of the games in `rulesets`."""
    return [Games(store, rulesets, snapshot_every=snapshot_every)]


PROJECTION_NAMES = (Games.name,)


def owner_id() -> str:
    """A name for this runner that no other process shares."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class Runner:
    """Runs one projection: batch after batch from its checkpoint, while it holds the lease."""

    def __init__(
        self,
        store: ProjectionLog,
        projection: Projection,
        *,
        owner: str | None = None,
        batch: int = 500,
        lease_seconds: float = 15.0,
    ) -> None:
        self.store = store
        self.projection = projection
        self.owner = owner or owner_id()
        self.batch = batch
        self.lease_seconds = lease_seconds
        self._lease_until = 0.0
        # The checkpoint this runner last moved, so a busy runner need not read it again: if another
        # runner (or a rebuild) moved it meanwhile, the commit fails and it is read afresh.
        self._checkpoint: int | None = None

    @property
    def name(self) -> str:
        return self.projection.name

    def holds_lease(self) -> bool:
        """Take or renew the lease when less than half of it is left."""
        now = time.monotonic()
        if now < self._lease_until - self.lease_seconds / 2:
            return True
        if self.store.acquire_lease(self.name, self.owner, self.lease_seconds):
            self._lease_until = now + self.lease_seconds
            return True
        self._lease_until = 0.0
        return False

    def step(self) -> int | None:
        """Apply one batch. Returns how many events this runner applied (0 when caught up or when
        another runner moved the checkpoint first), None when another runner holds the lease."""
        if not self.holds_lease():
            return None
        checkpoint = self._checkpoint if self._checkpoint is not None else self.store.checkpoint(self.name)
        events = self.store.read_all(after=checkpoint, limit=self.batch)
        # Idle, the checkpoint is read every time, so a rebuild's reset is noticed even with no new event.
        self._checkpoint = None
        if not events:
            return 0
        writes = self.projection.handle(events)
        if not self.store.commit_projection(self.name, checkpoint, events[-1].position, writes):
            get_logger().info("projector.checkpoint_moved", projection=self.name, expected=checkpoint)
            return 0
        self._checkpoint = events[-1].position
        return len(events)

    def release(self) -> None:
        """Give the lease up."""
        if self._lease_until:
            self.store.release_lease(self.name, self.owner)
            self._lease_until = 0.0


def run(
    runners: Sequence[Runner],
    stop: threading.Event,
    *,
    poll_seconds: float = 0.5,
    on_batch: Callable[[Runner, int], Any] | None = None,
    lag_warn_seconds: float | None = None,
) -> None:
    """Run the runners until `stop` is set, sleeping `poll_seconds` when none had work. A batch that
    fails is logged and retried after a pause (the checkpoint did not move). Past `lag_warn_seconds`
    behind the record, a projection is warned about in the logs."""
    log = get_logger()
    watch = (
        LagWatch(runners[0].store, [r.name for r in runners], warn_seconds=lag_warn_seconds)
        if runners and lag_warn_seconds is not None
        else None
    )
    try:
        while not stop.is_set():
            if watch is not None:
                try:
                    watch.look()
                except Exception as error:  # a look that fails must not stop the projector
                    log.warning("projector.lag_unknown", error_type=type(error).__name__)
            busy = False
            for runner in runners:
                try:
                    applied = runner.step()
                except Exception as error:  # keep the server up: log, back off, retry the same batch
                    log.exception("projector.failed", projection=runner.name, error_type=type(error).__name__)
                    stop.wait(max(poll_seconds, 1.0) * 5)
                    continue
                if applied:
                    busy = True
                    if on_batch is not None:
                        on_batch(runner, applied)
            if not busy:
                stop.wait(poll_seconds)
    finally:
        for runner in runners:
            try:
                runner.release()
            except Exception:  # the database may be gone at shutdown; the lease then runs out
                log.warning("projector.release_failed", projection=runner.name)


class ProjectorThread:
    """The projector inside `tablelog serve`: a daemon thread started and stopped with the app."""

    def __init__(
        self, runners: Sequence[Runner], *, poll_seconds: float = 0.5, lag_warn_seconds: float | None = None
    ) -> None:
        self.runners = list(runners)
        self.poll_seconds = poll_seconds
        self.lag_warn_seconds = lag_warn_seconds
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tablelog-projector", daemon=True)

    def _run(self) -> None:
        run(self.runners, self._stop, poll_seconds=self.poll_seconds, lag_warn_seconds=self.lag_warn_seconds)

    def start(self) -> None:
        self._thread.start()
        get_logger().info("projector.started", projections=[r.name for r in self.runners])

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self._thread.join(timeout)


class Lag(msgspec.Struct, frozen=True, kw_only=True):
    """How far a projection is behind the record: its checkpoint, the events recorded after it that it
    has not applied (`lag`), and how long ago the oldest of them was recorded (`lag_seconds`, 0 when
    caught up). On PostgreSQL these count events a reader cannot see yet: a transaction left open
    elsewhere on the server holds the read gate, and so the projector, back."""

    checkpoint: int
    lag: int
    lag_seconds: float


def lags(store: ProjectionLog, names: Sequence[str]) -> dict[str, Lag]:
    """Each projection's lag behind the record."""
    checkpoints = store.checkpoints()
    out = {}
    for name in names:
        checkpoint = checkpoints.get(name, 0)
        count, oldest = store.unprojected(after=checkpoint)
        seconds = max(0.0, time.time() - oldest.timestamp()) if oldest is not None else 0.0
        out[name] = Lag(checkpoint=checkpoint, lag=count, lag_seconds=round(seconds, 3))
    return out


class LagWatch:
    """Warns in the logs (`projector.lagging`) while a projection is more than `warn_seconds` behind,
    looking at most every `every` seconds (a look is two indexed queries)."""

    def __init__(self, store: ProjectionLog, names: Sequence[str], *, warn_seconds: float, every: float = 10.0) -> None:
        self.store = store
        self.names = list(names)
        self.warn_seconds = warn_seconds
        self.every = every
        self._next = 0.0

    def look(self) -> dict[str, Lag]:
        """The projections past the threshold now (each logged), or nothing when it is not time to look."""
        now = time.monotonic()
        if now < self._next:
            return {}
        self._next = now + self.every
        late = {name: lag for name, lag in lags(self.store, self.names).items() if lag.lag_seconds > self.warn_seconds}
        for name, lag in late.items():
            get_logger().warning(
                "projector.lagging",
                projection=name,
                checkpoint=lag.checkpoint,
                lag_events=lag.lag,
                lag_seconds=lag.lag_seconds,
                threshold=self.warn_seconds,
            )
        return late


def rebuild(
    store: ProjectionLog,
    projection: Projection,
    *,
    owner: str | None = None,
    batch: int = 2000,
    lease_seconds: float = 15.0,
    progress: Callable[[int, int], Any] | None = None,
    poll_seconds: float = 0.2,
) -> int:
    """Start a projection again from zero: empty its tables and checkpoint in one transaction, then
    apply every event, calling `progress(done, total)` as it goes. When another runner holds the lease
    (a running server), that runner does the work after the reset, and this waits for it. Returns the
    checkpoint reached."""
    total = store.count_events()
    store.reset_projection(projection.name, projection.tables)
    runner = Runner(store, projection, owner=owner, batch=batch, lease_seconds=lease_seconds)
    done = 0
    try:
        while True:
            applied = runner.step()
            if applied:
                done += applied
                if progress is not None:
                    progress(min(done, total), total)
                continue
            checkpoint = store.checkpoint(projection.name)
            if applied is None:
                # Another runner does the work: count what it has done (a query, so only while waiting).
                done = total - store.count_events(after=checkpoint)
                if progress is not None:
                    progress(min(done, total), total)
            if checkpoint >= store.head_position():
                if progress is not None:
                    progress(total, total)
                return checkpoint
            if applied is None:
                time.sleep(poll_seconds)
    finally:
        runner.release()
