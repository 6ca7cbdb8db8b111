"""The storage interface: an append-only event store plus the club records around it.

`Store` is the composition of small interfaces (`Schema`, `EventRecorder`, `Projections`, `ReadModels`,
`Collections`, `ClubRecords`, `AccessStore`, `WebhookStore`); a module that uses one part asks for that one.
Two backends compose them (`service.store.composed`: PostgreSQL for production, SQLite for a single club) and pass one
contract test suite (`tests/service/test_store_contract.py`). Each backend translates its driver's errors
in one place into the errors below; nothing above the store sees a driver exception.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal, NewType, Protocol

import msgspec

from domain.ruleset import Player, Result
from projections.ratings import PlayerRating, RatingPoint
from service.store.access import AccessStore
from service.store.sql import Dialect
from service.store.webhooks import WebhookStore

if TYPE_CHECKING:
    from projections.standings import Removal

StreamId = NewType("StreamId", str)
"""The id of an event stream, unique across clubs. A game's id is its club's own (two clubs may each
have `friday-1`); its stream is `game_stream(club, game)`, or the bare game id for games recorded when
game ids were unique across clubs (their events cannot be rewritten). The games listing maps one to the
other, so a stream-keyed method is reached through a game's listing, never with a bare game id."""


RESULT_ONLY_SQL = (
    "EXISTS (SELECT 1 FROM events r WHERE r.stream_id = {stream} AND r.version = 2 "
    "AND r.type = 'tablelog.result_reported')"
)
"""Whether a game's listing is of a result-only game (G-6), in SQL both backends read: its result is
reported in the append that creates it, and a correction leaves that event where it is, so one lookup
by stream and version tells it."""


def game_stream(club_id: str, game_id: str) -> StreamId:
    """The stream of a new game: '/' is in no id, so it meets no other club's game nor an older game."""
    return StreamId(f"{club_id}/{game_id}")


def stream_game(stream_id: str) -> str:
    """The game id of a game's stream (either form of `StreamId`)."""
    return stream_id.rpartition("/")[2]


MAX_BATCH = 1000
"""Most events in one append (PostgreSQL positions leave room for 2**20 per transaction)."""


# The rows the read models keep and the club's collections (written by `service.store.readmodels`).
CollectionKind = Literal["league", "campaign", "tournament"]
"""A tournament is listed here too (its record is its own event stream)."""


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """A game's outcome as standings and campaigns read it."""

    finished: bool
    finished_at: datetime | None
    result: Result


class GameSummary(msgspec.Struct, frozen=True, kw_only=True):
    """A game as the last event applied left it. `applied` counts the events applied to the row."""

    game_id: str
    club_id: str
    ruleset: str
    ruleset_version: str
    version: int
    applied: int
    started_at: datetime
    players: tuple[Player, ...]
    outcome: Outcome


class ResultChange(msgspec.Struct, frozen=True, kw_only=True):
    """The outcome of the game on `stream_id` before and after the correction at version `version`."""

    stream_id: StreamId
    version: int
    before: Outcome
    after: Outcome


class SnapshotRow(msgspec.Struct, frozen=True, kw_only=True):
    """A stored replay snapshot (`projections.replay.encode_snapshot` bytes) of the game on `stream_id`."""

    stream_id: StreamId
    version: int
    ruleset_version: str
    data: bytes


class RatingRows(msgspec.Struct, frozen=True, kw_only=True):
    """Ratings of one club and ruleset to write: each `truncate` player's history cut after their nth
    game (derived again from there), the `drop` players' ratings deleted (no rated game left), the
    `ratings` written and the `history` points added."""

    club_id: str
    ruleset: str
    truncate: tuple[tuple[str, int], ...] = ()
    drop: tuple[str, ...] = ()
    ratings: tuple[PlayerRating, ...] = ()
    history: tuple[tuple[str, int, RatingPoint], ...] = ()
    """(player id, the player's game number, point)."""


ReadModelWrite = GameSummary | ResultChange | SnapshotRow | RatingRows


class Collection(msgspec.Struct, frozen=True, kw_only=True):
    """A league or campaign: its JSON definition and its games in the order they were assigned."""

    club_id: str
    kind: CollectionKind
    collection_id: str
    definition: bytes
    created_at: datetime
    game_ids: tuple[str, ...] = ()


