"""The worked examples of the Spanish rulebook (002), recorded event by event (catalogue: examples.csv, written for the
tests with the values the examples state)."""

from __future__ import annotations

import pytest

from domain.atlantic_storm import RULESET
from domain.atlantic_storm.events import (
    Bonus,
    CardsDealt,
    CardsDrawn,
    CardsPlayed,
    ConvoysCut,
    ConvoyTurned,
    DiceRolled,
    Share,
    SpoilsDivided,
    StormRolled,
    StormStruck,
    ZoneDeclared,
)
from domain.ruleset import RuleError, Viewer
from tests.domain.atlantic_storm.harness import Table, make_setup

A, B, C, D, E = range(5)
U = None  # a card dealt face down (G-2)


def five_player_battle(variant: str) -> Table:
    """Rulebook (002) §11: A leads SC 42 (C1) in a submarine battle. A plays Markgraf (fate: SC 42 doubles it);
    B plays Sunderland with Metric ASV Radar and the Atlantic Storm, rolls 1 and cancels Markgraf;
    C plays U38; D plays U501 with Black Gap; E plays Escort Group 36 and rolls 4 for its '?'."""
    table = Table(make_setup(["A", "B", "C", "D", "E"], variant=variant, pile_size=3))
    table.play(
        ConvoysCut(cuts=("C2", "C3", "C4", "C5", "C6")),  # A cuts the lowest number and deals (AS-2)
        CardsDealt(
            hands=(
                ("G1", U, U, U, U, U),
                ("A1", "A2", "S1", U, U, U),
                (U, U, U, U, U, U),
                ("G3", "G4", U, U, U, U),
                ("A3", U, U, U, U, U),
            )
        ),
        ConvoyTurned(seat=A, convoy="C1", discarded="C7" if variant == "advanced" else None),
        ZoneDeclared(seat=A, zone="submarine"),
        CardsPlayed(seat=A, normals=("G1",), victims=("C1",)),
        CardsPlayed(seat=B, normals=("A1",), bonuses=(Bonus(card="A2", parent="A1"),), specials=("S1",)),
        StormRolled(seat=B, face=1),
        StormStruck(seat=B, target=A),
        CardsPlayed(seat=C, normals=("G2",)),  # U38, from C's face-down cards
        CardsPlayed(seat=D, normals=("G3",), bonuses=(Bonus(card="G4", parent="G3"),)),
        CardsPlayed(seat=E, normals=("A3",)),
        DiceRolled(seat=E, card="A3", faces=(4,)),
    )
    return table


def test_the_five_player_example_ends_eight_to_seven_and_b_takes_the_trick():
    table = five_player_battle("basic")
    state = table.state
    decision = state.decision
    assert (decision.allied, decision.german) == (8, 7)
    assert decision.kind == "allied"
    # B (3+1) and E (4) tie for the highest Allied play; B played first (AS-9).
    assert decision.trick_winner == B
    # AS-9: the trick is the convoy and the losing side's normal cards. AS-1: the example's sentence that
    # U38 and U501 "are discarded" gives way to the rule sections (and the spoils example): captured.
    assert state.convoys_won[B] == ("C1",)
    assert sorted(state.captured[B]) == ["G2", "G3"]
    result = RULESET.result(state, Viewer.full())
    assert result.players[B].score == 9
    assert result.players[B].breakdown == {"convoy": 7, "cards": 2}
    # Markgraf went to the discard with the storm; Sunderland, radar, EG 36 and Black Gap too.
    assert {"G1", "S1", "A1", "A2", "A3", "G4"} <= set(state.discard)
    # SC 42 is a full convoy: B's hand size goes up to seven (AS-12).
    assert state.hand_sizes[B] == 7
    assert state.phase == "refill"


def test_the_storm_that_cancelled_markgraf_also_removed_its_doubling():
    table = Table(make_setup(["A", "B", "C", "D", "E"], pile_size=3))
    events = five_player_battle("basic").events[1:6]
    table.play(*events)
    play = table.state.battle.plays[0]
    assert play.doubled == ("G1",)  # AS-5: SC 42 is Markgraf's victim
    table.play(*five_player_battle("basic").events[6:9])
    assert table.state.battle.plays[0].cancelled


def test_the_spoils_example_gives_e_one_card_and_b_keeps_eight_vp():
    table = five_player_battle("advanced")
    assert table.state.phase == "spoils"
    assert table.state.battle.outcome.eligible == (B, E)
    table.play(SpoilsDivided(seat=B, shares=(Share(seat=B, cards=("C1", "G3")), Share(seat=E, cards=("G2",)))))
    result = RULESET.result(table.state, Viewer.full())
    assert result.players[B].score == 8
    assert result.players[E].score == 1
    assert table.state.convoys_won[B] == ("C1",)


def test_keeping_every_spoil_when_another_winner_is_owed_one_is_refused():
    table = five_player_battle("advanced")
    with pytest.raises(RuleError) as error:
        table.play(SpoilsDivided(seat=B, shares=(Share(seat=B, cards=("C1", "G2", "G3")),)))
    assert error.value.rule_id == "AS-15"
    assert error.value.code == "spoils_uneven"


def test_a_loser_cannot_share_the_spoils():
    table = five_player_battle("advanced")
    with pytest.raises(RuleError) as error:
        table.play(SpoilsDivided(seat=B, shares=(Share(seat=B, cards=("C1", "G3")), Share(seat=C, cards=("G2",)))))
    assert error.value.rule_id == "AS-15"
    assert error.value.code == "not_eligible"


def two_player_battle() -> Table:
    """Rulebook (002) §13: A leads ONS 5 (C2), submarine zone. A: B-24 Liberator (4). B: Steinbrink ('?').
    Both draw. A: Escort Group B7 ('?'). B: Achates with Centimetric ASV Radar (3+2). B rolls 6 for
    Steinbrink, A rolls 3 for B7."""
    table = Table(make_setup(["A", "B"], pile_size=3))
    table.play(
        ConvoysCut(cuts=("C3", "C5")),
        CardsDealt(hands=(("A4", "A5", U, U, U, U), ("G5", "A6", "A7", U, U, U))),
        ConvoyTurned(seat=0, convoy="C2"),
        ZoneDeclared(seat=0, zone="submarine"),
        CardsPlayed(seat=0, normals=("A4",)),
        CardsPlayed(seat=1, normals=("G5",)),
        CardsDrawn(seat=0, cards=(U,)),
        CardsDrawn(seat=1, cards=(U,)),
        CardsPlayed(seat=0, normals=("A5",)),
        CardsPlayed(seat=1, normals=("A6",), bonuses=(Bonus(card="A7", parent="A6"),)),
        DiceRolled(seat=1, card="G5", faces=(6,)),
        DiceRolled(seat=0, card="A5", faces=(3,)),
    )
    return table


def test_the_two_player_example_ends_twelve_to_six_and_b_takes_ons_5_and_steinbrink():
    state = two_player_battle().state
    assert (state.decision.allied, state.decision.german) == (12, 6)
    assert state.decision.trick_winner == 1  # B's single play 3+2=5 is the highest Allied play (AS-14)
    assert state.convoys_won[1] == ("C2",)
    assert state.captured[1] == ("G5",)
    assert RULESET.result(state, Viewer.full()).players[1].breakdown == {"convoy": 4, "cards": 2}


def test_in_the_two_player_game_each_player_plays_twice_before_the_battle_is_decided():
    table = Table(make_setup(["A", "B"], pile_size=3))
    table.play(*two_player_battle().events[1:7])
    assert table.state.phase == "refill"  # AS-14: both refill between the two rounds
    assert table.state.decision is None
