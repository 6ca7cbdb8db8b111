"""Replay lines in plain English, with round and turn chapters."""

from __future__ import annotations

from typing import Any

from domain.milles_nautiques import RULESET
from domain.milles_nautiques.events import AlertPlayed, ConvoyPlaced, Discarded, Drew, WarshipPlayed
from domain.ruleset import Narration
from tests.domain.milles_nautiques.scene import Scene


def told(scene: Scene, event: Any) -> Narration:
    before = scene.state
    scene.do(event)
    return RULESET.narrate(before, event, scene.state)


def test_an_attack_is_told_with_the_attacker_the_ship_and_the_convoys_place_in_its_row():
    scene = Scene(players=3).turn(ConvoyPlaced(seat=0, position=0, card="convoy_5000")).skip(2)
    scene.turn(ConvoyPlaced(seat=0, position=1, card="convoy_2500")).turn(AlertPlayed(seat=1, convoy=2))
    scene.skip(2).draw()
    line = told(scene, WarshipPlayed(seat=1, convoy=2, ship="cruiser"))
    assert line.text == "Bea lays a cruiser against Alain's second convoy."
    assert line.seat == 1
    assert line.chapters == (("round", 1), ("turn", 8))


def test_a_battle_decided_at_the_start_of_a_turn_names_the_convoy_where_it_lay_then():
    scene = Scene().skip().turn(ConvoyPlaced(seat=1, position=0, card="convoy_5000"))
    scene.turn(AlertPlayed(seat=0, convoy=1)).skip().turn(WarshipPlayed(seat=0, convoy=1, ship="cruiser"))
    scene.draw()
    # Bea lays a convoy at the port end (her first one becomes her second) and leaves the cruiser.
    line = told(scene, ConvoyPlaced(seat=1, position=0, card="convoy_2500"))
    assert line.text == (
        "Bea lays a 2,500-ton convoy face down as Bea's first convoy. At the start of Alain's turn, "
        "Alain's ship has held: Bea's second convoy is sunk and captured by Alain."
    )


def test_a_face_down_draw_and_a_discard_say_only_what_the_record_knows():
    scene = Scene()
    assert told(scene, Drew(seat=0)).text == "Alain draws a card."
    assert told(scene, Discarded(seat=0, card="frigate")).text == "Alain discards a frigate."
