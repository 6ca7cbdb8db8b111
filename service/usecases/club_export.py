"""A whole club as one JSON document, to move it to another server: its players, resources (every
version), games (each as its game export, with its notes), leagues, campaigns and tournaments. API keys, page sessions
and share links are never written. An import checks every game before it writes anything."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from datetime import datetime
from typing import Annotated, Any, Literal, Protocol, get_args

import msgspec

from domain.registry import UnknownRuleset
from projections.campaigns import Campaign
from projections.notes import EVENT_DECODER as NOTE_DECODER
from projections.standings import League, Removal
from projections.tournaments import TournamentCreated
from service.limits import CLUB_ID_PATTERN, check_id
from service.store.base import (
    AlreadyExists,
    Club,
    ClubRecords,
    CollectionKind,
    Collections,
    EventRecorder,
    GameFilter,
    NewEvent,
    PlayerRecords,
    Recorder,
    StoredEvent,
    StreamId,
)
from service.usecases.games import BadEvent, BatchRuleError, GameRecords, NotFound, PreparedGame, Records
from service.usecases.notes import stream_id as notes_stream
from service.usecases.tournaments import stream_id

FORMAT: Literal["tablelog-club/1"] = "tablelog-club/1"


class PlayerEntry(msgspec.Struct, frozen=True, kw_only=True):
    player_id: str
    name: str
    note: str = ""
    retired_at: Annotated[datetime, msgspec.Meta(tz=True)] | None = None


class MergeEntry(msgspec.Struct, frozen=True, kw_only=True):
    """A merge of two records of one person, as recorded (who and when)."""

    player_id: str
    into_id: str
    key_id: str | None
    merged_at: Annotated[datetime, msgspec.Meta(tz=True)]


class ResourceEntry(msgspec.Struct, frozen=True, kw_only=True):
    ruleset: str
    kind: str
    resource_id: str
    version: int
    content: Any


class StreamEvent(msgspec.Struct, frozen=True, kw_only=True):
    type: str
    schema_version: int
    data: msgspec.Raw
    recorded_at: Annotated[datetime, msgspec.Meta(tz=True)]


class GameEntry(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    game_id: str
    lines: list[msgspec.Raw]
    """The game's export, one JSON object per event (see `GameRecords.export_stream`)."""
    notes: list[StreamEvent] = msgspec.field(default_factory=list)
    """The game's notes stream (`service.usecases.notes`); left out when it has none, so a club without
    notes exports the bytes it did before notes existed."""


class CollectionEntry(msgspec.Struct, frozen=True, kw_only=True):
    """A league, campaign or tournament: its definition, games in assigned order, removals, and (for a
    tournament) its own event stream."""

    kind: CollectionKind
    collection_id: str
    definition: msgspec.Raw
    game_ids: list[str]
    removals: list[Removal] = msgspec.field(default_factory=list)
    events: list[StreamEvent] = msgspec.field(default_factory=list)
    """A tournament's own stream (empty for a league or campaign)."""


class ClubExport(msgspec.Struct, frozen=True, kw_only=True):
    format: Literal["tablelog-club/1"]
    club_id: str
    name: str
    players: list[PlayerEntry]
    resources: list[ResourceEntry]
    games: list[GameEntry]
    collections: list[CollectionEntry]
    merges: list[MergeEntry] = msgspec.field(default_factory=list)
    """The club's merges of players, oldest first (exports made before merges existed have none)."""


class _Head(msgspec.Struct, frozen=True, kw_only=True):
    """The members of a `ClubExport` before its games, in its order (so encoded alike)."""

    format: Literal["tablelog-club/1"]
    club_id: str
    name: str
    players: list[PlayerEntry]
    resources: list[ResourceEntry]


class ClubStore(ClubRecords, PlayerRecords, Collections, EventRecorder, Protocol):
    """What a club's export and import read and write beside its games' records: the club, its players and
    files, its collections, and the streams beside its games (notes, tournaments)."""


def export_club(records: Records, club_id: str) -> bytes:
    """The club as one JSON document (the same club always gives the same bytes)."""
    return b"".join(export_club_parts(records, club_id))


