"""Every event is chained by hash to the one before it in its game: the link is stored with it, checked
by `tablelog verify` over the whole record and by an import of an export, and a changed event is named."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from service.store import open_store
from service.store.base import (
    CHAIN_START,
    LINK_V2,
    AppendRequest,
    GameRecord,
    Linked,
    NewEvent,
    Recorder,
    Store,
    StoredEvent,
    StreamId,
    chain_hash,
    game_stream,
)
from service.usecases.games import BadEvent, ChainBreak, GameRecords, NewGame, SeatSpec
from tests.service.api_support import club_store, write_around
from tests.support.rulesets import RULESETS
from tests.test_e2e import environment, tablelog

BY = Recorder(club_id="c1")


def stream(game_id: str) -> StreamId:
    """The stream of club c1's game."""
    return game_stream("c1", game_id)


def rolled(seat: int, face: int) -> dict[str, Any]:
    return {"type": "tally.rolled", "seat": seat, "face": face}


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    with club_store(database_url) as opened:
        yield opened


def new_game(records: GameRecords, game_id: str) -> None:
    players = [SeatSpec(player_id="alain"), SeatSpec(player_id="bea")]
    records.create_game("c1", NewGame(ruleset="tally", players=players, game_id=game_id), BY)


def recomputed(store: Store, game_id: str) -> list[str]:
    """The links club c1's game's events must hold, computed here from what the store keeps."""
    links, link = [], CHAIN_START
    for event in store.read_stream(stream(game_id)):
        at = Linked("c1", game_id, event.version, event.recorded_at, event.key_id)
        link = LINK_V2 + _sha256(link, "c1", game_id, event, at)
        links.append(link)
    return links


def _sha256(previous: str, club_id: str, game_id: str, event: StoredEvent, at: Linked) -> str:
    # The link's definition restated (service.store.base.link): a change to what it covers fails here.
    digest = hashlib.sha256(previous.encode())
    moment = at.recorded_at.astimezone(UTC).isoformat(timespec="microseconds")
    for part in (club_id, game_id, str(at.version), event.type, str(event.schema_version), moment, at.key_id or ""):
        digest.update(b"\x00" + part.encode())
    digest.update(b"\x00" + event.data)
    return digest.hexdigest()


def test_every_event_is_stored_with_its_link_whichever_worker_appends_it(store: Store) -> None:
    one, two = GameRecords(store, RULESETS), GameRecords(store, RULESETS)
    new_game(one, "g1")
    for version, (worker, face) in enumerate([(one, 3), (two, 4), (two, 1), (one, 2)], start=1):
        worker.append("c1", "g1", [rolled((version - 1) % 2, face)], version, BY)
    two.append("c1", "g1", [rolled(0, 1), rolled(1, 1)], 5, BY)
    stored = [e.chain for e in store.read_stream(stream("g1"))]
    assert len(stored) == 7 and stored == recomputed(store, "g1")
    assert list(one.verify()) == []


def test_a_game_recorded_before_links_were_kept_is_chained_on_from_its_events(store: Store) -> None:
    records = GameRecords(store, RULESETS)
    new_game(records, "template")
    started = store.read_stream(stream("template"))[0]
    # A game as recorded before links were kept: none of its events holds a link.
    listing = GameRecord(
        game_id="g1",
        club_id="c1",
        ruleset="tally",
        ruleset_version="1.0.0",
        player_ids=("alain", "bea"),
        created_at=datetime.now(UTC),
        stream_id=stream("g1"),
    )
    unlinked = [
        NewEvent(type=started.type, schema_version=started.schema_version, data=started.data),
        NewEvent(type="tally.rolled", schema_version=1, data=b'{"type":"tally.rolled","seat":0,"face":5}'),
    ]
    store.append(AppendRequest(stream("g1"), unlinked, 0, recorded_by=BY, game=listing))
    GameRecords(store, RULESETS).append("c1", "g1", [rolled(1, 2)], 2, BY)
    events = store.read_stream(stream("g1"))
    first_kind = chain_hash(chain_hash(CHAIN_START, events[0]), events[1])
    assert events[0].chain is None and events[1].chain is None
    assert events[2].chain == LINK_V2 + _sha256(
        first_kind, "c1", "g1", events[2], Linked("c1", "g1", 3, events[2].recorded_at, None)
    )
    assert list(records.verify(accept_unchained=True)) == []
    assert [(b.game_id, b.version, b.reason) for b in records.verify()] == [
        ("g1", 3, "the events before it have no links (recorded before links were kept)")
    ]


