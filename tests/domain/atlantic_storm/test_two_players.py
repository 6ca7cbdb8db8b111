"""The two-player battle: a storm strikes one play or one turn, never both (AS-18), and a fate card
reaches only a victim of its own round of play (AS-19). Catalogue: examples.csv."""

from __future__ import annotations

import msgspec

from domain.atlantic_storm import RULESET
from domain.atlantic_storm.events import (
    CardDiscarded,
    CardsDrawn,
    CardsPlayed,
    IntelligencePlayed,
    StormRolled,
    StormStruck,
)
from domain.record import decoder, fold, schema_version
from domain.ruleset import Viewer
from tests.domain.atlantic_storm.harness import Table, at_battle, refused

ALAIN, BEA = 0, 1


def second_round_storm() -> Table:
    """SC 42 (C1, 1941, North Atlantic), submarine. Round 1: Alain plays Walker (3), Bea plays U38 (3);
    both draw. Round 2: Alain plays Sunderland (3) with the Atlantic Storm and rolls 2: he strikes now."""
    table = at_battle([["A16", "A1", "S1"], ["G2", "G6"]], "C1")
    return table.play(
        CardsPlayed(seat=ALAIN, normals=("A16",)),
        CardsPlayed(seat=BEA, normals=("G2",)),
        CardsDrawn(seat=ALAIN, cards=(None,)),
        CardsDrawn(seat=BEA, cards=(None,)),
        CardsPlayed(seat=ALAIN, normals=("A1",), specials=("S1",)),
        StormRolled(seat=ALAIN, face=2),
    )


# --- AS-18 the storm ----------------------------------------------------------------------------------


def test_a_second_round_storm_that_cancels_the_first_round_play_leaves_the_target_his_second_play():
    table = second_round_storm()
    table.play(StormStruck(seat=ALAIN, target=BEA, effect="cancel", half=1))
    battle = table.state.battle
    assert [p.cancelled for p in battle.plays if p.seat == BEA] == [True]
    assert "G2" in table.state.discard
    # AS-18: one effect only: Bea still plays in the second round, and the battle is not yet decided.
    assert table.state.phase == "play"
    assert [t.seat for t in battle.queue] == [BEA]
    table.play(CardsPlayed(seat=BEA, normals=("G6",)))
    assert (table.state.decision.allied, table.state.decision.german) == (6, 2)


def test_a_second_round_storm_that_makes_the_target_skip_leaves_his_first_round_play_standing():
    table = second_round_storm()
    table.play(StormStruck(seat=ALAIN, target=BEA, effect="skip"))
    # AS-18: U38 still fights; only Bea's second play is lost. Walker 3 + Sunderland 3 against U38 3.
    assert "G2" not in table.state.discard
    assert (table.state.decision.kind, table.state.decision.allied, table.state.decision.german) == ("allied", 6, 3)


def test_a_two_player_storm_with_a_play_to_cancel_and_a_play_to_skip_must_say_which_it_does():
    table = second_round_storm()
    error = refused(table, StormStruck(seat=ALAIN, target=BEA))
    assert (error.rule_id, error.code) == ("AS-18", "storm_choice")
    assert "never both" in error.message


def test_a_storm_cannot_cancel_a_round_of_play_in_which_the_target_did_not_play():
    table = second_round_storm()
    error = refused(table, StormStruck(seat=ALAIN, target=BEA, effect="cancel", half=2))
    assert (error.rule_id, error.code) == ("AS-18", "storm_which_play")


def test_a_storm_on_a_player_with_a_play_in_each_round_names_the_round_it_cancels():
    table = second_round_storm()
    # Alain's own plays: Walker (round 1) and Sunderland with the storm (round 2).
    error = refused(table, StormStruck(seat=ALAIN, target=ALAIN, effect="cancel"))
    assert (error.rule_id, error.code) == ("AS-18", "storm_which_play")
    table.play(StormStruck(seat=ALAIN, target=ALAIN, effect="cancel", half=1))
    assert "A16" in table.state.discard and "A1" not in table.state.discard


