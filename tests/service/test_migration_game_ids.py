"""Migration 007 (game ids per club) on a database the previous schema made, on both backends: the
database is built at migration 006 and written as the stores of that schema wrote it (games keyed by
their id alone, streams named by it), migrated, then every record is read back, verified, extended and
exported; games recorded since live beside it under the same ids."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
import psycopg
import pytest

from domain.record import GameStarted, decoder, event_union, fold
from domain.ruleset import Player, Result, Setup, Viewer
from service.store import open_store
from service.store import postgres as postgres_store
from service.store import sqlite as sqlite_store
from service.store.base import (
    CHAIN_START,
    AppendResult,
    GameFilter,
    NewEvent,
    Outcome,
    Recorder,
    SpectatorDelay,
    Store,
    StreamId,
    chain_hash,
)
from service.store.migrations import Migration, load_migrations
from service.usecases.games import GameRecords, NewGame, SeatSpec, _new_event
from testkit import tally
from tests.service.test_projector_support import roll
from tests.support.rulesets import RULESETS

BEFORE = "006_ratings_and_exclusions"
UNFINISHED = Result(finished=False, score_unit="", players=())
RESULT = msgspec.json.encode(UNFINISHED).decode()
OUTCOME = msgspec.json.encode(Outcome(finished=False, finished_at=None, result=UNFINISHED)).decode()
STARTED = datetime(2026, 3, 6, 20, 0, tzinfo=UTC)


def game_events(players: Sequence[str], rolls: Sequence[tuple[int, int]]) -> list[NewEvent]:
    """A tally game's events as the record keeps them, chained."""
    seats = tuple(Player(player_id=p, name=p.capitalize(), seat=n) for n, p in enumerate(players))
    started = GameStarted(ruleset="tally", ruleset_version=tally.RULESET.version, setup=Setup(players=seats))
    union = event_union(tally.RULESET)
    moves = [msgspec.convert(roll(seat, face), union) for seat, face in rolls]
    # Links of the first kind, as the stores of schema 006 kept them: each over the link before it and the event.
    events, link = [], CHAIN_START
    for event in [_new_event(e) for e in [started, *moves]]:
        link = chain_hash(link, event)
        events.append(msgspec.structs.replace(event, chain=link))
    return events


FRIDAY = game_events(("alain", "bea"), [(0, 6), (1, 2), (0, 6)])  # c1's, finished: alain wins
SATURDAY = game_events(("bea", "alain"), [(0, 3)])  # c2's, unfinished


def kept_result(pg: bool) -> str:
    """What each store kept of an idempotent append (events 2 to 4 at positions 2 to 4)."""
    if pg:  # the versions; positions are read back from the events
        return '{"first_version": 2, "last_version": 4}'
    kept = AppendResult(stream_id=StreamId("friday-1"), first_version=2, last_version=4, positions=(2, 3, 4))
    return msgspec.json.encode(kept).decode()


@contextmanager
def schema_at(url: str, last: str) -> Iterator[Store]:
    """A store migrated up to `last` only (the code of later migrations is not run)."""
    shipped = load_migrations("sqlite" if url.startswith("sqlite") else "postgres")
    upto: list[Migration] = shipped[: [m.name for m in shipped].index(last) + 1]
    with pytest.MonkeyPatch.context() as patch:
        for module in (sqlite_store, postgres_store):
            patch.setattr(module, "load_migrations", lambda backend: upto)
        store = open_store(url)
        store.migrate()
    try:
        yield store
    finally:
        store.close()


