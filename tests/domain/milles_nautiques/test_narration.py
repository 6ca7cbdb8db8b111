"""Replay lines in plain English, with round and turn chapters (issue 16): convoys are named by the order
their layer laid them, and the end of a round says who won it and why (MN-15, MN-16, MN-20)."""

from __future__ import annotations

from typing import Any

from domain.milles_nautiques import RULESET
from domain.milles_nautiques.events import (
    AlertPlayed,
    ConvoyPlaced,
    ConvoysRevealed,
    Discarded,
    Drew,
    MilesPlayed,
    RadarPlayed,
    RevealedConvoy,
    WarshipPlayed,
)
from domain.milles_nautiques.scoring import points_text
from domain.ruleset import Narration, Viewer
from tests.domain.milles_nautiques.harness import Scene, laid_and_sailed_in


def told(scene: Scene, event: Any) -> Narration:
    before = scene.state
    scene.do(event)
    return RULESET.narrate(before, event, scene.state, Viewer.public())


def last_line(scene: Scene) -> str:
    """The replay line of the latest event the scene played."""
    return RULESET.narrate(scene.before, scene.latest, scene.state, Viewer.public()).text


def test_a_convoy_is_named_by_the_order_its_layer_laid_it_not_by_its_place_in_the_row():
    # Alain's second convoy goes to the port end: first in his row, still his second convoy.
    scene = Scene(players=3).turn(ConvoyPlaced(seat=0, position=0, card="convoy_5000")).skip(2)
    scene.turn(ConvoyPlaced(seat=0, position=0, card="convoy_2500")).turn(AlertPlayed(seat=1, convoy=2))
    assert scene.state.rows[0] == (2, 1)
    scene.skip(2).draw()
    line = told(scene, WarshipPlayed(seat=1, convoy=2, ship="cruiser"))
    assert line.text == "Bea lays a cruiser against Alain's second convoy."
    assert line.seat == 1
    assert line.chapters == (("round", 1), ("turn", 8))


def test_a_convoy_laid_says_where_it_lies_in_the_row_and_never_what_it_is():
    scene = Scene()
    assert told(scene.draw(), ConvoyPlaced(seat=0, position=0, card="convoy_5000")).text == (
        "Alain lays a convoy face down to open the row: Alain's first convoy."
    )
    scene.skip()
    assert told(scene.draw(), ConvoyPlaced(seat=0, position=1)).text == (
        "Alain lays a convoy face down at the starboard end of the row: Alain's second convoy."
    )
    scene.skip()
    assert told(scene.draw(), ConvoyPlaced(seat=0, position=1, card="trawler")).text == (
        "Alain lays a convoy face down between Alain's first convoy and Alain's second convoy: Alain's third convoy."
    )


def test_in_team_play_a_convoy_is_named_after_the_partner_who_laid_it():
    scene = Scene(players=4, teams=True).turn(ConvoyPlaced(seat=0, position=0, card="convoy_5000")).skip()
    line = told(scene.draw(), ConvoyPlaced(seat=2, position=0, card="convoy_2500"))
    assert line.text == "Claire lays a convoy face down at the port end of the row: Claire's first convoy."
    assert told(scene.draw(), RadarPlayed(seat=3, convoy=2)).text == (
        "Damien's radar detects Claire's first convoy: it is a 2,500-ton convoy."
    )


def test_a_battle_decided_at_the_start_of_a_turn_names_the_convoy_by_its_laying_order():
    scene = Scene().skip().turn(ConvoyPlaced(seat=1, position=0, card="convoy_5000"))
    scene.turn(AlertPlayed(seat=0, convoy=1)).skip().turn(WarshipPlayed(seat=0, convoy=1, ship="cruiser"))
    scene.draw()
    # Bea lays a second convoy at the port end and leaves the cruiser unanswered.
    line = told(scene, ConvoyPlaced(seat=1, position=0, card="convoy_2500"))
    assert line.text == (
        "Bea lays a convoy face down at the port end of the row: Bea's second convoy. "
        "At the start of Alain's turn, Alain's ship has held: Bea's first convoy is sunk and captured by Alain."
    )


def test_a_face_down_draw_and_a_discard_say_only_what_the_record_knows():
    scene = Scene()
    assert told(scene, Drew(seat=0)).text == "Alain draws a card."
    # A draw the record knows is told as the table saw it too (G-2: spectators read the narration).
    assert told(Scene(), Drew(seat=0, card="miles_2000")).text == "Alain draws a card."
    assert told(scene, Discarded(seat=0, card="frigate")).text == "Alain discards a frigate."


def test_points_are_told_as_people_read_them():
    assert [points_text(half) for half in (0, 5, 24, 85)] == ["0", "2.5", "12", "42.5"]


# The end of the round: who won and why --------------------------------------------------------


def test_a_round_won_past_forty_points_says_who_reached_them():
    # Alain's detected 20,000 arrives (40 points, MN-21) with a 10,000 at 0 miles beside it (1 point).
    scene = Scene().turn(ConvoyPlaced(seat=0, position=0, card="convoy_20000"))
    scene.turn(RadarPlayed(seat=1, convoy=1)).turn(ConvoyPlaced(seat=0, position=1, card="convoy_10000")).skip()
    scene.turn(MilesPlayed(seat=0, convoy=1, card="miles_2000")).skip()
    line = told(scene.draw(), MilesPlayed(seat=0, convoy=1, card="miles_2000"))
    assert line.text == (
        "Alain lays 2,000 miles on Alain's first convoy (4,000 miles sailed). Alain's first convoy arrives in "
        "port. Round over: Alain reaches 41 points, past the 40 that end the round, and wins the round."
    )