class SpectatorDelay(msgspec.Struct, frozen=True, kw_only=True):
    """How far behind the record a game's live stream runs: N events and / or N seconds."""

    events: int = 0
    seconds: int = 0


class NewEvent(msgspec.Struct, frozen=True, kw_only=True):
    """An event about to be stored: its stable type name, schema version and encoded JSON body."""

    type: str
    schema_version: int
    data: bytes
    chain: str | None = None
    """`link` of this event after the one before it in its stream (None: not computed)."""
    recorded_at: datetime | None = None
    """When it is recorded, chosen before it is linked, since the link covers it (None: the store's now)."""
    key_id: str | None = None
    """The key that recorded it, as linked: an append stores its recorder's, a restored stream (an import)
    each event's own, the exporting server's."""


class StoredEvent(msgspec.Struct, frozen=True, kw_only=True):
    """An event as the record keeps it."""

    stream_id: StreamId
    version: int
    position: int
    type: str
    schema_version: int
    data: bytes
    recorded_at: datetime
    club_id: str
    key_id: str | None
    chain: str | None = None
    """Its `chain_hash` as stored (None for events recorded before chains were kept)."""


class Recorder(msgspec.Struct, frozen=True, kw_only=True):
    """Who records an append: the club and the API key (None for the operator or the CLI)."""

    club_id: str
    key_id: str | None = None


class AppendResult(msgspec.Struct, frozen=True, kw_only=True):
    """What an append wrote: the versions and global positions of its events. `replayed` is true when
    an idempotent retry returned the first result and wrote nothing."""

    stream_id: StreamId
    first_version: int
    last_version: int
    positions: tuple[int, ...]
    replayed: bool = False


class GameRecord(msgspec.Struct, frozen=True, kw_only=True):
    """A game's listing: who plays, which ruleset, how far the record goes, finished or not."""

    game_id: str
    club_id: str
    ruleset: str
    ruleset_version: str
    player_ids: tuple[str, ...]
    created_at: datetime
    version: int = 0
    """Read from the stream's events (its last version); never written with the listing."""
    finished: bool = False
    finished_at: datetime | None = None
    title: str = ""
    stream_id: StreamId = StreamId("")
    """The stream holding its events (read from the listing; an append that creates the game lists it
    under the stream appended to)."""
    result_only: bool = False
    """Recorded by its result only (G-6): read from the stream, whose second event is then the result
    reported (`RESULT_ONLY_SQL`); never written with the listing."""


class GameProgress(msgspec.Struct, frozen=True, kw_only=True):
    """What an append changes in a game's listing, written in the same transaction as its events. Given
    only when the game's finished status changes: the listing's version is read from the events."""

    finished: bool


class AppendRequest(msgspec.Struct, frozen=True):
    """An append as the event log takes it (`EventRecorder.append`, `AsyncEvents.append`): the batch,
    the version the stream must be at and who records it. An idempotency key makes it answer a retry
    with its first result; `game` creates the game's listing with the stream's first events and
    `progress` updates it (when the game finishes, or a correction takes its end back), both in the same
    transaction as the events."""

    stream_id: StreamId
    events: Sequence[NewEvent]
    expected_version: int
    recorded_by: Recorder
    idempotency_key: str | None = None
    game: GameRecord | None = None
    progress: GameProgress | None = None


class Club(msgspec.Struct, frozen=True, kw_only=True):
    club_id: str
    name: str
    created_at: datetime
    language: str | None = None
    """The language its pages and texts speak when the reader has chosen none (issue 26); None: English."""


class ClubPlayer(msgspec.Struct, frozen=True, kw_only=True):
    club_id: str
    player_id: str
    name: str
    created_at: datetime
    note: str = ""
    """What tells this player apart from another of the same name (a town, a day they come)."""
    retired_at: datetime | None = None
    """When the club retired the player: kept in history, left out of menus."""


class PlayerMerge(msgspec.Struct, frozen=True, kw_only=True):
    """Two records of one person made one: `player_id`'s games count as `into_id`'s, recorded by the key
    `key_id` at `merged_at` (no event is rewritten)."""

    club_id: str
    player_id: str
    into_id: str
    key_id: str | None
    merged_at: datetime


