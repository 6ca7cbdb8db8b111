"""Game records: creating games, appending checked events, reading state. Generic over rulesets.

Every event of a batch is decoded with the ruleset's union and checked against the state it would
follow before anything is written (G-1); the batch is then appended atomically at the version the
state was folded from, so a concurrent writer turns into a conflict, never a lost or doubled event.
"""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Callable, Hashable, Iterator, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any, Protocol, Self, TypeVar

import msgspec

from domain.record import (
    Folded,
    GameStarted,
    ResultReported,
    decoder,
    event_tag,
    event_union,
    schema_version,
    start,
)
from domain.registry import Rulesets
from domain.ruleset import (
    Player,
    ReportedResult,
    ResourceError,
    ResourceRef,
    Result,
    RuleError,
    Ruleset,
    Setup,
    Viewer,
)
from service.cache import Recent
from service.limits import Count, Id, Limits, check_id
from service.logs import bind
from service.store.async_events import AsyncEvents, Blocking, HotStore, InThreads, Lane, blocking
from service.store.base import (
    CHAIN_START,
    LINK_V2,
    MAX_BATCH,
    AlreadyExists,
    AppendRequest,
    AppendResult,
    ClubRecords,
    EventRecorder,
    GameFilter,
    GameProgress,
    GameRecord,
    Linked,
    NewEvent,
    PlayerRecords,
    Recorder,
    Resource,
    Store,
    StoredEvent,
    StreamId,
    VersionConflict,
    chain_hash,
    chained,
    content_hash,
    game_stream,
    link,
    request_fingerprint,
    stored_link,
)
from service.usecases.names import told_apart

if TYPE_CHECKING:  # psycopg's pools, imported only where replicas are set
    from service.store.replicas import ReplicaSet

T = TypeVar("T")

LOOP_BATCH = 16
"""Batches up to this many events are checked on the event loop; larger ones in a worker thread."""
LOOP_FOLD = 64
"""Up to this many new events are folded onto a remembered fold on the event loop."""
HEAVY_THREADS = 2
"""At most this many worker threads per process compute folds and check large batches at once."""
SWITCH_INTERVAL = 0.001
"""How long a heavy thread may hold the GIL while the event loop's thread waits for it (Python's default:
5 ms, paid at each of the loop's wake-ups while heavy threads compute)."""


_HEAVY = Lane(HEAVY_THREADS, "tablelog-heavy")


async def heavy(work: Callable[[], T]) -> T:
    """Run CPU-bound `work` (folds, checking large batches) in a worker thread, at most `HEAVY_THREADS` at
    once per process. They hold the GIL while they compute: with one thread per waiting request (32 writers
    of 500-event batches) the event loop waited its turn behind all of them, and `/health` with it (bench/)."""
    return await _HEAVY.run(work)


class _Io(Protocol):
    """Where a use case's store calls and CPU-bound work go. Each use case is written once, as a coroutine
    on this: run blocking in place (`_InPlace`, through `blocking`) or awaited on the event loop (`_OnLoop`)."""

    events: AsyncEvents

    async def cpu(self, work: Callable[[], T]) -> T: ...


class _InPlace:
    """The blocking callers (the CLI, the pages, worker threads): the store called in this thread, the
    CPU-bound work done here."""

    def __init__(self, store: HotStore) -> None:
        self.events: AsyncEvents = Blocking(store)

    async def cpu(self, work: Callable[[], T]) -> T:
        return work()


class _OnLoop:
    """The HTTP hot path: the store awaited (psycopg's async pool, or `InThreads`), the CPU-bound work (a
    first fold, a large batch) in a worker thread (`heavy`)."""

    def __init__(self, events: AsyncEvents) -> None:
        self.events = events

    async def cpu(self, work: Callable[[], T]) -> T:
        return await heavy(work)


async def _cpu(io: _Io, work: Callable[[], T], large: bool) -> T:
    """Do `work` here when it is small, else where `io` does CPU-bound work."""
    return await io.cpu(work) if large else work()


class NotFound(Exception):
    """A resource that does not exist (or belongs to another club)."""

    def __init__(self, what: str, ident: str) -> None:
        super().__init__(f"No {what} {ident!r}.")
        self.what = what
        self.ident = ident


class BadEvent(Exception):
    """An event in a batch that does not decode: the batch index, the field and what is wrong."""

    def __init__(self, index: int, field: str | None, message: str) -> None:
        super().__init__(message)
        self.index = index
        self.field = field
        self.message = message


class BatchRuleError(Exception):
    """An event of a batch refused by the rules; nothing of the batch was stored."""

    def __init__(self, index: int, event_type: str, error: RuleError, ruleset: str | None = None) -> None:
        super().__init__(str(error))
        self.index = index
        self.event_type = event_type
        self.error = error
        self.ruleset = ruleset


class NoSuchSeat(Exception):
    """A seat asked for (a view, the legal events) that is not at the game's table."""

    def __init__(self, seat: int, seats: int) -> None:
        super().__init__(f"Seat {seat} is not at this table: its seats are 0 to {seats - 1}.")
        self.seat = seat
        self.seats = seats


class SetupError(Exception):
    """A game that cannot be created as asked (unknown player, resource...)."""

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


_PATH = re.compile(r" - at `\$(?P<path>[^`]*)`$")


def _bad_event(index: int, error: msgspec.DecodeError) -> BadEvent:
    text = str(error)
    match = _PATH.search(text)
    field = match.group("path").lstrip(".") if match else None
    message = _PATH.sub("", text)
    if "Invalid value" in message and "type" in message and not field:
        field = "type"
    return BadEvent(index, field or None, message)


