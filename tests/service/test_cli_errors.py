"""Every `tablelog` command tells an error in one line on stderr, never a traceback (issue 17): a taken club
id, a missing file, an import into a club whose game id is taken, a refused event, a missing club or
game, a database that cannot be opened; and a refused import leaves nothing behind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.cli import main
from service.store import open_store
from service.store.base import GameFilter, Recorder
from service.usecases.games import GameRecords, NewGame, SeatSpec
from tests.service.api_support import club_store
from tests.service.test_projector_support import roll
from tests.support.rulesets import RULESETS


@pytest.fixture
def url(tmp_path: Path) -> str:
    """A club c1 (players alain, bea) with one game, friday-1, four events long."""
    url = f"sqlite:///{tmp_path / 'club.db'}"
    with club_store(url) as store:
        records = GameRecords(store, RULESETS)
        seats = [SeatSpec(player_id="alain"), SeatSpec(player_id="bea")]
        records.create_game("c1", NewGame(ruleset="tally", players=seats, game_id="friday-1"), Recorder(club_id="c1"))
        records.append("c1", "friday-1", [roll(0, 3), roll(1, 4), roll(0, 2)], 1, Recorder(club_id="c1"))
    return url


def refused(capsys: pytest.CaptureFixture[str], status: int, *argv: str) -> str:
    """Run a command that must fail with `status`; its stderr, checked to be one line."""
    assert main(list(argv), rulesets=RULESETS) == status
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err.strip()


def contents(url: str) -> tuple[object, ...]:
    """Everything an import could write: clubs, players, games, events."""
    store = open_store(url)
    try:
        clubs = store.list_clubs()
        return (
            [c.club_id for c in clubs],
            [(c.club_id, [p.player_id for p in store.list_players(c.club_id)]) for c in clubs],
            [(c.club_id, [g.game_id for g in store.list_games(c.club_id, GameFilter())]) for c in clubs],
            store.count_events(),
        )
    finally:
        store.close()


def test_a_taken_or_malformed_club_id_is_one_line(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    db = ("--database-url", url)
    assert refused(capsys, 1, "club", "create", "c1", "Again", *db) == "club 'c1' already exists."
    assert refused(capsys, 1, "club", "create", "Bad/Id", "Bad", *db).startswith("club_id: must match ")
    assert refused(capsys, 2, "key", "create", "nope", *db) == "no club 'nope'"
    assert refused(capsys, 2, "key", "list", "nope", *db) == "no club 'nope'"
    assert refused(capsys, 2, "key", "revoke", "nope", *db) == "no key 'nope'"
    assert refused(capsys, 2, "club", "export", "nope", *db) == "No club 'nope'."
    assert refused(capsys, 2, "export", "friday-2", "--club", "c1", *db) == "no game 'friday-2' in club 'c1'"


def test_missing_files_are_one_line(url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = ("--database-url", url)
    missing = str(tmp_path / "nope.jsonl")
    assert refused(capsys, 1, "import", missing, "--club", "c1", *db) == f"{missing}: No such file or directory"
    assert refused(capsys, 1, "club", "import", missing, *db) == f"{missing}: No such file or directory"
    assert refused(capsys, 1, "resource", "import", "tally", "deck", missing, "--club", "c1", *db) == (
        f"{missing}: No such file or directory"
    )
    unwritable = str(tmp_path / "no-such-folder" / "out.jsonl")
    assert refused(capsys, 1, "export", "friday-1", "--club", "c1", "-o", unwritable, *db) == (
        f"{unwritable}: No such file or directory"
    )
    nowhere = f"sqlite:///{tmp_path / 'no-such-folder' / 'club.db'}"
    assert refused(capsys, 1, "migrate", "--database-url", nowhere).startswith(
        "the database refused or could not be reached: unable to open database file"
    )


def test_a_refused_game_import_is_one_line_and_writes_nothing(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = ("--database-url", url)
    exported = tmp_path / "friday.jsonl"
    assert main(["export", "friday-1", "--club", "c1", "-o", str(exported), *db], rulesets=RULESETS) == 0
    lines = exported.read_text().splitlines()
    # Into another club a new player would be made: a refusal must not leave it behind.
    assert main(["club", "create", "c2", "Club Two", *db], rulesets=RULESETS) == 0
    before = contents(url)
    assert refused(capsys, 1, "import", str(exported), "--club", "c1", "--game-id", "friday-1", *db) == (
        "game 'friday-1' already exists."
    )
    assert refused(capsys, 1, "import", str(exported), "--club", "c2", "--game-id", "a/b", *db).startswith(
        "game_id: must match "
    )
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join([*lines[:2], json.dumps(json.loads(lines[2]) | {"seat": 0}), *lines[3:]]) + "\n")
    assert refused(capsys, 1, "import", str(edited), "--club", "c2", *db) == (
        "line 3 (tally.rolled) refused by rule T-1: It is seat 1's turn."
    )
    garbled = tmp_path / "garbled.jsonl"
    garbled.write_text("{not json\n")
    assert refused(capsys, 1, "import", str(garbled), "--club", "c2", *db).startswith("line 1: ")
    assert refused(capsys, 2, "import", str(exported), "--club", "nope", *db) == "no club 'nope'"
    assert contents(url) == before


def test_a_refused_club_import_is_one_line_and_writes_nothing(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = ("--database-url", url)
    exported = tmp_path / "club.json"
    assert main(["club", "export", "c1", "-o", str(exported), *db], rulesets=RULESETS) == 0
    document = json.loads(exported.read_text())
    before = contents(url)
    assert refused(capsys, 1, "club", "import", str(exported), *db) == "club 'c1' already exists."
    for change, message in (
        ({"players": document["players"] * 2}, "Players listed twice: ['alain', 'bea']."),
        ({"games": document["games"] * 2}, "Games listed twice: ['friday-1']."),
        ({"club_id": "C/2"}, "club_id: must match "),
        ({"format": "other"}, "Not a club export: "),
    ):
        moved = tmp_path / "moved.json"
        moved.write_text(json.dumps(document | {"club_id": "c2"} | change))
        assert refused(capsys, 1, "club", "import", str(moved), *db).startswith(message)
    assert contents(url) == before


def test_a_refused_resource_import_is_one_line_and_a_bad_file_one_line_per_row(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = ("--database-url", url)
    deck = tmp_path / "deck.csv"
    deck.write_text("x\n")
    assert refused(capsys, 1, "resource", "import", "no-such-game", "deck", str(deck), "--club", "c1", *db) == (
        "Unknown ruleset 'no-such-game'."
    )
    assert refused(capsys, 2, "resource", "import", "tally", "deck", str(deck), "--club", "nope", *db) == (
        "no club 'nope'"
    )
    assert refused(capsys, 2, "resource", "import", "tally", "deck", str(deck), "--club", "c1", *db) == (
        "No resource kind 'tally/deck'."
    )
    bad = tmp_path / "catalogue.csv"
    bad.write_text("id,name\nzz,zz\n")
    assert main(["catalogue", "import", "atlantic-storm", str(bad), "--club", "c1", *db], rulesets=RULESETS) == 1
    first, *rows = capsys.readouterr().err.splitlines()
    assert first == "The catalogue's header lacks columns."
    assert rows and all(row.startswith("  row=1, field=") for row in rows)
    store = open_store(url)
    assert store.list_resources("c1") == []
    store.close()


def test_a_resource_the_decoder_or_the_csv_reader_cannot_read_is_one_line_and_writes_nothing(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = ("--database-url", url)
    deep = tmp_path / "deep.m44"
    deep.write_bytes(b"[" * 10_000 + b"]" * 10_000)
    assert refused(capsys, 1, "resource", "import", "memoire-44", "scenario", str(deep), "--club", "c1", *db) == (
        "The scenario file is nested too deep to be read."
    )
    header = "number,name,side,nationality,type,unit,air,surface,submarine,years,ocean,vp,special,fate_victim"
    long = tmp_path / "long.csv"
    long.write_text(header + ",victim,cargo,source\n" + "x" * 131_073 + "\n")
    assert main(["catalogue", "import", "atlantic-storm", str(long), "--club", "c1", *db], rulesets=RULESETS) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.splitlines() == [
        "The catalogue has 1 error(s).",
        "  row=2, field=, message=The line is not CSV: field larger than field limit (131072).",
    ]
    store = open_store(url)
    assert store.list_resources("c1") == []
    store.close()