def test_a_storm_cannot_skip_a_player_who_has_no_play_left_in_the_battle():
    table = at_battle([["A16", "A1"], ["G2", "G6", "S1"]], "C1")
    table.play(
        CardsPlayed(seat=ALAIN, normals=("A16",)),
        CardsPlayed(seat=BEA, normals=("G2",)),
        CardsDrawn(seat=ALAIN, cards=(None,)),
        CardsDrawn(seat=BEA, cards=(None,)),
        CardsPlayed(seat=ALAIN, normals=("A1",)),
        CardsPlayed(seat=BEA, normals=("G6",), specials=("S1",)),
        StormRolled(seat=BEA, face=3),
    )
    error = refused(table, StormStruck(seat=BEA, target=ALAIN, effect="skip"))
    assert (error.rule_id, error.code) == ("AS-18", "nothing_to_skip")
    table.play(StormStruck(seat=BEA, target=ALAIN, effect="cancel", half=2))
    # Sunderland is cancelled; Walker 3 against U38 3 + U-201 2.
    assert (table.state.decision.allied, table.state.decision.german) == (3, 5)


def test_a_first_round_storm_can_make_the_leader_skip_his_second_round_play():
    table = at_battle([["A16", "A1"], ["G2", "S1"]], "C1")
    table.play(
        CardsPlayed(seat=ALAIN, normals=("A16",)),
        CardsPlayed(seat=BEA, normals=("G2",), specials=("S1",)),
        StormRolled(seat=BEA, face=1),
    )
    error = refused(table, StormStruck(seat=BEA, target=ALAIN))
    assert (error.rule_id, error.code) == ("AS-18", "storm_choice")
    table.play(
        StormStruck(seat=BEA, target=ALAIN, effect="skip"),
        CardsDrawn(seat=ALAIN, cards=(None,)),
        CardsDrawn(seat=BEA, cards=(None, None)),
    )
    # Walker stands; Alain's second-round turn is gone, Bea plays next.
    assert [p.cancelled for p in table.state.battle.plays] == [False, False]
    assert [t.seat for t in table.state.battle.queue] == [BEA]
    assert table.state.battle.skips == ()


def test_the_storm_choices_offered_are_each_accepted_and_each_does_one_thing():
    table = second_round_storm()
    options = RULESET.legal_events(table.state, ALAIN)
    struck = {(o.target, o.effect, o.half) for o in options}
    assert struck == {
        (None, None, None),
        (ALAIN, "cancel", 1),
        (ALAIN, "cancel", 2),
        (BEA, "cancel", 1),
        (BEA, "skip", None),
    }
    for option in options:
        RULESET.validate(table.state, option)
    assert RULESET.legal_events(table.state, BEA) == []


def test_the_replay_says_which_play_the_storm_cancelled_or_which_play_it_skipped():
    table = second_round_storm()
    before = table.state
    cancel = StormStruck(seat=ALAIN, target=BEA, effect="cancel", half=1)
    skip = StormStruck(seat=ALAIN, target=BEA, effect="skip")
    texts = [RULESET.narrate(before, e, RULESET.evolve(before, e), Viewer.full()).text for e in (cancel, skip)]
    assert texts[0] == "Alain's storm cancels Bea's first-round play (U38)."
    assert texts[1].startswith("Alain's storm makes Bea skip the turn.")
    first = at_battle([["A16", "A1"], ["G2", "S1"]], "C1")
    first.play(
        CardsPlayed(seat=ALAIN, normals=("A16",)),
        CardsPlayed(seat=BEA, normals=("G2",), specials=("S1",)),
        StormRolled(seat=BEA, face=1),
    )
    skip_next = StormStruck(seat=BEA, target=ALAIN, effect="skip")
    after = RULESET.evolve(first.state, skip_next)
    assert RULESET.narrate(first.state, skip_next, after, Viewer.full()).text == (
        "Bea's storm makes Alain skip the play in the second round."
    )


def test_a_storm_recorded_before_the_choice_existed_still_folds_as_it_did():
    # Reading (RULES.md, AS-18): a stored strike without `effect` keeps its old meaning, both effects.
    table = second_round_storm()
    line = b'{"type":"atlantic_storm.storm_struck","seat":0,"target":1}'
    old = decoder(RULESET).decode(line)
    assert old == StormStruck(seat=ALAIN, target=BEA)
    state = fold(RULESET, [*table.events, old]).state
    # U38 cancelled and Bea's second play gone: the battle is decided at once, 6 to 0.
    assert "G2" in state.discard
    assert (state.decision.allied, state.decision.german) == (6, 0)
    text = RULESET.narrate(table.state, old, RULESET.evolve(table.state, old), Viewer.full()).text
    assert text.startswith("Alain's storm cancels Bea's first-round play (U38) and makes Bea skip the turn.")
    assert schema_version(StormStruck(seat=0, target=None)) == 2  # rows stored from now on; older rows say 1
    assert msgspec.json.encode(StormStruck(seat=0, target=1)) == (
        b'{"type":"atlantic_storm.storm_struck","seat":0,"target":1,"effect":null,"half":null}'
    )