def test_a_round_whose_cards_run_out_names_the_only_player_with_a_convoy_in_port():
    scene = Scene().run_out(
        {
            0: laid_and_sailed_in(0, 1, "convoy_2500"),
            1: [ConvoyPlaced(seat=1, position=0, card="convoy_20000")],
        }
    )
    assert last_line(scene).endswith(
        "Round over, the cards have run out: Alain wins the round with 2.5 points, "
        "the only player with a convoy in port."
    )


def test_sides_level_at_the_top_share_the_round_in_its_replay_line():
    scene = Scene().run_out(
        {
            0: laid_and_sailed_in(0, 1, "convoy_5000"),
            1: laid_and_sailed_in(1, 2, "convoy_5000"),
        }
    )
    assert last_line(scene).endswith(
        "Round over, the cards have run out: Alain and Bea share the round with 5 points each, "
        "the best score among the players with a convoy in port."
    )


def test_a_void_round_says_nobody_scores():
    scene = Scene().run_out({0: [ConvoyPlaced(seat=0, position=0, card="convoy_20000")]})
    assert last_line(scene).endswith(
        "Round over, the cards have run out with no convoy in port: the round is void and nobody scores."
    )


def test_a_round_with_face_down_convoys_is_told_when_they_are_shown():
    scene = Scene()
    scene.reserved["convoy_10000"] = 1
    scene.run_out(
        {
            0: [
                ConvoyPlaced(seat=0, position=0, card="convoy_5000"),
                ConvoyPlaced(seat=0, position=1),
                MilesPlayed(seat=0, convoy=1, card="miles_2000"),
                MilesPlayed(seat=0, convoy=1, card="miles_2000"),
            ]
        }
    )
    assert last_line(scene).endswith(
        "Round over, the cards have run out: the face-down convoys are shown before the round is scored."
    )
    line = told(scene, ConvoysRevealed(convoys=(RevealedConvoy(convoy=2, card="convoy_10000"),)))
    assert line.text == (
        "The table reveals convoys: Alain's second convoy is a 10,000-ton convoy. Every convoy is face up: "
        "Alain wins the round with 6 points, the only player with a convoy in port."
    )


def test_a_trawler_shown_as_the_only_convoy_in_port_voids_the_round_in_its_replay_line():
    # MN-20: the face-down convoy in port turns out to be the trawler.
    scene = Scene()
    scene.reserved["trawler"] = 1
    scene.run_out(
        {
            1: laid_and_sailed_in(1, 1),
        }
    )
    line = told(scene, ConvoysRevealed(convoys=(RevealedConvoy(convoy=1, card="trawler"),)))
    assert line.text == (
        "The table reveals convoys: Bea's first convoy is the trawler. Every convoy is face up: no convoy that "
        "counts is in port (the trawler never counts), so the round is void and nobody scores."
    )


def test_a_round_ended_at_forty_with_face_down_convoys_is_scored_once_they_are_shown():
    # Alain's detected 20,000 arrives (40 points); Bea's convoy lies face down, so the table shows it first.
    scene = Scene().turn(ConvoyPlaced(seat=0, position=0, card="convoy_20000"))
    scene.turn(ConvoyPlaced(seat=1, position=0)).skip().turn(RadarPlayed(seat=1, convoy=1))
    scene.turn(MilesPlayed(seat=0, convoy=1, card="miles_2000")).skip()
    line = told(scene.draw(), MilesPlayed(seat=0, convoy=1, card="miles_2000"))
    assert line.text.endswith(
        "Round over: Alain reaches 40 points; the face-down convoys are shown before the round is scored."
    )
    line = told(scene, ConvoysRevealed(convoys=(RevealedConvoy(convoy=2, card="convoy_5000"),)))
    assert line.text == (
        "The table reveals convoys: Bea's first convoy is a 5,000-ton convoy. Every convoy is face up: "
        "Alain reaches 40 points and wins the round."
    )


def test_a_draw_is_named_to_its_drawer_and_a_face_down_convoy_to_its_side_only():
    # G-2 (issue 16): the line follows the viewer, as the view does; the full record tells everything.
    scene = Scene(players=4, teams=True)
    before, drew = scene.state, Drew(seat=0, card="miles_2000")
    scene.do(drew)
    lines = {
        name: RULESET.narrate(before, drew, scene.state, viewer).text
        for name, viewer in (("public", Viewer.public()), ("partner", Viewer.of_seat(2)), ("own", Viewer.of_seat(0)))
    }
    assert lines["public"] == lines["partner"] == "Alain draws a card."
    assert lines["own"] == RULESET.narrate(before, drew, scene.state, Viewer.full()).text == "Alain draws 2,000 miles."
    before, laid = scene.state, ConvoyPlaced(seat=0, position=0, card="convoy_20000")
    scene.do(laid)
    said = {seat: RULESET.narrate(before, laid, scene.state, Viewer.of_seat(seat)).text for seat in range(4)}
    hidden = "Alain lays a convoy face down to open the row: Alain's first convoy."
    shown = "Alain lays a 20,000-ton convoy face down to open the row: Alain's first convoy."
    assert said == {0: shown, 1: hidden, 2: shown, 3: hidden}  # MN-18: partners know each other's convoys
    assert RULESET.narrate(before, laid, scene.state, Viewer.public()).text == hidden
    assert RULESET.narrate(before, laid, scene.state, Viewer.full()).text == shown
