"""Moving a game to a new server: an export keeps each event's recorded time and the game's listing
(title, created and finished times), the import restores them in one transaction, so the game lists the
same dates and falls in the same league periods; exports made before those members still import."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import psycopg
import pytest

from projections.standings import League, Scoring, standings
from service.projector import Games, rebuild
from service.store import open_store
from service.store.base import (
    CHAIN_START,
    GameFilter,
    GameRecord,
    NewEvent,
    Recorder,
    Store,
    StoredEvent,
    chain_hash,
    chained,
    game_stream,
)
from service.usecases.collections import league_games
from service.usecases.games import BadEvent, GameRecords, NewGame, SeatSpec
from testkit.waiting import scaled
from tests.service.api_support import club_store
from tests.support.rulesets import RULESETS
from tests.test_e2e import environment, tablelog

BY = Recorder(club_id="c1")
MARCH = datetime(2025, 3, 10, 20, 15, tzinfo=UTC)


def rolled(seat: int, face: int) -> bytes:
    return json.dumps({"type": "tally.rolled", "seat": seat, "face": face}).encode()


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    with club_store(database_url) as opened:
        yield opened


@pytest.fixture
def new_server_url(database_url: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """A second, fresh database on the same backend (the server a club moves to)."""
    if database_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'new-server.db'}"
        return
    base = str(request.getfixturevalue("postgres_url"))
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{base}{'&' if '?' in base else '?'}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def new_server(new_server_url: str) -> Iterator[Store]:
    with club_store(new_server_url) as opened:
        yield opened


def played_in_march(store: Store, game_id: str = "march") -> None:
    """A finished tally game (alain reaches 10) recorded on the old server in March 2025, written as the
    store keeps it: the events' times are in the past, so only kept times put it in a March league."""
    records = GameRecords(store, RULESETS)
    records.create_game("c1", NewGame(ruleset="tally", players=_seats(), game_id="template"), BY)
    records.append("c1", "template", [rolled(0, 6), rolled(1, 2), rolled(0, 6)], 1, BY)
    template = [_as_new(e) for e in store.read_stream(game_stream("c1", "template"))]
    times = [MARCH + timedelta(minutes=5 * i) for i in range(len(template))]
    events = chained(
        CHAIN_START, template, club_id="c1", game_id=game_id, after_version=0, key_id=BY.key_id, recorded_at=times
    )
    listing = GameRecord(
        game_id=game_id,
        club_id="c1",
        ruleset="tally",
        ruleset_version="1.0.0",
        player_ids=("alain", "bea"),
        created_at=MARCH - timedelta(minutes=1),
        finished=True,
        finished_at=times[-1],
        title="Friday night, table 2",
    )
    store.restore_stream(game_id, events, times, recorded_by=BY, game=listing)


def _seats() -> list[SeatSpec]:
    return [SeatSpec(player_id="alain"), SeatSpec(player_id="bea")]


def _as_new(event: StoredEvent) -> NewEvent:
    return NewEvent(type=event.type, schema_version=event.schema_version, data=event.data)


def events_of(store: Store, game_id: str) -> list[StoredEvent]:
    """Club c1's game's events, from the stream its listing names."""
    game = store.get_game("c1", game_id)
    assert game is not None
    return store.read_stream(game.stream_id)


def stored(store: Store, game_id: str) -> list[tuple[int, str, bytes, datetime, str | None]]:
    return [(e.version, e.type, e.data, e.recorded_at, e.chain) for e in events_of(store, game_id)]


def listed(store: Store, game_id: str) -> tuple[object, ...]:
    game = store.get_game("c1", game_id)
    assert game is not None
    return (game.title, game.created_at, game.version, game.finished, game.finished_at, game.player_ids)


def march_table(store: Store, game_id: str, starts: date, ends: date) -> list[tuple[str, bool, str]]:
    """How the game counts in a league over [starts, ends], as the projector and standings see it."""
    # On PostgreSQL the global log shows an event once no older transaction is open on the server (the
    # read gate), and other tests' transactions run beside this one: rebuild until the game is projected.
    deadline = time.monotonic() + scaled(10)
    rebuild(store, Games(store, RULESETS))
    while not store.game_summaries("c1", [game_id]) and time.monotonic() < deadline:
        time.sleep(0.05)
        rebuild(store, Games(store, RULESETS))
    league = League(
        league_id="spring",
        ruleset="tally",
        members=("alain", "bea"),
        starts=starts,
        ends=ends,
        scoring=Scoring(win_draw_loss=(3, 1, 0)),
    )
    table = standings(league, league_games([game_id], store.game_summaries("c1", [game_id])))
    return [(line.finished_at.isoformat(), line.counted, line.note) for line in table.games]


def test_a_game_moved_to_a_new_server_keeps_its_events_times_title_and_end(store: Store, new_server: Store) -> None:
    played_in_march(store)
    lines = GameRecords(store, RULESETS).export_stream("c1", "march")
    first = json.loads(lines[0])
    assert first["tablelog_game"] == {
        "club_id": "c1",
        "game_id": "march",
        "title": "Friday night, table 2",
        "created_at": "2025-03-10T20:14:00Z",
        "finished_at": "2025-03-10T20:30:00Z",
    }
    assert [json.loads(line)["tablelog_recorded_at"] for line in lines][-1] == "2025-03-10T20:30:00Z"

    GameRecords(new_server, RULESETS).import_stream("c1", lines, BY, game_id="march")
    assert stored(new_server, "march") == stored(store, "march")
    assert listed(new_server, "march") == listed(store, "march")
    assert listed(new_server, "march")[4] == MARCH + timedelta(minutes=15)
    # A second move gives the same file: nothing is lost or added on the way.
    assert GameRecords(new_server, RULESETS).export_stream("c1", "march") == lines