class Resource(msgspec.Struct, frozen=True, kw_only=True):
    """A club resource a ruleset reads (a card catalogue, a scenario): immutable once stored; a new
    import of the same id makes a new version."""

    club_id: str
    ruleset: str
    kind: str
    resource_id: str
    version: int
    content_hash: str
    content: Any
    created_at: datetime


class GameFilter(msgspec.Struct, frozen=True, kw_only=True):
    ruleset: str | None = None
    player_id: str | None = None
    finished: bool | None = None
    created_from: datetime | None = None
    created_to: datetime | None = None
    limit: int = 100
    offset: int = 0


class StoreError(Exception):
    """Base of the store's errors."""


class VersionConflict(StoreError):
    """The stream is not at the version the writer expected."""

    def __init__(self, stream_id: str, expected: int, current: int) -> None:
        super().__init__(f"Stream {stream_id} is at version {current}, not {expected}.")
        self.stream_id = stream_id
        self.expected = expected
        self.current = current


class IdempotencyMismatch(StoreError):
    """An idempotency key reused with a different request body."""

    def __init__(self, stream_id: str, key: str) -> None:
        super().__init__(f"Idempotency key {key!r} was already used on {stream_id} with another body.")
        self.stream_id = stream_id
        self.key = key


class AlreadyExists(StoreError):
    """A record with that id exists already."""

    def __init__(self, what: str, ident: str) -> None:
        super().__init__(f"{what} {ident!r} already exists.")
        self.what = what
        self.ident = ident


class Duplicate(StoreError):
    """A row whose key is taken: each backend's one translation of its driver's unique violation. The
    store's methods turn it into `AlreadyExists`, which names what was taken; nothing above them sees it."""


class UnstorableValue(StoreError):
    """A value the database cannot keep (a number past its range, a text it refuses, a key too long to
    index): the adapter's translation of the driver's data errors."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"The database cannot store a value of this request: {reason}.")
        self.reason = reason


class MissingReference(StoreError):
    """A record that refers to one that does not exist (a player of a club that does not exist)."""

    def __init__(self, what: str) -> None:
        super().__init__(f"This refers to a {what} that does not exist.")
        self.what = what


class StoreUnavailable(StoreError):
    """The database did not answer: a connection lost (a restart, a fail-over, a connection cut) or none
    free in time. Nothing of the request is known to be stored; sending it again is safe (an append with
    the same idempotency key is stored once)."""

    def __init__(self) -> None:
        super().__init__("The database cannot be reached just now: send the request again in a moment.")


class ImmutableRecord(StoreError):
    """An attempt to change or delete a stored event (the database refuses it)."""


def game_filter_sql(
    club_id: str, where: GameFilter, dialect: Dialect, *, player_clause: str, value: Callable[[Any], Any] = lambda v: v
) -> tuple[str, list[Any]]:
    """The WHERE clause and parameters of a club's game listing, for either backend: `player_clause` is
    its test that a player sits at a game (in its own parameter style), `value` how it stores values."""
    mark = dialect.mark
    clauses = [f"club_id = {mark}"]
    params: list[Any] = [club_id]
    for present, clause, param in (
        (where.ruleset is not None, f"ruleset = {mark}", where.ruleset),
        (where.player_id is not None, player_clause, where.player_id),
        (where.finished is not None, f"finished = {mark}", where.finished),
        (where.created_from is not None, f"created_at >= {mark}", where.created_from),
        (where.created_to is not None, f"created_at < {mark}", where.created_to),
    ):
        if present:
            clauses.append(clause)
            params.append(value(param))
    return " AND ".join(clauses), params


def request_fingerprint(events: Sequence[NewEvent], expected_version: int) -> str:
    """A stable hash of an append's body, to tell a true retry from a reused key."""
    digest = hashlib.sha256(str(expected_version).encode())
    for event in events:
        digest.update(b"\x00" + event.type.encode() + b"\x00" + event.data)
    return digest.hexdigest()


CHAIN_START = ""
"""The chain value before a stream's first event."""

