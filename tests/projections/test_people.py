"""Merged records read as one person (`projections.people`), and names told apart (`told_apart`)."""

from __future__ import annotations

from datetime import UTC, datetime

from domain.ruleset import Player
from projections.people import People
from service.store.base import ClubPlayer
from service.usecases.clubs import told_apart


def test_a_merged_id_reads_as_its_person_through_a_chain_and_each_person_is_listed_once() -> None:
    people = People({"p-alain": "alain", "old-alain": "p-alain"})
    assert [people(p) for p in ("alain", "p-alain", "old-alain", "bea")] == ["alain", "alain", "alain", "bea"]
    assert people.ids(["p-alain", "bea", "alain", "old-alain"]) == ("alain", "bea")
    assert people.records_of("alain", ["bea", "old-alain", "alain", "p-alain"]) == ["alain", "old-alain", "p-alain"]
    seated = people.seated(
        (Player(player_id="p-alain", name="Alain", seat=0), Player(player_id="bea", name="Bea", seat=1))
    )
    assert [(p.player_id, p.name, p.seat) for p in seated] == [("alain", "Alain", 0), ("bea", "Bea", 1)]
    assert not People() and People()("x") == "x"


def _player(player_id: str, name: str, note: str = "") -> ClubPlayer:
    return ClubPlayer(club_id="c1", player_id=player_id, name=name, note=note, created_at=datetime.now(UTC))


def test_two_players_of_one_name_are_told_apart_by_their_notes_or_else_their_ids() -> None:
    noted = told_apart([_player("a1", "Alain", "Tuesdays"), _player("a2", "alain", "Fridays"), _player("b", "Bea")])
    assert noted == {"a1": "Alain (Tuesdays)", "a2": "alain (Fridays)", "b": "Bea"}
    # A note missing or the same on both does not tell them apart: their ids do.
    same = told_apart([_player("a1", "Alain", "club"), _player("a2", "Alain", "Club")])
    assert same == {"a1": "Alain (a1)", "a2": "Alain (a2)"}
    assert told_apart([_player("a1", "Alain", "Tuesdays")]) == {"a1": "Alain"}