def test_a_moved_game_falls_in_the_same_league_period_as_on_the_old_server(store: Store, new_server: Store) -> None:
    played_in_march(store)
    GameRecords(new_server, RULESETS).import_stream(
        "c1", GameRecords(store, RULESETS).export_stream("c1", "march"), BY, "march"
    )
    march = (date(2025, 3, 1), date(2025, 3, 31))
    counted = [("2025-03-10T20:30:00+00:00", True, "")]
    assert march_table(store, "march", *march) == counted
    assert march_table(new_server, "march", *march) == counted
    april = march_table(new_server, "march", date(2025, 4, 1), date(2025, 4, 30))
    assert april == [("2025-03-10T20:30:00+00:00", False, "outside the league's period")]


def test_a_game_recorded_here_keeps_its_exact_times_through_an_export(store: Store, new_server: Store) -> None:
    records = GameRecords(store, RULESETS)
    records.create_game("c1", NewGame(ruleset="tally", players=_seats(), game_id="g1", title="Club night"), BY)
    records.append("c1", "g1", [rolled(0, 3), rolled(1, 4)], 1, BY)
    records.append("c1", "g1", [rolled(0, 2)], 3, BY)
    GameRecords(new_server, RULESETS).import_stream("c1", records.export_stream("c1", "g1"), BY, game_id="g1")
    assert stored(new_server, "g1") == stored(store, "g1")
    assert listed(new_server, "g1") == listed(store, "g1")
    assert listed(new_server, "g1")[:4] == ("Club night", store.get_game("c1", "g1").created_at, 4, False)  # type: ignore[union-attr]


def test_an_export_made_before_times_were_kept_still_imports_at_the_time_of_the_import(
    store: Store, new_server: Store
) -> None:
    played_in_march(store)
    # An export of then: no times, no keys, no listing, and links of the first kind (the events alone).
    new_members = ("tablelog_recorded_at", "tablelog_game", "tablelog_key_id", "tablelog_chain")
    first_kind, link = [], CHAIN_START
    for event in events_of(store, "march"):
        link = chain_hash(link, event)
        first_kind.append(link)
    older = [
        json.dumps(
            {k: v for k, v in json.loads(line).items() if k not in new_members} | {"tablelog_chain": chain}
        ).encode()
        for line, chain in zip(GameRecords(store, RULESETS).export_stream("c1", "march"), first_kind, strict=True)
    ]
    before = datetime.now(UTC)
    GameRecords(new_server, RULESETS).import_stream("c1", older, BY, game_id="march")
    game = new_server.get_game("c1", "march")
    assert game is not None and game.title == "" and game.finished and game.created_at >= before
    assert [e.data for e in events_of(new_server, "march")] == [e.data for e in events_of(store, "march")]
    assert all(e.recorded_at >= before for e in events_of(new_server, "march"))


def test_an_edited_time_out_of_order_is_refused_and_nothing_is_stored(store: Store, new_server: Store) -> None:
    played_in_march(store)
    lines = GameRecords(store, RULESETS).export_stream("c1", "march")
    edited = json.loads(lines[2]) | {"tablelog_recorded_at": "2025-03-09T10:00:00Z"}
    with pytest.raises(BadEvent) as refused:
        GameRecords(new_server, RULESETS).import_stream(
            "c1", [lines[0], lines[1], json.dumps(edited).encode(), *lines[3:]], BY
        )
    assert refused.value.index == 2 and refused.value.field == "tablelog_recorded_at"
    assert new_server.list_games("c1", GameFilter()) == []


def test_the_export_and_import_commands_carry_the_times_between_two_servers(tmp_path: Path) -> None:
    old_url = f"sqlite:///{tmp_path / 'old.db'}"
    new_url = f"sqlite:///{tmp_path / 'new.db'}"
    with club_store(old_url) as old:
        played_in_march(old)
    with club_store(new_url):
        pass
    exported = tmp_path / "march.jsonl"
    tablelog("export", "march", "--club", "c1", "-o", str(exported), env=environment(old_url))
    imported = tablelog("import", str(exported), "--club", "c1", "--game-id", "march", env=environment(new_url))
    assert "game march imported: 4 events" in imported.stdout
    again = tablelog(
        "import", str(exported), "--club", "c1", "--game-id", "march", env=environment(new_url), check=False
    )
    assert again.returncode == 1 and again.stderr.count("\n") == 1 and "march" in again.stderr
    with _opened(new_url) as moved:
        assert listed(moved, "march")[4] == MARCH + timedelta(minutes=15)


@contextmanager
def _opened(url: str) -> Iterator[Store]:
    opened = open_store(url)
    try:
        yield opened
    finally:
        opened.close()


def test_an_import_without_an_id_gets_a_readable_one_of_the_day_the_game_was_played(
    store: Store, new_server: Store
) -> None:
    played_in_march(store)
    lines = GameRecords(store, RULESETS).export_stream("c1", "march")
    records = GameRecords(new_server, RULESETS)
    first, _ = records.import_stream("c1", lines, BY)
    second, _ = records.import_stream("c1", lines, BY)
    # The day the game was started (its listing), `t` for Tally, the club's number for that day and game.
    assert (first.game_id, second.game_id) == ("2025-03-10-t-1", "2025-03-10-t-2")
    # the same events and times; the links are new, as they cover the game's new id
    assert [e[:4] for e in stored(new_server, first.game_id)] == [e[:4] for e in stored(store, "march")]
    assert list(records.verify()) == []