LINK_V2 = "2:"
"""The prefix of a link that covers the game's identity, the event's version, time and key (`link`); a link
without it is the first kind (`chain_hash`), kept for events recorded before."""


def chain_hash(previous: str, event: NewEvent | StoredEvent) -> str:
    """The first kind of link (events recorded before `LINK_V2`): SHA-256 over the previous link, the
    event's type, schema version and stored bytes."""
    digest = hashlib.sha256(previous.encode())
    digest.update(b"\x00%s\x00%d\x00" % (event.type.encode(), event.schema_version))
    digest.update(event.data)
    return digest.hexdigest()


class Linked(msgspec.Struct, frozen=True):
    """Whose event a link is about: the game's club and id (not the stream's, so a listing pointed at
    another game's stream breaks the chain), the event's version, time and key."""

    club_id: str
    game_id: str
    version: int
    recorded_at: datetime
    key_id: str | None


def link(previous: str, event: NewEvent | StoredEvent, at: Linked) -> str:
    """The hash that links an event to the one before it in its game: SHA-256 over the previous link, the
    game's identity, the event's version, type, schema version, time, key and stored bytes. Changing,
    removing or reordering an event, its time or its key, or moving it to another game, changes every link
    from it on (`tablelog verify`; signed checkpoints find links recomputed by someone who can write rows)."""
    moment = at.recorded_at.astimezone(UTC).isoformat(timespec="microseconds")
    parts = (at.club_id, at.game_id, str(at.version), event.type, str(event.schema_version), moment, at.key_id or "")
    # Each part after a NUL, then a NUL and the stored bytes: hashed in one call (one per part cost a
    # twentieth of an append's CPU on SQLite, bench/).
    hashed = b"\x00".join([previous.encode(), *(part.encode() for part in parts), event.data])
    return LINK_V2 + hashlib.sha256(hashed).hexdigest()


def stored_link(previous: str, event: StoredEvent, club_id: str, game_id: str) -> str:
    """What a stored event's link must be after `previous`, by the kind of link it holds."""
    if event.chain is not None and not event.chain.startswith(LINK_V2):
        return chain_hash(previous, event)
    return link(previous, event, Linked(club_id, game_id, event.version, event.recorded_at, event.key_id))


def chained(
    previous: str,
    events: Sequence[NewEvent],
    *,
    club_id: str,
    game_id: str,
    after_version: int,
    key_id: str | Sequence[str | None] | None,
    recorded_at: datetime | Sequence[datetime] | None = None,
) -> list[NewEvent]:
    """The events with their times, keys and links, the first one chained to `previous` (the link of event
    `after_version`). `recorded_at` and `key_id`: one for all (an append), one per event (an import); no
    time is now."""
    moments = recorded_at if isinstance(recorded_at, Sequence) else [recorded_at or datetime.now(UTC)] * len(events)
    keys = [key_id] * len(events) if key_id is None or isinstance(key_id, str) else key_id
    out = []
    for offset, (event, moment, key) in enumerate(zip(events, moments, keys, strict=True), start=1):
        previous = link(previous, event, Linked(club_id, game_id, after_version + offset, moment, key))
        out.append(msgspec.structs.replace(event, chain=previous, recorded_at=moment, key_id=key))
    return out


def content_hash(content: Any) -> str:
    """The SHA-256 of a resource's canonical JSON."""
    return "sha256:" + hashlib.sha256(msgspec.json.encode(content, order="sorted")).hexdigest()


class Schema(Protocol):
    """The database under a store: its migrations, whether it answers, its connections."""

    def migrate(self) -> list[str]:
        """Apply pending schema migrations; return the ones applied."""
        ...

    def pending_migrations(self) -> list[str]:
        """Migrations not yet applied (empty when ready)."""
        ...

    def ping(self) -> None:
        """Raise if the database cannot be reached."""
        ...

    def close(self) -> None: ...