def export_club_parts(records: Records, club_id: str) -> Iterator[bytes]:
    """The club's export in pieces whose concatenation is `export_club`'s document, the bytes
    `msgspec.json.encode(ClubExport(...))` gives: one game at a time, so a club of any size is sent
    over HTTP without being held whole. NotFound at once for a club that does not exist."""
    store: ClubStore = records.store
    club = store.get_club(club_id)
    if club is None:
        raise NotFound("club", club_id)
    return _parts(records, store, club)


def _parts(records: GameRecords, store: ClubStore, club: Club) -> Iterator[bytes]:
    club_id = club.club_id
    games, offset = [], 0
    while page := store.list_games(club_id, GameFilter(limit=500, offset=offset)):
        games.extend(page)
        offset += len(page)
    head = _Head(
        format=FORMAT,
        club_id=club.club_id,
        name=club.name,
        players=[
            PlayerEntry(player_id=p.player_id, name=p.name, note=p.note, retired_at=p.retired_at)
            for p in store.list_players(club_id)
        ],
        resources=[
            ResourceEntry(
                ruleset=r.ruleset, kind=r.kind, resource_id=r.resource_id, version=r.version, content=r.content
            )
            for r in store.list_resources(club_id)
        ],
    )
    yield msgspec.json.encode(head)[:-1] + b',"games":['
    for index, game in enumerate(sorted(games, key=lambda g: (g.created_at, g.game_id))):
        lines = [msgspec.Raw(line) for line in records.export_stream(club_id, game.game_id)]
        notes = _stream_events(store.read_stream(notes_stream(club_id, game.game_id)))
        entry = GameEntry(game_id=game.game_id, lines=lines, notes=notes)
        yield (b"," if index else b"") + msgspec.json.encode(entry)
    merges = [
        MergeEntry(player_id=m.player_id, into_id=m.into_id, key_id=m.key_id, merged_at=m.merged_at)
        for m in store.player_merges(club_id)
    ]
    yield (
        b'],"collections":'
        + msgspec.json.encode(_collections(store, club_id))
        + b',"merges":'
        + msgspec.json.encode(merges)
        + b"}"
    )


def _collections(store: ClubStore, club_id: str) -> list[CollectionEntry]:
    collections = []
    for kind in get_args(CollectionKind):
        for found in store.list_collections(kind, club_id):
            stream = _tournament_stream(club_id, found.collection_id) if kind == "tournament" else None
            collections.append(
                CollectionEntry(
                    kind=kind,
                    collection_id=found.collection_id,
                    definition=msgspec.Raw(found.definition),
                    game_ids=list(found.game_ids),
                    removals=store.removals(kind, club_id, found.collection_id),
                    events=_stream_events(store.read_stream(stream) if stream else []),
                )
            )
    return collections


def _stream_events(stored: list[StoredEvent]) -> list[StreamEvent]:
    return [
        StreamEvent(type=e.type, schema_version=e.schema_version, data=msgspec.Raw(e.data), recorded_at=e.recorded_at)
        for e in stored
    ]


def _restore(store: EventRecorder, stream: StreamId, events: list[StreamEvent], by: Recorder) -> None:
    store.restore_stream(
        stream,
        [NewEvent(type=e.type, schema_version=e.schema_version, data=bytes(e.data)) for e in events],
        [e.recorded_at for e in events],
        recorded_by=by,
    )


class ClubImportError(Exception):
    """A club file that cannot be imported (nothing was written)."""