def write_as_before(url: str) -> None:
    """Two clubs' records, as the stores of schema 006 wrote them (game id = stream id)."""
    pg = not url.startswith("sqlite")
    moment = (lambda t: t) if pg else (lambda t: t.isoformat())
    players = (lambda ids: list(ids)) if pg else (lambda ids: json.dumps(list(ids)))
    rows: list[tuple[str, tuple[Any, ...]]] = []
    for club in ("c1", "c2"):
        rows.append(("INSERT INTO clubs (club_id, name, created_at) VALUES (?, ?, ?)", (club, club, moment(STARTED))))
        for player in ("alain", "bea"):
            rows.append(
                ("INSERT INTO players VALUES (?, ?, ?, ?)", (club, player, player.capitalize(), moment(STARTED)))
            )
    position = 0
    for club, game_id, seats, events, finished in (
        ("c1", "friday-1", ("alain", "bea"), FRIDAY, True),
        ("c2", "saturday-1", ("bea", "alain"), SATURDAY, False),
    ):
        ended = STARTED + timedelta(minutes=len(events)) if finished else None
        listing = (game_id, club, "tally", "1.0.0", players(seats), f"{club} night", moment(STARTED))
        rows.append(
            (
                "INSERT INTO games (game_id, club_id, ruleset, ruleset_version, player_ids, title, created_at, "
                "finished, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*listing, finished, moment(ended) if ended else None),
            )
        )
        if not pg:
            rows += [("INSERT INTO game_players (game_id, player_id) VALUES (?, ?)", (game_id, p)) for p in seats]
        for version, event in enumerate(events, start=1):
            position += 1
            rows.append(
                (
                    "INSERT INTO events (position, stream_id, version, type, schema_version, data, recorded_at, "
                    "club_id, key_id, chain) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        position,
                        game_id,
                        version,
                        event.type,
                        event.schema_version,
                        event.data.decode(),
                        moment(STARTED + timedelta(minutes=version)),
                        club,
                        None,
                        event.chain,
                    ),
                )
            )
    rows += [
        (
            "INSERT INTO idempotency_keys (stream_id, key, fingerprint, result, created_at) VALUES (?, ?, ?, ?, ?)",
            ("friday-1", "deal-1", "f" * 64, kept_result(pg), moment(STARTED)),
        ),
        (
            "INSERT INTO collections (club_id, kind, collection_id, definition, created_at) VALUES (?, ?, ?, ?, ?)",
            ("c1", "league", "autumn", "{}", STARTED.isoformat()),
        ),
        (
            "INSERT INTO collection_games (club_id, kind, collection_id, game_id, ordinal, assigned_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            ("c1", "league", "autumn", "friday-1", 1, STARTED.isoformat()),
        ),
        ("INSERT INTO spectator_delays (game_id, events, seconds) VALUES (?, ?, ?)", ("saturday-1", 1, 0)),
        (
            "INSERT INTO replay_snapshots (game_id, version, ruleset_version, data) VALUES (?, ?, ?, ?)",
            ("friday-1", 2, "1.0.0", b"snapshot"),
        ),
        (
            "INSERT INTO game_result_changes (game_id, version, before, after) VALUES (?, ?, ?, ?)",
            ("friday-1", 3, OUTCOME, OUTCOME),
        ),
        (
            "INSERT INTO game_summaries (game_id, club_id, ruleset, ruleset_version, version, applied, started_at, "
            "finished, finished_at, players, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            ("saturday-1", "c2", "tally", "1.0.0", 2, 2, STARTED.isoformat(), False, None, "[]", RESULT),
        ),
    ]
    if pg:
        with psycopg.connect(url, autocommit=False) as conn:
            for sql, params in rows:
                conn.execute(sql.replace("?", "%s"), params)
    else:
        conn = sqlite3.connect(url.removeprefix("sqlite:///"), isolation_level=None)
        conn.execute("BEGIN")
        for sql, params in rows:
            # SQLite numbered positions itself before; here they are given, the same numbers it would take.
            conn.execute(sql, params)
        conn.execute("COMMIT")
        conn.close()


def test_a_database_of_the_previous_schema_migrates_and_reads_back_whole(database_url: str) -> None:
    with schema_at(database_url, BEFORE) as before:
        assert before.pending_migrations()[0] == "007_game_ids_per_club"
    write_as_before(database_url)

    store = open_store(database_url)
    try:
        assert store.migrate()[0] == "007_game_ids_per_club" and store.pending_migrations() == []
        if database_url.startswith("sqlite"):
            conn = sqlite3.connect(database_url.removeprefix("sqlite:///"))
            assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            conn.close()
        check_read_back(store)
    finally:
        store.close()


