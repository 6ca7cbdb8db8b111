"""A record that shows tampering (issue 25, part 6): the five ways `tablelog verify` used to be walked around,
each done here as someone who can write the database's rows would, and each found: links set to NULL, an
event rewritten with every link after it recomputed, a game cut short, an event's time or key changed, and a
rule-breaking event or a swapped listing written by the app's own restricted role."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest

from service.store import open_store
from service.store.base import CHAIN_START, Linked, NewEvent, Recorder, Store, game_stream, link
from service.store.roles import migrate_database
from service.usecases import checkpoints
from service.usecases.games import GameRecords, NewGame, SeatSpec
from tests.service.api_support import club_store, write_around
from tests.service.test_app_role import app_url  # noqa: F401  (a fixture)
from tests.support.rulesets import RULESETS
from tests.test_e2e import environment, tablelog

BY = Recorder(club_id="c1", key_id="k-scorer")


def rolled(seat: int, face: int) -> dict[str, Any]:
    return {"type": "tally.rolled", "seat": seat, "face": face}


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    with club_store(database_url) as opened:
        yield opened


def played(records: GameRecords, game_id: str, faces: tuple[int, ...] = (3, 4, 2)) -> None:
    seats = [SeatSpec(player_id="alain"), SeatSpec(player_id="bea")]
    records.create_game("c1", NewGame(ruleset="tally", players=seats, game_id=game_id), BY)
    records.append("c1", game_id, [rolled(i % 2, face) for i, face in enumerate(faces)], 1, BY)


def reasons(records: GameRecords, **options: Any) -> list[tuple[str, int, str]]:
    return [(b.game_id, b.version, b.reason) for b in records.verify(**options)]


def test_links_set_to_null_are_a_break_not_a_skip(store: Store, database_url: str) -> None:
    records = GameRecords(store, RULESETS)
    played(records, "g1")
    write_around(
        database_url,
        ("UPDATE events SET chain = NULL WHERE stream_id = %s AND version >= 3", (game_stream("c1", "g1"),)),
    )
    assert reasons(GameRecords(store, RULESETS)) == [("g1", 3, "its link is missing")]
    # and all of a game's links gone reads as a game with none, which is refused unless said otherwise
    write_around(database_url, ("UPDATE events SET chain = NULL WHERE stream_id = %s", (game_stream("c1", "g1"),)))
    assert reasons(GameRecords(store, RULESETS)) == [
        ("g1", 1, "the game has no links (recorded before links were kept)")
    ]


def test_the_schema_refuses_an_unlinked_event_after_a_linked_one(store: Store, database_url: str) -> None:
    records = GameRecords(store, RULESETS)
    played(records, "g1")
    stream = game_stream("c1", "g1")
    insert = (
        "INSERT INTO events (position, stream_id, version, type, schema_version, data, club_id) "
        "VALUES (%s, %s, 5, 'tally.rolled', 1, %s, 'c1')"
    )
    with pytest.raises((sqlite3.DatabaseError, psycopg.Error), match="carry their link"):
        write_around(database_url, (insert, (10**12, stream, json.dumps(rolled(1, 1)))), triggers_off=False)
    assert len(store.read_stream(stream)) == 4


def _rewritten(store: Store, url: str, game_id: str, version: int, data: dict[str, Any]) -> None:
    """Event `version` rewritten and every link from it on recomputed, as anyone who can read the code can."""
    stream = game_stream("c1", game_id)
    events = store.read_stream(stream)
    statements = []
    previous = events[version - 2].chain or CHAIN_START
    for event in events[version - 1 :]:
        body = json.dumps(data).encode() if event.version == version else event.data
        at = Linked("c1", game_id, event.version, event.recorded_at, event.key_id)
        previous = link(previous, NewEvent(type=event.type, schema_version=event.schema_version, data=body), at)
        statements.append(
            (
                "UPDATE events SET data = %s, chain = %s WHERE stream_id = %s AND version = %s",
                (body.decode(), previous, stream, event.version),
            )
        )
    write_around(url, *statements)


def _signed(tmp_path: Path, records: GameRecords) -> tuple[list[checkpoints.Checkpoint], Any]:
    key_file = tmp_path / "signing.pem"
    checkpoints.new_signing_key(key_file)
    key = checkpoints.signing_key(key_file)
    return checkpoints.take(records, key), key.public_key()


def test_links_recomputed_after_a_rewrite_are_found_against_the_signed_checkpoint(
    store: Store, database_url: str, tmp_path: Path
) -> None:
    records = GameRecords(store, RULESETS)
    played(records, "g1")
    played(records, "g2")
    signed, public = _signed(tmp_path, records)
    assert list(checkpoints.check(records, signed, public)) == []
    _rewritten(store, database_url, "g1", 3, rolled(1, 6))  # still a legal roll: only the checkpoint tells
    fresh = GameRecords(store, RULESETS)
    assert reasons(fresh) == []
    assert [(b.game_id, b.version, b.reason) for b in checkpoints.check(fresh, signed, public)] == [
        ("g1", 4, "its link differs from the one signed: the game was rewritten since")
    ]


def test_a_game_cut_short_or_removed_is_found_against_the_signed_checkpoint(
    store: Store, database_url: str, tmp_path: Path
) -> None:
    records = GameRecords(store, RULESETS)
    played(records, "g1")
    played(records, "g2")
    signed, public = _signed(tmp_path, records)
    write_around(
        database_url,
        ("DELETE FROM events WHERE stream_id = %s AND version >= 3", (game_stream("c1", "g1"),)),
        ("DELETE FROM events WHERE stream_id = %s", (game_stream("c1", "g2"),)),
        ("DELETE FROM games WHERE club_id = 'c1' AND game_id = %s", ("g2",)),
    )
    fresh = GameRecords(store, RULESETS)
    assert reasons(fresh) == []  # what is left of g1 is a well-linked, legal game
    found = [(b.game_id, b.reason) for b in checkpoints.check(fresh, signed, public)]
    assert found[0][0] == "g1" and found[0][1].endswith("only 2 remain")
    assert found[1][0] == "g2" and found[1][1].startswith("the game was removed since its checkpoint")


def test_a_checkpoint_not_signed_by_the_key_is_reported_and_not_trusted(store: Store, tmp_path: Path) -> None:
    records = GameRecords(store, RULESETS)
    played(records, "g1")
    signed, public = _signed(tmp_path, records)
    forged = [signed[0].__class__(**{**_fields(signed[0]), "version": 1})]
    assert [b.reason for b in checkpoints.check(records, forged, public)] == [
        "a checkpoint of it is not signed by the key given: it was forged or changed"
    ]


def _fields(checkpoint: checkpoints.Checkpoint) -> dict[str, Any]:
    return {f: getattr(checkpoint, f) for f in checkpoint.__struct_fields__}


def test_an_events_time_or_key_changed_breaks_its_link(store: Store, database_url: str) -> None:
    records = GameRecords(store, RULESETS)
    played(records, "g1")
    played(records, "g2")
    earlier = datetime.now(UTC) - timedelta(days=30)
    write_around(
        database_url,
        (
            "UPDATE events SET recorded_at = %s WHERE stream_id = %s AND version = 2",
            (_moment(database_url, earlier), game_stream("c1", "g1")),
        ),
        ("UPDATE events SET key_id = 'k-other' WHERE stream_id = %s AND version = 3", (game_stream("c1", "g2"),)),
    )
    broken = "its link does not follow from the events before it"
    assert sorted(reasons(GameRecords(store, RULESETS))) == [("g1", 2, broken), ("g2", 3, broken)]


def _moment(url: str, moment: datetime) -> Any:
    return moment.isoformat() if url.startswith("sqlite") else moment


def test_a_rule_breaking_event_with_a_correct_link_is_found_by_the_rules(store: Store, database_url: str) -> None:
    records = GameRecords(store, RULESETS)
    played(records, "g1")
    _insert_linked(database_url, store, "g1", rolled(1, 9))  # a nine on a die: T-rules refuse it
    found = reasons(GameRecords(store, RULESETS))
    assert [(g, v) for g, v, _ in found] == [("g1", 5)]
    assert found[0][2].startswith("the rules refuse it")


def _insert_linked(url: str, store: Store, game_id: str, data: dict[str, Any], as_app_role: bool = False) -> None:
    stream = game_stream("c1", game_id)
    last = store.read_stream(stream)[-1]
    moment = datetime.now(UTC)
    body = json.dumps(data).encode()
    at = Linked("c1", game_id, last.version + 1, moment, BY.key_id)
    chain = link(last.chain or CHAIN_START, NewEvent(type="tally.rolled", schema_version=1, data=body), at)
    write_around(
        url,
        (
            "INSERT INTO events (position, stream_id, version, type, schema_version, data, recorded_at, club_id, "
            "key_id, chain) VALUES (%s, %s, %s, 'tally.rolled', 1, %s, %s, 'c1', %s, %s)",
            (last.position + 10**9, stream, last.version + 1, body.decode(), _moment(url, moment), BY.key_id, chain),
        ),
        triggers_off=False,
    )


def test_a_listing_pointed_at_another_games_stream_breaks_both_chains(store: Store, database_url: str) -> None:
    records = GameRecords(store, RULESETS)
    played(records, "g1")
    played(records, "g2", faces=(1, 1, 1))
    one, two = game_stream("c1", "g1"), game_stream("c1", "g2")
    write_around(
        database_url,
        ("UPDATE games SET stream_id = %s WHERE game_id = 'g1'", ("swap",)),
        ("UPDATE games SET stream_id = %s WHERE game_id = 'g2'", (one,)),
        ("UPDATE games SET stream_id = %s WHERE game_id = 'g1'", (two,)),
        triggers_off=False,
    )
    found = reasons(GameRecords(store, RULESETS))
    # every event of both games is now linked to another game's identity, from the first on
    assert {(g, v) for g, v, _ in found} == {("g1", v) for v in range(1, 5)} | {("g2", v) for v in range(1, 5)}


@pytest.mark.postgres
def test_the_app_role_can_write_a_rule_breaking_event_and_swap_listings_and_verify_finds_both(
    app_url: tuple[str, str],  # noqa: F811
) -> None:
    url, owner = app_url
    migrate_database(url, owner)
    with club_store(owner):
        pass  # the club and its players, made by the owner
    as_app = open_store(url)
    try:
        records = GameRecords(as_app, RULESETS)
        played(records, "g1")
        played(records, "g2", faces=(1, 1, 1))
        _insert_linked(url, as_app, "g1", rolled(0, 0))
        one, two = game_stream("c1", "g1"), game_stream("c1", "g2")
        write_around(
            url,
            ("UPDATE games SET stream_id = %s WHERE game_id = 'g1'", ("swap",)),
            ("UPDATE games SET stream_id = %s WHERE game_id = 'g2'", (one,)),
            ("UPDATE games SET stream_id = %s WHERE game_id = 'g1'", (two,)),
            triggers_off=False,
        )
    finally:
        as_app.close()
    owner_store = open_store(owner)
    try:
        found = reasons(GameRecords(owner_store, RULESETS))
    finally:
        owner_store.close()
    assert {(g, v) for g, v, _ in found} >= {("g1", 1), ("g2", 1)}


def test_the_checkpoint_and_verify_commands_find_a_game_cut_short(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'club.db'}"
    env = environment(url)
    with club_store(url) as store:
        played(GameRecords(store, RULESETS), "friday-1")
    key, public, signed = tmp_path / "signing.pem", tmp_path / "public.pem", tmp_path / "checkpoints.jsonl"
    public.write_text(tablelog("checkpoint", "--new-key", str(key), env=env).stdout)
    assert tablelog("checkpoint", "--new-key", str(key), env=env, check=False).returncode == 2  # never overwritten
    assert (
        "1 games checkpointed"
        in tablelog("checkpoint", "--signing-key", str(key), "--out", str(signed), env=env).stdout
    )
    check = ("verify", "--checkpoints", str(signed), "--public-key", str(public))
    assert "against 1 signed checkpoints" in tablelog(*check, env=env).stdout
    write_around(url, ("DELETE FROM events WHERE stream_id = %s AND version = 4", (game_stream("c1", "friday-1"),)))
    failed = tablelog(*check, env=env, check=False)
    assert failed.returncode == 1
    assert "club c1, game friday-1: event 4 (checkpoint): events up to 4 were signed on" in failed.stderr
    assert "only 3 remain" in failed.stderr


def test_the_import_command_refuses_an_export_without_links_unless_told(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'club.db'}"
    env = environment(url)
    with club_store(url) as store:
        played(GameRecords(store, RULESETS), "friday-1")
    exported = tablelog("export", "friday-1", "--club", "c1", env=env).stdout.splitlines()
    unlinked = tmp_path / "unlinked.jsonl"
    unlinked.write_text(
        "".join(
            json.dumps({k: v for k, v in json.loads(line).items() if k != "tablelog_chain"}) + "\n" for line in exported
        )
    )
    refused = tablelog("import", str(unlinked), "--club", "c1", "--game-id", "copy", env=env, check=False)
    assert refused.returncode != 0 and "--accept-unchained" in refused.stderr and "Traceback" not in refused.stderr
    taken = tablelog("import", str(unlinked), "--club", "c1", "--game-id", "copy", "--accept-unchained", env=env)
    assert "game copy imported: 4 events" in taken.stdout