class SeatSpec(msgspec.Struct, frozen=True, kw_only=True):
    """A club player taking a seat (seats default to the order given)."""

    player_id: Id
    seat: Count | None = None
    team: Count | None = None


class ResourceChoice(msgspec.Struct, frozen=True, kw_only=True):
    resource_id: Id
    version: Count | None = None


class NewGame(msgspec.Struct, frozen=True, kw_only=True):
    ruleset: str
    players: list[SeatSpec]
    variant: str = "standard"
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    resources: dict[str, ResourceChoice] = msgspec.field(default_factory=dict)
    game_id: Id | None = None
    title: str = ""
    result: ReportedResult | None = None
    """A game played at the table but not recorded event by event: its result, reported with the game
    (G-6), checked by the game's rules; the game takes no other event."""


class GameStore(EventRecorder, ClubRecords, PlayerRecords, Protocol):
    """The store's parts the game records use: the event log, and the club's listings, players and files."""


class GameRecords:
    """The use cases the API and the CLI share, over the games in `rulesets` (a game of another ruleset
    is an UnknownRuleset)."""

    def __init__(
        self,
        store: GameStore,
        rulesets: Rulesets,
        *,
        cache_size: int = 512,
        limits: Limits | None = None,
        loop_store: AsyncEvents | None = None,
    ) -> None:
        self._store = store
        self.rulesets = rulesets
        self._here: _Io = _InPlace(store)
        self._loop: _Io = _OnLoop(loop_store if loop_store is not None else InThreads(store))
        self.limits = limits or Limits.of()
        self._folds: Recent[StreamId, Folded] = Recent(cache_size)
        """Folds by stream (unique across clubs, as game ids are not)."""
        self._current: Recent[StreamId, tuple[Hashable, int]] = Recent(cache_size)
        """For each stream, the store's change token under which its remembered fold was last known current,
        and that fold's version: a read that finds the token unchanged reads nothing (`_folded`)."""
        self._identities: Recent[tuple[str, str], GameRecord] = Recent(cache_size)
        self._links: Recent[StreamId, tuple[int, str]] = Recent(cache_size)
        """Each game's last known version and chain link, so an append need not read it back."""
        self.appended: Callable[[str, int], None] | None = None
        """Told each append of this process, after its commit (live streams follow it: `service.notify`)."""

    def _reading_from(self, store: GameStore, folds: Recent[StreamId, Folded] | None) -> Self:
        """These records reading through another store, sharing the remembered folds and identities (see
        `Records.reading_from`)."""
        if store is self._store and folds is None:
            return self
        other = copy.copy(self)
        other._store = store
        if folds is not None:
            other._folds = folds
        other._here = _InPlace(store)
        other._loop = _OnLoop(InThreads(store))
        # Another store's reads (a replica's, the events a spectator delay has released) are not the
        # database's whole state: what they knew current says nothing of this one's, nor the reverse.
        other._current = Recent(self._current.size)
        return other

    def list_games(self, club_id: str, where: GameFilter) -> list[GameRecord]:
        """The club's games that `where` selects, newest first."""
        return self._store.list_games(club_id, where)

    @property
    def folds(self) -> Recent[StreamId, Folded]:
        """The folds this process remembers, by stream."""
        return self._folds

    @property
    def loop_store(self) -> AsyncEvents:
        """The same store as the event loop awaits it (the `_async` use cases)."""
        return self._loop.events

    @loop_store.setter
    def loop_store(self, events: AsyncEvents) -> None:
        self._loop = _OnLoop(events)

    # -- games ----------------------------------------------------------------------------------
    def game(self, club_id: str, game_id: str) -> GameRecord:
        """A game of the club, or NotFound (whether or not another club has a game of that id)."""
        record = blocking(self._game(self._here, club_id, game_id))
        # Its identity remembered as `_owned` remembers it: the recording page's first tap reads no listing.
        self._identities.put((club_id, game_id), record)
        return record

    def set_title(self, club_id: str, game_id: str, title: str) -> GameRecord:
        """Give a game a new title: its listing's (what menus show), never its record's events."""
        changed = self._store.set_game_title(club_id, game_id, title)
        if changed is None:
            raise NotFound("game", game_id)
        return changed

    async def game_async(self, club_id: str, game_id: str) -> GameRecord:
        return await self._game(self._loop, club_id, game_id)

    @staticmethod
    async def _game(io: _Io, club_id: str, game_id: str) -> GameRecord:
        record = await io.events.get_game(club_id, game_id)
        if record is None:
            raise NotFound("game", game_id)
        return record

    async def _owned(self, io: _Io, club_id: str, game_id: str) -> GameRecord:
        """Like `game`, for callers that need only what never changes (club, ruleset): remembered, so
        appends and reads skip a round trip. Its version and finished flag may be stale."""
        known = self._identities.get((club_id, game_id))
        if known is None:
            known = await self._game(io, club_id, game_id)
            self._identities.put((club_id, game_id), known)
        return known

    def stream(self, club_id: str, game_id: str) -> StreamId:
        """The stream holding the events of the club's game (NotFound as `game`)."""
        return blocking(self._owned(self._here, club_id, game_id)).stream_id

    async def stream_async(self, club_id: str, game_id: str) -> StreamId:
        return (await self._owned(self._loop, club_id, game_id)).stream_id

    def resolve_resource(self, club_id: str, ruleset: Ruleset, kind: str, choice: ResourceChoice) -> ResourceRef:
        """The club's resource of that id (a given or the latest version), else one the project ships."""
        if kind not in ruleset.resource_kinds:
            raise SetupError(f"{ruleset.name} reads no {kind!r} resource.", kind=kind)
        stored = self._store.get_resource(club_id, ruleset.name, kind, choice.resource_id, choice.version)
        if stored is not None:
            return ResourceRef(
                kind=kind,
                resource_id=stored.resource_id,
                version=stored.version,
                content_hash=stored.content_hash,
                content=stored.content,
            )
        shipped = ruleset.resource_kinds[kind].builtin().get(choice.resource_id)
        if shipped is None or choice.version not in (None, 0):
            raise SetupError(
                f"No {kind} {choice.resource_id!r} for {ruleset.name}.", kind=kind, resource_id=choice.resource_id
            )
        content = ruleset.resource_kinds[kind].parse(shipped)
        return ResourceRef(
            kind=kind, resource_id=choice.resource_id, version=0, content_hash=content_hash(content), content=content
        )

    def check_game(self, club_id: str, request: NewGame) -> None:
        """What `create_game` checks of a game (its players, set-up and any reported result), recording
        nothing: a player's report of a tournament table is checked so before it waits for the other's."""
        self._started(club_id, request)

    def _started(
        self, club_id: str, request: NewGame
    ) -> tuple[Ruleset, tuple[Player, ...], GameStarted, list[ResultReported], Folded]:
        """The game's first events, checked by its rules: (ruleset, players, start, reported result, fold)."""
        ruleset = self.rulesets.get(request.ruleset)
        players_by_id = {
            p.player_id: p for p in self._store.get_players(club_id, [s.player_id for s in request.players])
        }
        missing = [s.player_id for s in request.players if s.player_id not in players_by_id]
        if missing:
            raise SetupError("Every player must be one of the club's players.", unknown_players=missing)
        if len({s.player_id for s in request.players}) != len(request.players):
            raise SetupError("A player can take only one seat.")
        seats = [s.seat if s.seat is not None else i for i, s in enumerate(request.players)]
        if sorted(seats) != list(range(len(seats))):
            raise SetupError("Seats must be 0 to n-1, each taken once.", seats=seats)
        # Two seats of one name would read alike in every narration and result of the game: each is recorded
        # by the name the club's lists tell them apart by ("Alain (Tuesdays)"); a name no other seat has, as is.
        names = told_apart(list(players_by_id.values()))
        players = tuple(
            sorted(
                (
                    Player(player_id=s.player_id, name=names[s.player_id], seat=seat, team=s.team)
                    for s, seat in zip(request.players, seats, strict=True)
                ),
                key=lambda p: p.seat,
            )
        )
        resources = {
            kind: self.resolve_resource(club_id, ruleset, kind, choice) for kind, choice in request.resources.items()
        }
        setup = Setup(players=players, variant=request.variant, options=request.options, resources=resources)
        started = GameStarted(
            ruleset=ruleset.name, ruleset_version=ruleset.version, setup=setup, result_only=request.result is not None
        )
        reported = [ResultReported(result=request.result)] if request.result is not None else []
        failing: Any = started
        try:
            folded = start(ruleset, started)
            for failing in reported:
                folded = folded.accept(failing)
        except RuleError as error:
            raise BatchRuleError(int(failing is not started), event_tag(failing), error, ruleset.name) from None
        except msgspec.ValidationError as error:  # the options the client sent, read by the ruleset
            raise SetupError(f"The set-up does not fit {ruleset.name}: {error}") from None
        # Any other exception is the ruleset's own mistake, not the client's: a 500, logged as such.
        return ruleset, players, started, reported, folded

    def create_game(self, club_id: str, request: NewGame, recorded_by: Recorder) -> tuple[GameRecord, AppendResult]:
        """Create a game: its first event records the set-up and the ruleset version (G-5)."""
        ruleset, players, started, reported, folded = self._started(club_id, request)
        now = datetime.now(UTC)
        game_id = self._given_id(club_id, ruleset, now, request.game_id)
        record = GameRecord(
            game_id=game_id,
            club_id=club_id,
            ruleset=ruleset.name,
            ruleset_version=ruleset.version,
            player_ids=tuple(p.player_id for p in players),
            created_at=now,
            title=request.title,
            stream_id=game_stream(club_id, game_id),
            result_only=folded.result_only,
            finished=bool(reported),
        )
        first = chained(
            CHAIN_START,
            [_new_event(started), *map(_new_event, reported)],
            club_id=club_id,
            game_id=game_id,
            after_version=0,
            key_id=recorded_by.key_id,
            recorded_at=record.created_at,
        )
        result = self._store.append(
            AppendRequest(
                record.stream_id, first, 0, recorded_by, game=record, progress=GameProgress(finished=bool(reported))
            )
        )
        self._folds.put(record.stream_id, folded)
        self._remember_link(record.stream_id, len(first), first[-1].chain)
        return record, result

    # -- events ---------------------------------------------------------------------------------
    def decode_batch(self, ruleset: Ruleset, raw_events: Sequence[Any], first_index: int = 0) -> list[Any]:
        """Decode a batch (JSON bytes, or objects already parsed) with the ruleset's event union,
        naming the first bad event and field."""
        if not 1 <= len(raw_events) <= MAX_BATCH:
            raise BadEvent(0, "events", f"A batch holds 1 to {MAX_BATCH} events.")
        dec = decoder(ruleset)
        union = event_union(ruleset)
        decoded = []
        for index, raw in enumerate(raw_events, start=first_index):
            try:
                decoded.append(dec.decode(raw) if isinstance(raw, bytes) else msgspec.convert(raw, union))
            except msgspec.DecodeError as error:
                raise _bad_event(index, error) from None
        return decoded

    def append(
        self,
        club_id: str,
        game_id: str,
        raw_events: Sequence[Any],
        expected_version: int,
        recorded_by: Recorder,
        idempotency_key: str | None = None,
    ) -> AppendResult:
        """Check every event, then append the batch atomically at `expected_version`."""
        return blocking(
            self._append(self._here, club_id, game_id, raw_events, expected_version, recorded_by, idempotency_key)
        )

    async def append_async(
        self,
        club_id: str,
        game_id: str,
        raw_events: Sequence[Any],
        expected_version: int,
        recorded_by: Recorder,
        idempotency_key: str | None = None,
    ) -> AppendResult:
        return await self._append(
            self._loop, club_id, game_id, raw_events, expected_version, recorded_by, idempotency_key
        )

    async def _append(
        self,
        io: _Io,
        club_id: str,
        game_id: str,
        raw_events: Sequence[Any],
        expected_version: int,
        recorded_by: Recorder,
        idempotency_key: str | None,
    ) -> AppendResult:
        self.limits.batch(list(raw_events))
        record = await self._owned(io, club_id, game_id)
        ruleset = self.rulesets.get(record.ruleset)
        bind(ruleset=record.ruleset)  # on the request's log line and its metrics (service.http.metrics)
        # An import-sized batch is decoded and checked in a worker thread (on the loop, a scorekeeper's
        # few events cost less than the hop), so it never stalls the other requests.
        large = len(raw_events) > LOOP_BATCH
        events, new_events = await _cpu(io, functools.partial(self._decoded, ruleset, raw_events), large)
        request = AppendRequest(record.stream_id, new_events, expected_version, recorded_by, idempotency_key)
        # The key is looked up only when the append cannot go ahead: the store's append checks it itself
        # (in the same statement on PostgreSQL), so a first append with a key costs no extra statement.
        try:
            return await self._append_at(io, record, ruleset, events, request, large)
        except (VersionConflict, BatchRuleError):
            # A copy of this very append (same key, same body) has been stored already, here or in another
            # worker: every copy gets its first result, never a conflict; another body under the key is
            # told so (IdempotencyMismatch) before what the rules or the version would say of it.
            if idempotency_key:
                fingerprint = request_fingerprint(new_events, expected_version)
                replay = await io.events.replayed_append(record.stream_id, idempotency_key, fingerprint)
                if replay is not None:
                    return replay
            raise

    def _decoded(self, ruleset: Ruleset, raw_events: Sequence[Any]) -> tuple[list[Any], list[NewEvent]]:
        """A batch decoded, and encoded as the store keeps it (each within the limits)."""
        events = self.decode_batch(ruleset, raw_events)
        new_events = [_new_event(e) for e in events]
        for index, new in enumerate(new_events):
            self.limits.event(index, new.data)
        return events, new_events

    async def _append_at(
        self, io: _Io, record: GameRecord, ruleset: Ruleset, events: list[Any], request: AppendRequest, large: bool
    ) -> AppendResult:
        """Check the batch against the game at the version the request expects and append it there."""
        stream_id, expected_version = record.stream_id, request.expected_version
        cached = self._folds.get(stream_id)
        # A fold remembered at the version the writer expects needs no refresh: were the stream ahead
        # (another worker appended), the store's own version check refuses the append as a conflict.
        if cached is not None and cached.version == expected_version:
            folded = cached
        else:
            folded = await self._folded(io, record)
        if folded.version != expected_version:
            raise VersionConflict(stream_id, expected_version, folded.version)
        was_finished = folded.finished
        folded = await _cpu(io, functools.partial(accept_batch, folded, events), large)
        finished = folded.finished
        previous = await self._link_at(io, record, expected_version)
        request = msgspec.structs.replace(
            request,
            events=chained(
                previous,
                request.events,
                club_id=record.club_id,
                game_id=record.game_id,
                after_version=expected_version,
                key_id=request.recorded_by.key_id,
            ),
            # The listing changes only when the game ends (or a correction takes its end back); most
            # appends write their events alone.
            progress=GameProgress(finished=finished) if finished != was_finished else None,
        )
        result = await io.events.append(request)
        if not result.replayed:
            self._folds.put(stream_id, folded)
            self._remember_link(stream_id, result.last_version, request.events[-1].chain)
            if self.appended is not None:
                self.appended(stream_id, result.last_version)
        return result

    async def _link_at(self, io: _Io, record: GameRecord, version: int) -> str:
        """The chain link of the game's event `version` (remembered, stored, or computed for events
        recorded before links were kept)."""
        if version == 0:
            return CHAIN_START
        known = self._links.get(record.stream_id)
        if known is not None and known[0] == version:
            return known[1]
        stored = await io.events.read_stream(record.stream_id, after_version=version - 1, limit=1)
        if stored and stored[0].chain is not None:
            return stored[0].chain
        return links_of(await io.events.read_stream(record.stream_id, limit=version))[-1]

    def _remember_link(self, stream_id: StreamId, version: int, link: str | None) -> None:
        if link is not None:
            self._links.put(stream_id, (version, link))

    def import_stream(
        self,
        club_id: str,
        lines: Sequence[bytes],
        recorded_by: Recorder,
        game_id: str | None = None,
        *,
        accept_unchained: bool = False,
    ) -> tuple[GameRecord, AppendResult]:
        """Import an exported game (JSON Lines, set-up first), re-validating every event and checking the
        chain the export recorded. The listing (title, created and finished times) and each event's
        recorded time are kept when the export holds them (exports made before they were written get the
        time of the import); the game is written in one transaction."""
        prepared = self.prepare_import(
            club_id, lines, game_id, key_id=recorded_by.key_id, accept_unchained=accept_unchained
        )
        return self.write_import(prepared, recorded_by)

    def prepare_import(
        self,
        club_id: str,
        lines: Sequence[bytes],
        game_id: str | None = None,
        *,
        key_id: str | None = None,
        accept_unchained: bool = False,
    ) -> PreparedGame:
        """An exported game checked whole (events, chain, times), nothing written yet: its events linked
        anew as `key_id`'s in this club. An export whose links are missing, or cannot be checked, is refused
        unless `accept_unchained` (an export made before links were kept)."""
        if not lines:
            raise BadEvent(0, None, "The file holds no events.")
        try:
            head = msgspec.json.decode(lines[0], type=GameStarted)
            kept = [msgspec.json.decode(line, type=_ExportedMembers) for line in lines]
        except msgspec.DecodeError as error:
            raise _bad_event(0, error) from None
        ruleset = self.rulesets.get(head.ruleset)
        events = self.decode_batch(ruleset, list(lines[1:]), first_index=1) if len(lines) > 1 else []
        folded = accept_batch(start(ruleset, head), events, first_index=1)
        encoded = [_new_event(e) for e in [head, *events]]
        now = datetime.now(UTC)
        recorded_at: list[datetime] = []
        for index, members in enumerate(kept):
            moment = members.tablelog_recorded_at or now
            if recorded_at and moment < recorded_at[-1]:
                raise BadEvent(
                    index,
                    "tablelog_recorded_at",
                    f"Event {index} ({encoded[index].type}) is recorded before the event ahead of it: a stream's "
                    "events are recorded in order.",
                )
            recorded_at.append(moment)
        _check_exported_links(kept, encoded, accept_unchained)
        listing = kept[0].tablelog_game or _ExportedGame()
        game_id = self._given_id(club_id, ruleset, listing.created_at or recorded_at[0], game_id)
        new_events = chained(
            CHAIN_START,
            encoded,
            club_id=club_id,
            game_id=game_id,
            after_version=0,
            # Each event keeps the key that recorded it (the exporting server's); older exports name none.
            key_id=[key_id if isinstance(m.tablelog_key_id, msgspec.UnsetType) else m.tablelog_key_id for m in kept],
            recorded_at=recorded_at,
        )
        finished = folded.result(Viewer.public()).finished
        record = GameRecord(
            game_id=game_id,
            club_id=club_id,
            stream_id=game_stream(club_id, game_id),
            ruleset=ruleset.name,
            ruleset_version=head.ruleset_version,
            player_ids=tuple(p.player_id for p in head.setup.players),
            created_at=listing.created_at or recorded_at[0],
            version=len(new_events),
            finished=finished,
            # The listing's end is when the event that ended the game was recorded (see _append_at).
            finished_at=(listing.finished_at or recorded_at[-1]) if finished else None,
            title=listing.title,
        )
        return PreparedGame(
            record=record, events=new_events, recorded_at=recorded_at, folded=folded, players=head.setup.players
        )

    def write_import(self, prepared: PreparedGame, recorded_by: Recorder) -> tuple[GameRecord, AppendResult]:
        """Store a prepared game (its players who are not yet the club's first)."""
        record = prepared.record
        if self._store.get_game(record.club_id, record.game_id) is not None:
            raise AlreadyExists("game", record.game_id)
        players = prepared.players
        known = {p.player_id for p in self._store.get_players(record.club_id, [p.player_id for p in players])}
        for player in players:
            if player.player_id not in known:
                self._store.create_player(record.club_id, player.player_id, player.name)
        result = self._store.restore_stream(
            record.stream_id, prepared.events, prepared.recorded_at, recorded_by=recorded_by, game=record
        )
        self._folds.put(record.stream_id, prepared.folded)
        self._remember_link(record.stream_id, len(prepared.events), prepared.events[-1].chain)
        return record, result

    def export_stream(self, club_id: str, game_id: str) -> list[bytes]:
        """A game's events as JSON Lines (the stored bytes, set-up first), each with its recorded time as
        `tablelog_recorded_at`, its key as `tablelog_key_id` and its chain link as `tablelog_chain`, so an
        import keeps when each event happened and finds an event changed since; the first line also carries
        the game's listing as `tablelog_game` (its club and id, which the links cover, title, created and
        finished times)."""
        record = self.game(club_id, game_id)
        listing = _ExportedGame(
            club_id=record.club_id,
            game_id=record.game_id,
            title=record.title,
            created_at=record.created_at,
            finished_at=record.finished_at,
        )
        stored = self._store.read_stream(record.stream_id)
        lines = []
        for event, chain in zip(stored, links_of(stored), strict=True):
            members: dict[str, Any] = {"tablelog_recorded_at": event.recorded_at, "tablelog_key_id": event.key_id}
            if event.version == 1:
                members["tablelog_game"] = listing
            members["tablelog_chain"] = chain
            lines.append(_with_members(event.data, members))
        return lines

    def verify(self, *, accept_unchained: bool = False) -> Iterator[ChainBreak]:
        """Every game of every club checked against its hash chain and its rules: yields each event whose
        stored link does not follow from the events before it (it, or one before it, was changed, moved or
        removed), each link missing after the first, and each event the rules refuse; a game recorded
        before links were kept, unless `accept_unchained`."""
        for game in self.every_game():
            yield from self.verify_game(game, accept_unchained=accept_unchained)

    def every_game(self) -> Iterator[GameRecord]:
        """Every game of every club, a page of listings at a time."""
        for club in self._store.list_clubs():
            offset = 0
            while games := self._store.list_games(club.club_id, GameFilter(limit=500, offset=offset)):
                yield from games
                offset += len(games)

    def link_at(self, record: GameRecord, version: int) -> str:
        """The chain link of the game's event `version` (which the game holds)."""
        return blocking(self._link_at(self._here, record, version))

    def verify_game(self, game: GameRecord, *, accept_unchained: bool = False) -> Iterator[ChainBreak]:
        """One game's events checked against its chain, then folded through its rules (each break reported
        once)."""
        stored = self._store.read_stream(game.stream_id)

        def broken(event: StoredEvent, reason: str) -> ChainBreak:
            return ChainBreak(
                club_id=game.club_id, game_id=game.game_id, version=event.version, type=event.type, reason=reason
            )

        previous, linked = CHAIN_START, False
        for expected, event in enumerate(stored, start=1):
            if event.version != expected:
                yield broken(event, "events before it are missing")
                return
            if event.chain is None:
                if linked:
                    yield broken(event, "its link is missing")
                    return
                previous = chain_hash(previous, event)
                continue
            if not linked and expected > 1 and not accept_unchained:
                yield broken(event, "the events before it have no links (recorded before links were kept)")
            linked = True
            if stored_link(previous, event, game.club_id, game.game_id) != event.chain:
                yield broken(event, "its link does not follow from the events before it")
            previous = event.chain
        if stored and not linked and not accept_unchained:
            yield broken(stored[0], "the game has no links (recorded before links were kept)")
        yield from self._refused_by_rules(game, stored, broken)

    def _refused_by_rules(
        self, game: GameRecord, stored: Sequence[StoredEvent], broken: Callable[[StoredEvent, str], ChainBreak]
    ) -> Iterator[ChainBreak]:
        """The first stored event the game's rules refuse (a row written around the service)."""
        if not stored or game.ruleset not in self.rulesets:
            return
        ruleset = self.rulesets.get(game.ruleset)
        try:
            head = msgspec.json.decode(stored[0].data, type=GameStarted)
            folded = start(ruleset, head)
        except (msgspec.DecodeError, msgspec.ValidationError, RuleError) as error:
            yield broken(stored[0], f"its set-up is refused: {error}")
            return
        for event in stored[1:]:
            try:
                decoded = self.decode_batch(ruleset, [event.data], first_index=event.version - 1)
                folded = accept_batch(folded, decoded, first_index=event.version - 1)
            except (BadEvent, BatchRuleError) as error:
                yield broken(event, f"the rules refuse it: {error}")
                return

    # -- reading --------------------------------------------------------------------------------
    def listing(self, club_id: str, game_id: str) -> GameRecord | None:
        """A game's listing as the store has it now (none remembered), or None."""
        return self._store.get_game(club_id, game_id)

    def stored(self, record: GameRecord, *, after_version: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """The events of the game of `record` as stored (its listing in hand: no ownership checked)."""
        return self._store.read_stream(record.stream_id, after_version=after_version, limit=limit)

    def events(self, club_id: str, game_id: str, after_version: int = 0, limit: int = 100) -> list[StoredEvent]:
        record = blocking(self._owned(self._here, club_id, game_id))
        return self._store.read_stream(record.stream_id, after_version=after_version, limit=limit)

    async def events_async(
        self, club_id: str, game_id: str, after_version: int = 0, limit: int = 100
    ) -> list[StoredEvent]:
        record = await self._owned(self._loop, club_id, game_id)
        return await self._loop.events.read_stream(record.stream_id, after_version=after_version, limit=limit)

    def folded(self, record: GameRecord, at_version: int | None = None) -> Folded:
        """The game folded to `at_version` (the latest when None)."""
        return blocking(self._folded(self._here, record, at_version))

    async def _folded(self, io: _Io, record: GameRecord, at_version: int | None = None) -> Folded:
        ruleset = self.rulesets.get(record.ruleset)
        stream = record.stream_id
        cached = self._folds.get(stream)
        # Taken before the read: a commit after it moves the token, so the next read looks again.
        token = io.events.change_token() if at_version is None else None
        if at_version is None and cached is not None:
            if token is not None and self._current.get(stream) == (token, cached.version):
                return cached  # nothing committed anywhere since this fold was known current
            newer = await io.events.read_stream(stream, after_version=cached.version)
            fold = functools.partial(self._fold_onto, ruleset, cached, newer)
            folded = await _cpu(io, fold, len(newer) > LOOP_FOLD)
            self._folds.put(stream, folded)
            if token is not None:
                self._current.put(stream, (token, folded.version))
            return folded
        stored = await io.events.read_stream(stream, limit=at_version)
        if not stored:
            raise NotFound("game", record.game_id)
        if at_version is not None and (at_version < 1 or at_version > stored[-1].version):
            raise NotFound("version", str(at_version))
        # A fold from the start (the first of a game in this process, or of an earlier version) may be a
        # whole long game: a worker thread's job, so one read never stalls the others (issue 13).
        folded = await io.cpu(functools.partial(self._fold_from_start, ruleset, stored))
        if at_version is None:
            self._folds.put(stream, folded)
            if token is not None:
                self._current.put(stream, (token, folded.version))
        return folded

    @classmethod
    def _fold_from_start(cls, ruleset: Ruleset, stored: Sequence[StoredEvent]) -> Folded:
        folded = start(ruleset, decoder(ruleset).decode(stored[0].data), version=stored[0].version)
        return cls._fold_onto(ruleset, folded, stored[1:])

    @staticmethod
    def _fold_onto(ruleset: Ruleset, folded: Folded, stored: Sequence[StoredEvent]) -> Folded:
        dec = decoder(ruleset)
        for event in stored:
            folded = folded.apply(dec.decode(event.data), event.version)
        return folded

    def state(self, club_id: str, game_id: str, viewer: Viewer, at_version: int | None = None) -> tuple[int, Any]:
        """The version and the view of the state at it."""
        return blocking(self._state(self._here, club_id, game_id, viewer, at_version))

    async def state_async(
        self, club_id: str, game_id: str, viewer: Viewer, at_version: int | None = None
    ) -> tuple[int, Any]:
        return await self._state(self._loop, club_id, game_id, viewer, at_version)

    async def _state(
        self, io: _Io, club_id: str, game_id: str, viewer: Viewer, at_version: int | None
    ) -> tuple[int, Any]:
        folded = await self._seen_by(io, club_id, game_id, viewer.seat, at_version)
        return folded.version, folded.ruleset.view(folded.state, viewer)

    def result(self, club_id: str, game_id: str, viewer: Viewer) -> tuple[int, Result]:
        """The result as `viewer` may know it (G-2), as `state` gives the view."""
        return blocking(self._result(self._here, club_id, game_id, viewer))

    async def result_async(self, club_id: str, game_id: str, viewer: Viewer) -> tuple[int, Result]:
        return await self._result(self._loop, club_id, game_id, viewer)

    async def _result(self, io: _Io, club_id: str, game_id: str, viewer: Viewer) -> tuple[int, Result]:
        folded = await self._seen_by(io, club_id, game_id, viewer.seat)
        return folded.version, folded.result(viewer)

    def legal_events(self, club_id: str, game_id: str, seat: int) -> tuple[int, list[Any] | None]:
        return blocking(self._legal_events(self._here, club_id, game_id, seat))

    async def legal_events_async(self, club_id: str, game_id: str, seat: int) -> tuple[int, list[Any] | None]:
        return await self._legal_events(self._loop, club_id, game_id, seat)

    async def _legal_events(self, io: _Io, club_id: str, game_id: str, seat: int) -> tuple[int, list[Any] | None]:
        folded = await self._seen_by(io, club_id, game_id, seat)
        return folded.version, folded.ruleset.legal_events(folded.state, seat)

    async def _seen_by(
        self, io: _Io, club_id: str, game_id: str, seat: int | None, at_version: int | None = None
    ) -> Folded:
        """The game folded for a viewer at `seat` (None: no seat), which must be at its table."""
        record = await self._owned(io, club_id, game_id)
        if seat is not None:
            check_seat(record, seat)
        return await self._folded(io, record, at_version)

    def _given_id(self, club_id: str, ruleset: Ruleset, day: datetime, game_id: str | None) -> str:
        """A new game's id: the one given, checked whatever the caller (API, CLI, an import) as it names the
        game's stream (`game_stream`), or one people can read and say: its day, its game and the club's
        next number for both (`2026-11-26-mn-3`), taken from the store's counter so that two games started
        at once never get the same one (a number a client chose for its own game is passed over)."""
        if game_id is not None:
            return check_id(self.limits, "game_id", game_id)
        prefix = f"{day.astimezone(UTC).date().isoformat()}-{game_short_name(ruleset)}-"
        while True:
            candidate = f"{prefix}{self._store.next_game_number(club_id, prefix)}"
            if self._store.get_game(club_id, candidate) is None:
                return candidate

    # -- resources ------------------------------------------------------------------------------
    def import_resource(self, club_id: str, ruleset_name: str, kind: str, resource_id: str, data: bytes) -> Resource:
        """Validate a club's file (a catalogue, a scenario) and store it as a new immutable version."""
        check_id(self.limits, "resource_id", resource_id)
        ruleset = self.rulesets.get(ruleset_name)
        if kind not in ruleset.resource_kinds:
            raise NotFound("resource kind", f"{ruleset_name}/{kind}")
        self.limits.resource(data)
        content = ruleset.resource_kinds[kind].parse(data)  # raises ResourceError row by row
        return self._store.add_resource(club_id, ruleset.name, kind, resource_id, content)


def game_short_name(ruleset: Ruleset) -> str:
    """A game's name in a readable id: the initials of its name's words, numbers whole (`mn` for Milles
    Nautiques, `m44` for Mémoire 44)."""
    return "".join(part if part.isdigit() else part[:1] for part in ruleset.name.split("-") if part)


def check_seat(record: GameRecord, seat: int) -> None:
    """A seat at the game's table, else NoSuchSeat (views and rules index seats by number)."""
    if not 0 <= seat < len(record.player_ids):
        raise NoSuchSeat(seat, len(record.player_ids))


def accept_batch(folded: Folded, events: Sequence[Any], first_index: int = 0) -> Folded:
    """Check and apply each event in turn; the first one refused names its index in the batch."""
    for index, event in enumerate(events, start=first_index):
        try:
            folded.check(event)
        except RuleError as error:
            raise BatchRuleError(index, event_tag(event), error, folded.ruleset.name) from None
        folded = folded.apply(event)
    return folded


class PreparedGame(msgspec.Struct, frozen=True, kw_only=True):
    """An exported game checked and ready to store: its listing, its chained events and their times."""

    record: GameRecord
    events: list[NewEvent]
    recorded_at: list[datetime]
    folded: Folded
    players: tuple[Player, ...]


class ChainBreak(msgspec.Struct, frozen=True, kw_only=True):
    """An event whose chain link does not follow: it, or an event before it, was changed or removed."""

    club_id: str
    game_id: str
    version: int
    type: str
    reason: str


_Moment = Annotated[datetime, msgspec.Meta(tz=True)]
"""A time in an export: with its zone (a time without one could be read as any)."""


class _ExportedGame(msgspec.Struct, frozen=True, kw_only=True):
    """A game's listing as an export carries it on its first line."""

    club_id: str | None = None
    game_id: str | None = None
    title: str = ""
    created_at: _Moment | None = None
    finished_at: _Moment | None = None


class _ExportedMembers(msgspec.Struct, frozen=True, kw_only=True):
    """What an export adds to each event's body (each optional: older exports lack some)."""

    tablelog_chain: str | None = None
    tablelog_recorded_at: _Moment | None = None
    tablelog_key_id: str | msgspec.UnsetType | None = msgspec.UNSET
    tablelog_game: _ExportedGame | None = None


def links_of(events: Sequence[StoredEvent]) -> list[str]:
    """Each event's link: the stored one, or, for events recorded before links were kept, the first kind
    computed from the events before it."""
    links, previous = [], CHAIN_START
    for event in events:
        previous = event.chain if event.chain is not None else chain_hash(previous, event)
        links.append(previous)
    return links


def _claims_history(members: _ExportedMembers) -> bool:
    return (
        members.tablelog_chain is not None
        or members.tablelog_recorded_at is not None
        or members.tablelog_game is not None
        or not isinstance(members.tablelog_key_id, msgspec.UnsetType)
    )


def _check_exported_links(kept: Sequence[_ExportedMembers], events: Sequence[NewEvent], accept_unchained: bool) -> None:
    """Each link an export recorded checked against the events before it, as the exporting server linked
    them (its club and game, each event's time and key); a link missing, or that cannot be checked, refused
    unless `accept_unchained`. A plain event log (no line carries anything an export adds) claims no history
    and needs no links: its game's chain starts at the import."""
    if not any(_claims_history(members) for members in kept):
        return
    source = kept[0].tablelog_game or _ExportedGame()
    previous = CHAIN_START
    for index, (members, event) in enumerate(zip(kept, events, strict=True)):
        claimed = members.tablelog_chain
        if claimed is not None and claimed.startswith(LINK_V2):
            if source.club_id is None or source.game_id is None or members.tablelog_recorded_at is None:
                expected = None
            else:
                moment, key = members.tablelog_recorded_at, members.tablelog_key_id or None
                expected = link(previous, event, Linked(source.club_id, source.game_id, index + 1, moment, key))
        else:
            expected = chain_hash(previous, event)
        if claimed is None or expected is None:
            if not accept_unchained:
                raise BadEvent(
                    index,
                    "tablelog_chain",
                    f"Event {index} ({event.type}) carries no link that can be checked: the export may have been "
                    "changed. Import it with --accept-unchained only if it was made before links were kept.",
                )
            previous = claimed if claimed is not None else chain_hash(previous, event)
            continue
        if claimed != expected:
            raise BadEvent(
                index,
                "tablelog_chain",
                f"Event {index} ({event.type}) does not match the chain the export recorded: it, or an event "
                "before it, was changed or removed after the export.",
            )
        previous = claimed


def _with_members(data: bytes, members: dict[str, Any]) -> bytes:
    """An event's stored JSON object with the export's members added after its own."""
    body = data.rstrip()
    added = msgspec.json.encode(members)[1:-1]
    separator = b"" if body == b"{}" else b","
    return body[:-1] + separator + added + b"}"


def _new_event(event: Any) -> NewEvent:
    return NewEvent(type=event_tag(event), schema_version=schema_version(event), data=msgspec.json.encode(event))


__all__ = [
    "BadEvent",
    "BatchRuleError",
    "GameRecords",
    "NewGame",
    "NoSuchSeat",
    "NotFound",
    "ResourceChoice",
    "ResourceError",
    "SeatSpec",
    "SetupError",
]


class Records(GameRecords):
    """The game records with the whole store they read through: what the app's wiring (`service.app`, the
    CLI) makes, and what a request holds (routed to a replica, released to a spectator). It is the one use
    case object that holds every store part: each other use case is given from it only the part it names
    (`Keys.of(records)` takes an `AccessStore` beside the club's records...), and `GameRecords` itself
    works on `GameStore` alone."""

    def __init__(
        self,
        store: Store,
        rulesets: Rulesets,
        *,
        cache_size: int = 512,
        limits: Limits | None = None,
        loop_store: AsyncEvents | None = None,
    ) -> None:
        super().__init__(store, rulesets, cache_size=cache_size, limits=limits, loop_store=loop_store)
        self.store = store

    def reading_from(self, store: Store, *, folds: Recent[StreamId, Folded] | None = None) -> Records:
        """These records reading through another store (a read replica's, `service.store.replicas`), sharing
        the remembered folds and identities: a fold is stamped with its version, so one read from a
        replica that lags is refreshed, or refused as a conflict, like any stale fold. `folds`: the folds
        to remember instead (a spectator's, `service.usecases.spectators`, leaves out the delayed games)."""
        other = self._reading_from(store, folds)
        other.store = store
        return other

    async def reading_through(self, replicas: ReplicaSet, position: int | None) -> Records:
        """These records reading through a replica of `replicas` that has replayed `position` (else the
        primary): `reading_from` the store `ReplicaSet.read_store` picks."""
        return self.reading_from(await replicas.read_store(self.store, position))