def check_read_back(store: Store) -> None:
    friday, saturday = store.get_game("c1", "friday-1"), store.get_game("c2", "saturday-1")
    assert friday is not None and saturday is not None
    assert (friday.stream_id, friday.title, friday.player_ids, friday.version) == (
        "friday-1",
        "c1 night",
        ("alain", "bea"),
        4,
    )
    assert friday.finished and friday.finished_at == STARTED + timedelta(minutes=4)
    assert (saturday.stream_id, saturday.version, saturday.finished) == ("saturday-1", 2, False)
    assert store.get_game("c2", "friday-1") is None and store.get_game("c1", "saturday-1") is None
    assert [g.game_id for g in store.list_games("c2", GameFilter(player_id="alain"))] == ["saturday-1"]
    assert [g.game_id for g in store.list_games("c1", GameFilter(player_id="bea"))] == ["friday-1"]
    stored = store.read_stream(friday.stream_id)
    assert [(e.type, e.data, e.chain) for e in stored] == [(e.type, e.data, e.chain) for e in FRIDAY]
    assert [e.recorded_at for e in stored] == [STARTED + timedelta(minutes=v) for v in range(1, 5)]
    # Club records and read models, each with its game.
    assert store.spectator_delay(saturday.stream_id) == SpectatorDelay(events=1)
    assert store.spectator_delay(friday.stream_id) == SpectatorDelay()
    assert [(s.version, s.data) for s in store.snapshots(friday.stream_id)] == [(2, b"snapshot")]
    assert [c.version for c in store.result_changes(friday.stream_id)] == [3]
    league = store.get_collection("league", "c1", "autumn")
    assert league is not None and league.game_ids == ("friday-1",)
    assert store.collections_of_game("c1", "friday-1") == [("league", "autumn")]
    assert list(store.game_summaries("c2", ["saturday-1"])) == ["saturday-1"]
    assert store.game_summaries("c1", ["saturday-1"]) == {}
    replayed = store.replayed_append(friday.stream_id, "deal-1", "f" * 64)
    assert replayed is not None and (replayed.first_version, replayed.last_version) == (2, 4)

    records = GameRecords(store, RULESETS)
    assert list(records.verify()) == []
    _, state = records.state("c1", "friday-1", Viewer.full())
    folded = fold(tally.RULESET, [decoder(tally.RULESET).decode(e.data) for e in FRIDAY])
    assert state == tally.RULESET.view(folded.state, Viewer.full())
    assert records.result("c1", "friday-1", Viewer.public())[1].winners == (0,)
    # The older game's stream goes on, chained to what it held; a new game may take a held id.
    by = Recorder(club_id="c2")
    records.append("c2", "saturday-1", [roll(1, 2)], 2, by)
    seats = [SeatSpec(player_id="alain"), SeatSpec(player_id="bea")]
    made, _ = records.create_game("c2", NewGame(ruleset="tally", players=seats, game_id="friday-1"), by)
    assert made.stream_id == "c2/friday-1"
    assert list(GameRecords(store, RULESETS).verify()) == []
    assert store.get_game("c1", "friday-1") == friday
    # An export of the migrated game imports under the same id at the other club and reads the same.
    lines = records.export_stream("c1", "friday-1")
    records.import_stream("c2", lines, by, game_id="friday-2")
    moved = records.export_stream("c2", "friday-2")
    kept = ("tablelog_recorded_at", "tablelog_key_id")  # the links are new: they cover the new club and id
    assert [_without(line, kept) for line in moved] == [_without(line, kept) for line in lines]
    assert list(GameRecords(store, RULESETS).verify()) == []


def _without(line: bytes, keep: tuple[str, ...]) -> dict[str, Any]:
    """An exported line's event and the export members in `keep`."""
    return {k: v for k, v in json.loads(line).items() if not k.startswith("tablelog_") or k in keep}