def _change_event(url: str, game_id: str, version: int, data: str) -> None:
    """What only someone with the database's keys could do: turn the append-only triggers off and
    rewrite an event."""
    sql = "UPDATE events SET data = %s WHERE stream_id = %s AND version = %s"
    write_around(url, (sql, (data, stream(game_id), version)))


def test_verify_names_an_event_changed_in_the_database(store: Store, database_url: str) -> None:
    records = GameRecords(store, RULESETS)
    for game_id in ("g1", "g2"):
        new_game(records, game_id)
        records.append("c1", game_id, [rolled(0, 3), rolled(1, 4), rolled(0, 2)], 1, BY)
    _change_event(database_url, "g2", 3, json.dumps(rolled(1, 6)))
    assert list(records.verify()) == [
        ChainBreak(
            club_id="c1",
            game_id="g2",
            version=3,
            type="tally.rolled",
            reason="its link does not follow from the events before it",
        )
    ]


def test_the_verify_command_names_the_changed_event_and_fails(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'club.db'}"
    env = environment(url)
    store = open_store(url)
    store.migrate()
    store.create_club("c1", "Club")
    for player in ("alain", "bea"):
        store.create_player("c1", player, player.capitalize())
    records = GameRecords(store, RULESETS)
    new_game(records, "friday-1")
    records.append("c1", "friday-1", [rolled(0, 3), rolled(1, 4)], 1, BY)
    store.close()
    assert "3 events verified" in tablelog("verify", env=env).stdout
    _change_event(url, "friday-1", 2, json.dumps(rolled(0, 6)))
    failed = tablelog("verify", env=env, check=False)
    assert failed.returncode == 1
    assert "club c1, game friday-1: event 2 (tally.rolled)" in failed.stderr


def test_an_export_carries_the_links_and_an_edited_export_is_refused_naming_the_event(store: Store) -> None:
    records = GameRecords(store, RULESETS)
    new_game(records, "g1")
    records.append("c1", "g1", [rolled(0, 3), rolled(1, 4), rolled(0, 2)], 1, BY)
    lines = records.export_stream("c1", "g1")
    assert [json.loads(line)["tablelog_chain"] for line in lines] == recomputed(store, "g1")
    records.import_stream("c1", lines, BY, game_id="copy")
    assert [e.data for e in store.read_stream(stream("copy"))] == [e.data for e in store.read_stream(stream("g1"))]

    edited = json.loads(lines[2]) | {"face": 5}  # still a legal roll: only the chain tells
    with pytest.raises(BadEvent) as refused:
        records.import_stream("c1", [*lines[:2], json.dumps(edited).encode(), *lines[3:]], BY, game_id="edited")
    assert refused.value.index == 2 and refused.value.field == "tablelog_chain"
    assert "Event 2 (tally.rolled)" in refused.value.message
    assert store.get_game("c1", "edited") is None

    unlinked = [
        json.dumps({k: v for k, v in json.loads(line).items() if k != "tablelog_chain"}).encode() for line in lines
    ]
    with pytest.raises(BadEvent) as refused:
        records.import_stream("c1", unlinked, BY, game_id="older-export")
    assert refused.value.index == 0 and "--accept-unchained" in refused.value.message
    assert store.get_game("c1", "older-export") is None
    records.import_stream("c1", unlinked, BY, game_id="older-export", accept_unchained=True)  # made before links
    assert recomputed(store, "older-export") == [e.chain for e in store.read_stream(stream("older-export"))]