class EventRecorder(Protocol):
    """The event log: appends (idempotent when keyed), a stream's events, the global order."""

    def append(self, request: AppendRequest) -> AppendResult:
        """Append the request's events atomically (all or none, with the listing it carries) if the stream
        is at its `expected_version`, else VersionConflict."""
        ...

    def restore_stream(
        self,
        stream_id: StreamId,
        events: Sequence[NewEvent],
        recorded_at: Sequence[datetime],
        *,
        recorded_by: Recorder,
        game: GameRecord | None = None,
    ) -> AppendResult:
        """Write an imported stream whole, in one transaction, into `recorded_by`'s club: its events from
        version 1, each with the time it was first recorded and the key that recorded it (`NewEvent.key_id`),
        and for a game its listing as given (created, finished and when).
        AlreadyExists when the stream, or the game's id in its club, is taken."""
        ...

    def read_stream(
        self, stream_id: StreamId, *, after_version: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        """A stream's events after `after_version`, in version order."""
        ...

    def stream_version(self, stream_id: StreamId) -> int:
        """The stream's last version (0 for a stream with no events)."""
        ...

    def read_all(self, *, after: int = 0, limit: int = 1000) -> list[StoredEvent]:
        """Events of every stream after global position `after`, in position order. A reader paging
        with the last position it saw never skips an event that commits late nor sees one twice."""
        ...

    def read_club(self, club_id: str, *, after: int = 0, limit: int = 1000) -> list[StoredEvent]:
        """One club's events (of its games and tournaments) after global position `after`, in position
        order, with `read_all`'s guarantee (the change feed and webhooks page with it)."""
        ...

    def replayed_append(self, stream_id: StreamId, idempotency_key: str, fingerprint: str) -> AppendResult | None:
        """The first result of an append made with this key and body, if any (IdempotencyMismatch for
        another body)."""
        ...

    def change_token(self) -> Hashable | None:
        """A token equal at two looks from one thread only if nothing was committed to the database in
        between (None: the database cannot tell without reading; SQLite can, with a pragma)."""
        ...

    def head_position(self) -> int:
        """The last global position a reader can see now (0 when the log is empty)."""
        ...

    def count_events(self, *, after: int = 0) -> int:
        """How many events lie after global position `after` (for progress reports)."""
        ...

    def unprojected(self, *, after: int) -> tuple[int, datetime | None]:
        """How many events were recorded after global position `after` (visible to readers of the global
        order or not yet), and when the oldest of them was."""
        ...


class Projections(Protocol):
    """Where each projection has got to in the global order, and who may run it (see service.store.readmodels)."""

    def checkpoints(self) -> dict[str, int]: ...
    def checkpoint(self, name: str) -> int: ...
    def commit_projection(self, name: str, expected: int, position: int, writes: Sequence[ReadModelWrite]) -> bool:
        """Write a batch's read-model rows and move the checkpoint in one transaction, only if the
        checkpoint is still `expected` (False, nothing written, otherwise)."""
        ...

    def reset_projection(self, name: str, tables: Sequence[str]) -> None: ...
    def acquire_lease(self, name: str, owner: str, seconds: float) -> bool: ...
    def release_lease(self, name: str, owner: str) -> None: ...
    def lease_owner(self, name: str) -> str | None: ...


class ReadModels(Protocol):
    """The tables beside the log that the API reads: what the projections write (game summaries, ratings,
    replay snapshots), and the live delay a club sets on a game."""

    def game_summaries(self, club_id: str, game_ids: Sequence[str]) -> dict[str, GameSummary]: ...
    def result_changes(self, stream_id: StreamId) -> list[ResultChange]: ...
    def finished_summaries(self, club_id: str, ruleset: str) -> list[GameSummary]: ...
    def player_ratings(self, club_id: str, ruleset: str) -> dict[str, PlayerRating]: ...
    def rating_history(self, club_id: str, ruleset: str, player_id: str) -> list[RatingPoint]: ...
    def rating_points_since(
        self, club_id: str, ruleset: str, since: datetime
    ) -> list[tuple[str, int, RatingPoint]]: ...
    def rating_point(self, club_id: str, ruleset: str, player_id: str, number: int) -> RatingPoint | None: ...
    def snapshots(self, stream_id: StreamId, *, up_to: int | None = None) -> list[SnapshotRow]: ...
    def replace_snapshots(self, stream_id: StreamId, rows: Sequence[SnapshotRow]) -> None: ...
    def spectator_delay(self, stream_id: StreamId) -> SpectatorDelay: ...
    def spectator_delays(self, club_id: str) -> dict[str, tuple[StreamId, SpectatorDelay, int]]:
        """The club's games that have a spectator delay: game id -> (stream, delay, its stream's version)."""
        ...

    def set_spectator_delay(self, stream_id: StreamId, delay: SpectatorDelay) -> None: ...


class Collections(Protocol):
    """A club's leagues, campaigns and tournaments: their definitions, games, and games taken out."""

    def create_collection(
        self, kind: CollectionKind, club_id: str, collection_id: str, definition: bytes
    ) -> Collection: ...
    def get_collection(self, kind: CollectionKind, club_id: str, collection_id: str) -> Collection | None: ...
    def list_collections(
        self, kind: CollectionKind, club_id: str, collection_id: str | None = None
    ) -> list[Collection]: ...
    def add_collection_game(self, kind: CollectionKind, club_id: str, collection_id: str, game_id: str) -> None: ...
    def collections_of_game(self, club_id: str, game_id: str) -> list[tuple[CollectionKind, str]]: ...
    def record_removal(self, kind: CollectionKind, club_id: str, collection_id: str, removal: Removal) -> None: ...
    def removals(self, kind: CollectionKind, club_id: str, collection_id: str) -> list[Removal]: ...


class ClubRecords(Protocol):
    """A club's own records beside the event log: the club, its players, its games' listings and the
    resources its rulesets read."""

    def create_club(self, club_id: str, name: str) -> Club: ...
    def get_club(self, club_id: str) -> Club | None: ...
    def list_clubs(self) -> list[Club]: ...
    def set_club_language(self, club_id: str, language: str | None) -> Club | None: ...
    def create_player(self, club_id: str, player_id: str, name: str) -> ClubPlayer: ...
    def list_players(self, club_id: str) -> list[ClubPlayer]: ...
    def get_players(self, club_id: str, player_ids: Sequence[str]) -> list[ClubPlayer]: ...
    def get_game(self, club_id: str, game_id: str) -> GameRecord | None:
        """The club's game of that id (None when the club has none: another club's is not seen)."""
        ...

    def list_games(self, club_id: str, where: GameFilter) -> list[GameRecord]: ...
    def set_game_title(self, club_id: str, game_id: str, title: str) -> GameRecord | None:
        """Give the club's game a new title (its listing's, not its record's); None when there is no such game."""
        ...

    def add_resource(self, club_id: str, ruleset: str, kind: str, resource_id: str, content: Any) -> Resource:
        """Store a new version of a resource (versions start at 1)."""
        ...

    def get_resource(
        self, club_id: str, ruleset: str, kind: str, resource_id: str, version: int | None = None
    ) -> Resource | None:
        """A resource version (the latest when `version` is None)."""
        ...

    def list_resources(self, club_id: str, ruleset: str | None = None) -> list[Resource]: ...


class PlayerRecords(Protocol):
    """What changes a club's player after it is added: its name, note and retirement, and merges."""

    def update_player(
        self,
        club_id: str,
        player_id: str,
        *,
        name: str | None = None,
        note: str | None = None,
        retired: bool | None = None,
        at: datetime | None = None,
    ) -> ClubPlayer | None:
        """Change what is given (retired: True retires at `at`, by default now; False brings back); None
        when no such player."""
        ...

    def merge_player(
        self, club_id: str, player_id: str, into_id: str, key_id: str | None, at: datetime | None = None
    ) -> PlayerMerge:
        """Record that `player_id` is `into_id` at `at`, by default now (AlreadyExists when `player_id` is
        merged already)."""
        ...

    def player_merges(self, club_id: str) -> list[PlayerMerge]: ...
    def next_game_number(self, club_id: str, prefix: str) -> int:
        """The next number of the club's game ids starting `prefix` (1, 2, ...), taken in one statement."""
        ...


class Store(
    Schema,
    EventRecorder,
    Projections,
    ReadModels,
    Collections,
    ClubRecords,
    PlayerRecords,
    AccessStore,
    WebhookStore,
    Protocol,
):
    """What the service needs from storage, all of it: a module that uses one part asks for that part
    (`EventRecorder`, `ReadModels`, ...). All methods are synchronous and thread-safe."""