def import_club(records: Records, data: bytes) -> ClubExport:
    """Create the club of a club export on this server. The club must not exist here; every game is
    checked (events, chain, times) and every resource version parsed before anything is written."""
    store: ClubStore = records.store
    try:
        document = msgspec.json.decode(data, type=ClubExport)
    except msgspec.DecodeError as error:
        raise ClubImportError(f"Not a club export: {error}") from None
    club_id = check_id(records.limits, "club_id", document.club_id, CLUB_ID_PATTERN)
    if store.get_club(club_id) is not None:
        raise AlreadyExists("club", club_id)
    prepared: list[PreparedGame] = []
    for entry in document.games:
        try:
            prepared.append(records.prepare_import(club_id, [bytes(line) for line in entry.lines], entry.game_id))
        except BadEvent as error:
            raise ClubImportError(f"Game {entry.game_id!r}, event {error.index}: {error.message}") from None
        except (BatchRuleError, UnknownRuleset) as error:
            raise ClubImportError(f"Game {entry.game_id!r}: {error}") from None
    # The club is new here, so none of its game ids is taken (another club's games are no matter).
    _check_references(document)
    store.create_club(club_id, document.name)
    for player in document.players:
        store.create_player(club_id, player.player_id, player.name)
        if player.note or player.retired_at is not None:
            retired = True if player.retired_at is not None else None
            store.update_player(club_id, player.player_id, note=player.note, retired=retired, at=player.retired_at)
    for merge in document.merges:
        store.merge_player(club_id, merge.player_id, merge.into_id, merge.key_id, merge.merged_at)
    for resource in document.resources:
        store.add_resource(club_id, resource.ruleset, resource.kind, resource.resource_id, resource.content)
    by = Recorder(club_id=club_id)
    for game in prepared:
        records.write_import(game, by)
    for entry in document.games:
        if entry.notes:
            _restore(store, notes_stream(club_id, entry.game_id), entry.notes, by)
    for collection in document.collections:
        if collection.events:
            _restore(store, _tournament_stream(club_id, collection.collection_id), collection.events, by)
        store.create_collection(collection.kind, club_id, collection.collection_id, bytes(collection.definition))
        for game_id in collection.game_ids:
            store.add_collection_game(collection.kind, club_id, collection.collection_id, game_id)
        for removal in collection.removals:
            store.record_removal(collection.kind, club_id, collection.collection_id, removal)
    return document


def _check_references(document: ClubExport) -> None:
    """What the writes rely on, checked before the first: resource versions 1, 2, ... in order (a store
    numbers them as they come), and collections naming only the file's games."""
    seen: Counter[tuple[str, str, str]] = Counter()
    for resource in document.resources:
        key = (resource.ruleset, resource.kind, resource.resource_id)
        seen[key] += 1
        if resource.version != seen[key]:
            raise ClubImportError(
                f"Resource {resource.resource_id!r}: version {resource.version} where {seen[key]} was due "
                "(versions come 1, 2, ... in order)."
            )
    for game in document.games:
        for event in game.notes:
            try:
                NOTE_DECODER.decode(bytes(event.data))
            except (msgspec.DecodeError, msgspec.ValidationError) as error:
                raise ClubImportError(f"Game {game.game_id!r}: a note that does not read: {error}") from None
    shapes: dict[str, type] = {"league": League, "campaign": Campaign, "tournament": TournamentCreated}
    # Each id once, so that no write after the first one meets a taken id (a failed import writes nothing).
    for what, ids in (
        ("Players", [p.player_id for p in document.players]),
        ("Games", [g.game_id for g in document.games]),
        ("Leagues, campaigns and tournaments", [f"{c.kind} {c.collection_id}" for c in document.collections]),
        *((f"Games of the {c.kind} {c.collection_id!r}", c.game_ids) for c in document.collections),
    ):
        twice = sorted(ident for ident, n in Counter(ids).items() if n > 1)
        if twice:
            raise ClubImportError(f"{what} listed twice: {twice}.")
    games = {g.game_id for g in document.games}
    for collection in document.collections:
        try:
            msgspec.json.decode(collection.definition, type=shapes[collection.kind])
        except msgspec.DecodeError as error:
            raise ClubImportError(f"The {collection.kind} {collection.collection_id!r}: {error}") from None
        if collection.events and collection.kind != "tournament":
            raise ClubImportError(
                f"The {collection.kind} {collection.collection_id!r} has events: only a tournament has."
            )
        unknown = sorted({*collection.game_ids, *(r.game_id for r in collection.removals)} - games)
        if unknown:
            raise ClubImportError(
                f"The {collection.kind} {collection.collection_id!r} names games not in the file: {unknown}."
            )


def _tournament_stream(club_id: str, tournament_id: str) -> StreamId:
    return stream_id(club_id, tournament_id)