def test_in_a_larger_game_a_storm_may_name_its_one_possible_effect_but_not_another():
    table = at_battle([["A16", "S1"], ["G2"], ["G6"]], "C1")
    table.play(CardsPlayed(seat=0, normals=("A16",), specials=("S1",)), StormRolled(seat=0, face=2))
    error = refused(table, StormStruck(seat=0, target=1, effect="cancel"))
    assert (error.rule_id, error.code) == ("AS-7", "nothing_to_cancel")
    table.play(StormStruck(seat=0, target=1, effect="skip"))
    assert [t.seat for t in table.state.battle.queue] == [2]


def test_in_a_larger_game_cancelling_an_intelligence_play_takes_its_delayed_turn_and_offers_no_skip():
    table = at_battle([["A12", "A1"], ["G2", "S1"], ["A16"]], "C1")
    table.play(IntelligencePlayed(seat=0, card="A12"), CardsPlayed(seat=1, normals=("G2",), specials=("S1",)))
    table.play(StormRolled(seat=1, face=1))
    # Gap reading (RULES.md, AS-7): Alain's delayed turn belongs to his Ultra play: one choice, not two.
    offered = {(o.target, o.effect) for o in RULESET.legal_events(table.state, 1)}
    assert (0, "cancel") in offered and (0, "skip") not in offered
    assert refused(table, StormStruck(seat=1, target=0, effect="skip")).code == "nothing_to_skip"
    table.play(StormStruck(seat=1, target=0))
    assert "A12" in table.state.discard
    assert [t.seat for t in table.state.battle.queue] == [2]


# --- AS-19 fate -----------------------------------------------------------------------------------------


def reuben_james_in_the_first_round() -> Table:
    """HX 229-like test: SC 42 (C1), surface. Round 1: Alain plays Reuben James, Bea discards U-201;
    both draw; round 2: Alain discards Catalina. Bea holds U552, destined to sink Reuben James."""
    table = at_battle([["A8", "A17"], ["G6", "G7"]], "C1", zone="surface")
    return table.play(
        CardsPlayed(seat=ALAIN, normals=("A8",)),
        CardDiscarded(seat=BEA, card="G6"),
        CardsDrawn(seat=ALAIN, cards=(None,)),
        CardsDrawn(seat=BEA, cards=(None,)),
        CardDiscarded(seat=ALAIN, card="A17"),
    )


def test_a_second_round_fate_card_does_not_reach_a_first_round_victim():
    table = reuben_james_in_the_first_round()
    table.play(CardsPlayed(seat=BEA, normals=("G7",)))
    # AS-19: Reuben James survives; surface 2 against U552's 1, Alain takes the trick and U552.
    assert table.state.captured[BEA] == ()
    assert table.state.decision.kind == "allied"
    assert table.state.captured[ALAIN] == ("G7",)


def test_announcing_a_first_round_victim_in_the_second_round_is_refused():
    table = reuben_james_in_the_first_round()
    error = refused(table, CardsPlayed(seat=BEA, normals=("G7",), victims=("A8",)))
    assert (error.rule_id, error.code) == ("AS-19", "victim_out_of_reach")
    assert "Reuben James" in error.message


def test_a_second_round_fate_card_still_destroys_a_victim_of_the_second_round():
    table = at_battle([["A17", "A8"], ["G6", "G7"]], "C1", zone="surface")
    table.play(
        CardDiscarded(seat=ALAIN, card="A17"),
        CardDiscarded(seat=BEA, card="G6"),
        CardsDrawn(seat=ALAIN, cards=(None,)),
        CardsDrawn(seat=BEA, cards=(None,)),
        CardsPlayed(seat=ALAIN, normals=("A8",)),
        CardsPlayed(seat=BEA, normals=("G7",), victims=("A8",)),
    )
    assert table.state.captured[BEA][0] == "A8"  # AS-6 within the round of play


def test_a_fate_card_recorded_against_a_first_round_victim_still_folds_as_recorded():
    # Reading (RULES.md, AS-19): a stored play keeps the victims it announced when it was accepted.
    table = reuben_james_in_the_first_round()
    old = CardsPlayed(seat=BEA, normals=("G7",), victims=("A8",))
    state = fold(RULESET, [*table.events, old]).state
    assert state.captured[BEA][0] == "A8"
