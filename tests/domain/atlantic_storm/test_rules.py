"""Each reading AS-2..AS-15 (and G-1, G-2) accepted and refused, given events (catalogue: examples.csv)."""

from __future__ import annotations

import msgspec
import pytest

from domain.atlantic_storm import RULESET
from domain.atlantic_storm.events import (
    Bonus,
    CardDiscarded,
    CardsDealt,
    CardsDrawn,
    CardsPlayed,
    ConvoysCut,
    ConvoyTurned,
    DeckReshuffled,
    DiceRolled,
    HandDiscarded,
    IntelligencePlayed,
    StormRolled,
    StormStruck,
    SupplyTaken,
    ZoneDeclared,
)
from domain.atlantic_storm.rules import hand_size
from domain.ruleset import RuleError, Viewer
from tests.domain.atlantic_storm.harness import Table, at_battle, make_setup, refused

# --- AS-2 set-up ------------------------------------------------------------------------------------


def test_the_player_who_cut_the_lowest_convoy_deals_and_leads_the_first_round():
    table = Table(make_setup(["Alain", "Bea", "Carl"])).play(ConvoysCut(cuts=("C5", "C2", "C7")))
    assert table.state.dealer == 1
    assert table.state.leader == 1


def test_a_solitaire_game_and_a_table_of_seven_are_refused_but_two_to_six_players_are_accepted():
    # AS-17: the rulebook's solitaire rules are left out; AS-2: two to six players.
    for count in (1, 7):
        with pytest.raises(RuleError) as error:
            RULESET.initial(make_setup(["Alain", "Bea", "Carl", "Dana", "Eve", "Farid", "Gil"][:count]))
        assert (error.value.rule_id, error.value.code) == ("AS-2", "player_count")
    assert RULESET.initial(make_setup(["Alain", "Bea"])).players == 2


def test_a_deal_of_five_cards_is_refused():
    table = Table(make_setup(["Alain", "Bea"])).play(ConvoysCut(cuts=("C1", "C2")))
    error = refused(table, CardsDealt(hands=((None,) * 5, (None,) * 6)))
    assert (error.rule_id, error.code) == ("AS-2", "deal_size")


def test_the_advanced_game_with_two_players_is_refused():
    with pytest.raises(RuleError) as error:
        RULESET.initial(make_setup(["Alain", "Bea"], variant="advanced"))
    assert error.value.rule_id == "AS-14"


def test_a_card_missing_from_the_catalogue_is_refused_with_an_error_that_says_so():
    table = at_battle([["A1"], [], []], "C1")
    error = refused(table, CardsPlayed(seat=0, normals=("A99",)))
    assert (error.rule_id, error.code) == ("G-1", "card_not_in_catalogue")
    assert "no card A99 in this game's catalogue" in error.message


# --- AS-3 the round ---------------------------------------------------------------------------------


def test_only_the_round_leader_turns_the_convoy():
    table = Table(make_setup(["Alain", "Bea"])).play(
        ConvoysCut(cuts=("C1", "C2")), CardsDealt(hands=((None,) * 6, (None,) * 6))
    )
    error = refused(table, ConvoyTurned(seat=1, convoy="C3"))
    assert (error.rule_id, error.code) == ("AS-3", "not_leader")


def test_the_basic_game_turns_one_convoy_and_the_advanced_game_takes_two_and_keeps_one():
    basic = Table(make_setup(["Alain", "Bea"])).play(
        ConvoysCut(cuts=("C1", "C2")), CardsDealt(hands=((None,) * 6, (None,) * 6))
    )
    assert refused(basic, ConvoyTurned(seat=0, convoy="C3", discarded="C4")).code == "basic_one_convoy"
    advanced = Table(make_setup(["Alain", "Bea", "Carl"], variant="advanced")).play(
        ConvoysCut(cuts=("C1", "C2", "C3")), CardsDealt(hands=((None,) * 6,) * 3)
    )
    assert refused(advanced, ConvoyTurned(seat=0, convoy="C3")).code == "take_two"
    advanced.play(ConvoyTurned(seat=0, convoy="C3", discarded="C4"))
    assert advanced.state.battle.convoy == "C3"
    assert advanced.state.convoy_discard == ("C4",)
    # A convoy already out of the pile cannot come up again (G-2).
    assert "C4" in advanced.state.convoys_seen


def test_playing_out_of_turn_is_refused():
    table = at_battle([["A16"], ["G2"], []], "C1")
    error = refused(table, CardsPlayed(seat=1, normals=("G2",)))
    assert (error.rule_id, error.code) == ("AS-3", "not_your_turn")


def test_a_discard_of_two_cards_in_the_basic_game_is_refused():
    table = at_battle([["A16", "G2", "A1", "A6", "G6", "A17"], [], []], "C1")
    error = refused(table, HandDiscarded(seat=0, cards=("A16", "G2", "A1", "A6", "G6", "A17")))
    assert (error.rule_id, error.code) == ("AS-3", "one_card_discard")
    table.play(CardDiscarded(seat=0, card="G2"))
    assert "G2" in table.state.discard


def test_the_advanced_game_lets_a_player_discard_the_whole_hand_but_not_part_of_it():
    table = at_battle([["A16", "G2", "A1", "A6", "G6", "A17"], [], []], "C1", variant="advanced", discarded="C2")
    assert refused(table, HandDiscarded(seat=0, cards=("A16", "G2"))).code == "whole_hand"
    table.play(HandDiscarded(seat=0, cards=("A16", "G2", "A1", "A6", "G6", "A17")))
    assert table.state.hand_count(0) == 0


def test_a_play_mixing_allied_and_german_cards_is_refused():
    table = at_battle([["A1", "G19"], [], []], "C1")
    error = refused(table, CardsPlayed(seat=0, normals=("A1",), bonuses=(Bonus(card="G19", parent="A1"),)))
    assert (error.rule_id, error.code) == ("AS-3", "mixed_sides")


def test_the_lead_passes_to_the_left_after_each_battle():
    table = at_battle([["A16"], ["G2"], ["A17"]], "C1", zone="air")
    table.play(
        CardsPlayed(seat=0, normals=("A16",)), CardsPlayed(seat=1, normals=("G2",)), CardDiscarded(seat=2, card="A17")
    )
    assert table.state.phase == "refill"
    assert table.state.draw_queue[0] == 1
    table.play(CardsDrawn(seat=1, cards=(None,)), CardsDrawn(seat=2, cards=(None,)), CardsDrawn(seat=0, cards=(None,)))
    assert refused(table, ConvoyTurned(seat=0, convoy="C2")).code == "not_leader"
    table.play(ConvoyTurned(seat=1, convoy="C2"))
    assert table.state.battle.number == 2


# --- AS-4 legality ----------------------------------------------------------------------------------


def test_a_card_of_the_wrong_ocean_is_refused():
    table = at_battle([["A3"], [], []], "C4")  # PQ 17 sails in the Arctic; Escort Group 36 does not
    error = refused(table, CardsPlayed(seat=0, normals=("A3",)))
    assert (error.rule_id, error.code) == ("AS-4", "wrong_ocean")


def test_a_card_of_the_wrong_year_is_refused():
    table = at_battle([["A8"], [], []], "C3")  # 002 §6: Reuben James (1941-1943) cannot escort HX 84 (1940)
    error = refused(table, CardsPlayed(seat=0, normals=("A8",)))
    assert (error.rule_id, error.code) == ("AS-4", "wrong_year")


def test_a_bonus_on_a_parent_of_the_wrong_type_is_refused():
    table = at_battle([["A16", "A2", "A1"], [], []], "C1")
    error = refused(table, CardsPlayed(seat=0, normals=("A16",), bonuses=(Bonus(card="A2", parent="A16"),)))
    assert (error.rule_id, error.code) == ("AS-4", "bonus_type")
    table.play(CardsPlayed(seat=0, normals=("A1",), bonuses=(Bonus(card="A2", parent="A1"),)))
    assert table.state.battle.plays[0].bonuses == (Bonus(card="A2", parent="A1"),)


def test_a_bonus_alone_is_refused_unless_the_card_allows_it():
    table = at_battle([["A2", "A51"], [], []], "C1")
    error = refused(table, CardsPlayed(seat=0, bonuses=(Bonus(card="A2"),)))
    assert (error.rule_id, error.code) == ("AS-4", "bonus_alone")
    table.play(CardsPlayed(seat=0, bonuses=(Bonus(card="A51"),)))  # Minefield A51 may stand alone
    assert table.state.battle.plays[0].side == "allied"


def test_a_bonus_attached_to_another_bonus_is_refused():
    table = at_battle([["A1", "A2", "A51"], [], []], "C1")
    error = refused(
        table,
        CardsPlayed(seat=0, normals=("A1",), bonuses=(Bonus(card="A2", parent="A1"), Bonus(card="A51", parent="A2"))),
    )
    assert (error.rule_id, error.code) == ("AS-4", "bonus_parent")


# --- AS-5 combat value ------------------------------------------------------------------------------


def test_bismarck_takes_two_dice_and_their_sum_is_its_value():
    table = at_battle([["G14"], ["A15"], ["A17"]], "C3", zone="surface")
    table.play(
        CardsPlayed(seat=0, normals=("G14",)), CardsPlayed(seat=1, normals=("A15",)), CardDiscarded(seat=2, card="A17")
    )
    assert table.state.phase == "dice"
    error = refused(table, DiceRolled(seat=0, card="G14", faces=(5,)))
    assert (error.rule_id, error.code) == ("AS-5", "dice_count")
    assert refused(table, DiceRolled(seat=1, card="G14", faces=(5, 6))).code == "not_your_die"
    table.play(DiceRolled(seat=0, card="G14", faces=(5, 6)))
    assert (table.state.decision.german, table.state.decision.allied) == (11, 4)
    assert table.state.captured[0] == ("A15",)


def test_in_a_combined_battle_all_three_values_count_with_one_die_per_question_mark():
    table = at_battle([["A3"], ["G2"], ["A17"]], "C1", zone="combined")
    table.play(
        CardsPlayed(seat=0, normals=("A3",)),
        CardsPlayed(seat=1, normals=("G2",)),
        CardDiscarded(seat=2, card="A17"),
        DiceRolled(seat=0, card="A3", faces=(2,)),
    )
    assert (table.state.decision.allied, table.state.decision.german) == (0 + 1 + 2, 0 + 1 + 3)


def test_a_fate_card_against_the_convoy_doubles_its_die_but_not_its_bonus():
    table = at_battle([["G1", "G19"], ["A16"], ["A17"]], "C1")
    table.play(
        CardsPlayed(seat=0, normals=("G1",), bonuses=(Bonus(card="G19", parent="G1"),), victims=("C1",)),
        CardsPlayed(seat=1, normals=("A16",)),
        CardDiscarded(seat=2, card="A17"),
        DiceRolled(seat=0, card="G1", faces=(3,)),
    )
    assert (table.state.decision.german, table.state.decision.allied) == (3 * 2 + 1, 3)


# --- AS-6 fate victims ------------------------------------------------------------------------------


def test_a_fate_card_played_without_announcing_its_victim_is_refused():
    table = at_battle([["G1"], [], []], "C1")
    error = refused(table, CardsPlayed(seat=0, normals=("G1",)))
    assert (error.rule_id, error.code) == ("AS-6", "victims_misannounced")


def test_a_fate_card_destroys_its_victim_played_earlier_in_the_round_at_once():
    table = at_battle([["A8"], ["G7"], ["A17"]], "C1", zone="surface")
    table.play(CardsPlayed(seat=0, normals=("A8",)), CardsPlayed(seat=1, normals=("G7",), victims=("A8",)))
    assert table.state.captured[1] == ("A8",)  # face down in front of U552's player (002 §7)
    assert table.state.battle.plays[0].normals == ()
    table.play(CardDiscarded(seat=2, card="A17"))
    # U552 (surface 1) wins against nothing; the victim counts for its captor.
    assert RULESET.result(table.state, Viewer.full()).players[1].breakdown == {"convoy": 7, "cards": 2}


def test_a_victim_played_after_its_fate_card_is_unaffected():
    table = at_battle([["G7"], ["A8"], ["A17"]], "C1", zone="surface")
    table.play(CardsPlayed(seat=0, normals=("G7",)))
    assert refused(table, CardsPlayed(seat=1, normals=("A8",), victims=("A8",))).rule_id == "AS-6"
    table.play(CardsPlayed(seat=1, normals=("A8",)))
    assert table.state.battle.plays[1].normals == ("A8",)


def test_a_fate_card_of_value_zero_still_destroys_its_victim_and_the_victims_bonus_is_discarded():
    # 002 §7: in an air battle U155 (air 0) still sinks the Avenger; the CAM Ship on it is discarded.
    table = at_battle([["A9", "A52"], ["G8"], ["A17"]], "C4", zone="air")
    table.play(
        CardsPlayed(seat=0, normals=("A9",), bonuses=(Bonus(card="A52", parent="A9"),)),
        CardsPlayed(seat=1, normals=("G8",), victims=("A9",)),
    )
    assert table.state.captured[1] == ("A9",)
    assert "A52" in table.state.discard


def tied_round() -> Table:
    """SC 42, surface: Reuben James (2) against Bismarck rolling 1 and 1: a tie (AS-10)."""
    table = at_battle([["A8", "A17"], ["G14", "G7"], ["A6", "A15"]], "C1", zone="surface")
    table.play(
        CardsPlayed(seat=0, normals=("A8",)),
        CardsPlayed(seat=1, normals=("G14",)),
        CardDiscarded(seat=2, card="A6"),
        DiceRolled(seat=1, card="G14", faces=(1, 1)),
    )
    return table


def test_a_tie_puts_the_cards_under_the_convoy_and_the_next_leader_declares_a_new_round():
    table = tied_round()
    assert table.state.decision.kind == "tie"
    assert table.state.battle.under == ((0, "A8"), (1, "G14"))
    assert table.state.draw_queue == (1, 2, 0)  # refills start with the next round's leader (AS-12)
    table.play(CardsDrawn(seat=1, cards=(None,)), CardsDrawn(seat=2, cards=(None,)), CardsDrawn(seat=0, cards=(None,)))
    assert table.state.phase == "declare_zone"
    assert refused(table, ZoneDeclared(seat=0, zone="air")).code == "not_leader"
    table.play(ZoneDeclared(seat=1, zone="air"))
    assert table.state.battle.round == 2


def test_the_final_winner_takes_the_losing_cards_of_every_round_of_the_battle():
    table = tied_round()
    table.play(
        CardsDrawn(seat=1, cards=(None,)),
        CardsDrawn(seat=2, cards=(None,)),
        CardsDrawn(seat=0, cards=(None,)),
        ZoneDeclared(seat=1, zone="surface"),
        CardDiscarded(seat=1, card="G7"),
        CardsPlayed(seat=2, normals=("A15",)),
        CardDiscarded(seat=0, card="A17"),
    )
    assert table.state.decision.kind == "allied"
    assert table.state.convoys_won[2] == ("C1",)
    assert table.state.captured[2] == ("G14",)  # Bismarck, from under the convoy (AS-10)
    assert "A8" in table.state.discard


def test_a_card_under_the_convoy_from_an_earlier_round_is_out_of_a_fate_cards_reach():
    table = tied_round()
    table.play(
        CardsDrawn(seat=1, cards=(None,)),
        CardsDrawn(seat=2, cards=(None,)),
        CardsDrawn(seat=0, cards=(None,)),
        ZoneDeclared(seat=1, zone="surface"),
    )
    assert refused(table, CardsPlayed(seat=1, normals=("G7",), victims=("A8",))).rule_id == "AS-6"
    table.play(CardsPlayed(seat=1, normals=("G7",)))
    assert table.state.captured[1] == ()


def test_zero_values_in_the_zone_is_no_combat_and_the_convoy_is_discarded():
    table = at_battle([["A16"], ["G2"], ["A17"]], "C1", zone="air")
    table.play(
        CardsPlayed(seat=0, normals=("A16",)), CardsPlayed(seat=1, normals=("G2",)), CardDiscarded(seat=2, card="A17")
    )
    assert table.state.decision.kind == "no_combat"  # AS-11
    assert table.state.convoy_discard == ("C1",)
    assert {"A16", "G2", "A17"} <= set(table.state.discard)
    assert table.state.convoys_won == ((), (), ())


# --- AS-7 specials ----------------------------------------------------------------------------------


def test_an_admiral_makes_the_battle_combined_for_everyone_this_round():
    table = at_battle([["G2", "G9"], ["A1"], ["A17"]], "C1", zone="air")
    table.play(
        CardsPlayed(seat=0, normals=("G2",), specials=("G9",), admiral="combined"),
        CardsPlayed(seat=1, normals=("A1",)),
        CardDiscarded(seat=2, card="A17"),
    )
    # Combined: U38 0+1+3 = 4 against Sunderland 2+0+3 = 5.
    assert (table.state.decision.allied, table.state.decision.german) == (5, 4)


def test_an_admiral_changing_the_zone_comes_with_one_normal_card():
    table = at_battle([["G9", "G2"], [], []], "C1", zone="air")
    error = refused(table, CardsPlayed(seat=0, specials=("G9",), admiral="combined"))
    assert (error.rule_id, error.code) == ("AS-7", "admiral_one_normal")


def test_two_normal_cards_need_the_admiral():
    table = at_battle([["A16", "A1", "A10"], [], []], "C1")
    error = refused(table, CardsPlayed(seat=0, normals=("A16", "A1")))
    assert (error.rule_id, error.code) == ("AS-7", "two_normals")
    table.play(CardsPlayed(seat=0, normals=("A16", "A1"), specials=("A10",), admiral="two_normals"))
    assert table.state.battle.plays[0].normals == ("A16", "A1")


def test_a_german_play_after_raid_on_st_nazaire_is_refused_but_a_discard_is_accepted():
    table = at_battle([["A11", "A15"], ["G18"], []], "C4", zone="surface")
    table.play(CardsPlayed(seat=0, normals=("A15",), specials=("A11",)))
    error = refused(table, CardsPlayed(seat=1, normals=("G18",)))
    assert (error.rule_id, error.code) == ("AS-7", "side_closed")
    table.play(CardDiscarded(seat=1, card="G18"))
    assert table.state.battle.queue[0].seat == 2


def test_raid_on_st_nazaire_is_refused_in_an_air_battle_and_with_an_aircraft():
    air = at_battle([["A11"], [], []], "C4", zone="air")
    assert refused(air, CardsPlayed(seat=0, specials=("A11",))).code == "raid_zone"
    surface = at_battle([["A11", "A4"], [], []], "C4", zone="surface")
    assert refused(surface, CardsPlayed(seat=0, normals=("A4",), specials=("A11",))).code == "raid_partner"


def test_after_second_happy_time_an_allied_play_is_refused():
    table = at_battle([["G10", "G2"], ["A16"], []], "C4", zone="submarine")
    table.play(CardsPlayed(seat=0, normals=("G2",), specials=("G10",)))
    assert refused(table, CardsPlayed(seat=1, normals=("A16",))).code == "side_closed"


def test_a_storm_of_another_ocean_is_refused():
    table = at_battle([["S2"], [], []], "C1")
    assert refused(table, CardsPlayed(seat=0, specials=("S2",))).code == "wrong_ocean"


def test_a_storm_that_misses_passes_to_the_next_player_who_rolls_after_his_turn_and_can_skip_a_player():
    table = at_battle([["A16", "S1"], ["G2"], ["G6"]], "C1")
    table.play(CardsPlayed(seat=0, normals=("A16",), specials=("S1",)), StormRolled(seat=0, face=5))
    assert table.state.battle.storm.holder == 1
    assert table.state.phase == "play"
    table.play(CardsPlayed(seat=1, normals=("G2",)))
    assert table.state.phase == "storm_roll"
    assert refused(table, StormRolled(seat=0, face=2)).code == "not_storm_holder"
    table.play(StormRolled(seat=1, face=2), StormStruck(seat=1, target=2))
    # Carl skips his turn: the round is over, U38 3 against Walker 3 is a tie.
    assert table.state.decision.kind == "tie"
    assert "S1" in table.state.discard


def test_a_storm_that_cancels_the_admiral_brings_the_declared_zone_back():
    table = at_battle([["G2", "G9"], ["A1", "S1"], ["A17"]], "C1", zone="air")
    table.play(
        CardsPlayed(seat=0, normals=("G2",), specials=("G9",), admiral="combined"),
        CardsPlayed(seat=1, normals=("A1",), specials=("S1",)),
        StormRolled(seat=1, face=3),
        StormStruck(seat=1, target=0),
        CardDiscarded(seat=2, card="A17"),
    )
    # Back to air: Sunderland 2 against nothing.
    assert (table.state.decision.allied, table.state.decision.german) == (2, 0)


def test_ultra_moves_the_turn_to_the_end_for_the_allied_side_and_loses_ties():
    table = at_battle([["A12", "A1", "G3"], ["G6"], ["A16"]], "C1")
    table.play(
        IntelligencePlayed(seat=0, card="A12"),
        CardsPlayed(seat=1, normals=("G6",)),
        CardsPlayed(seat=2, normals=("A16",)),
    )
    assert table.state.battle.queue[0].seat == 0
    error = refused(table, CardsPlayed(seat=0, normals=("G3",)))
    assert (error.rule_id, error.code) == ("AS-7", "intelligence_side")
    table.play(CardsPlayed(seat=0, normals=("A1",)))
    # Sunderland 3 and Walker 3 tie for the highest Allied play: the intelligence player loses the tie.
    assert table.state.decision.trick_winner == 2
    assert "A12" in table.state.discard


def test_after_ultra_a_player_who_does_not_play_discards_the_intelligence_card():
    table = at_battle([["A12", "A1"], ["G6"], ["A16"]], "C1")
    table.play(
        IntelligencePlayed(seat=0, card="A12"),
        CardsPlayed(seat=1, normals=("G6",)),
        CardsPlayed(seat=2, normals=("A16",)),
    )
    assert refused(table, CardDiscarded(seat=0, card="A1")).code == "discard_intelligence"
    table.play(CardDiscarded(seat=0, card="A12"))
    assert "A12" in table.state.discard and table.state.hands[0] == ("A1",)


def test_black_gap_keeps_allied_aircraft_out_of_the_rest_of_the_round():
    # Gap reading (catalogues/README.md): an Allied air card after Black Gap is refused.
    table = at_battle([["G3", "G4"], ["A1", "A16"], []], "C1")
    table.play(CardsPlayed(seat=0, normals=("G3",), bonuses=(Bonus(card="G4", parent="G3"),)))
    assert refused(table, CardsPlayed(seat=1, normals=("A1",))).code == "black_gap"
    table.play(CardsPlayed(seat=1, normals=("A16",)))


# --- AS-8 supply ------------------------------------------------------------------------------------


def test_a_winning_supply_card_refuels_a_ship_of_its_side_but_never_an_aircraft():
    table = at_battle([["A16", "A13"], ["G6", "G13"], ["A1"]], "C1")
    table.play(
        CardsPlayed(seat=0, normals=("A16",), supplies=("A13",)),
        CardsPlayed(seat=1, normals=("G6",), supplies=("G13",)),
        CardsPlayed(seat=2, normals=("A1",)),
    )
    assert table.state.phase == "supply"
    error = refused(table, SupplyTaken(seat=0, supply="A13", card="A1"))
    assert (error.rule_id, error.code) == ("AS-8", "supply_target")
    table.play(SupplyTaken(seat=0, supply="A13", card="A16"))
    assert "A16" in table.state.hands[0]
    assert "A13" in table.state.discard
    # The losing German supply card is destroyed with its side: in the trick (AS-8).
    assert sorted(table.state.captured[0]) == ["G13", "G6"]


def test_the_milk_cow_refuels_only_a_submarine_or_a_wolfpack():
    table = at_battle([["G2", "G12"], ["A17"], ["G18"]], "C4")
    table.play(
        CardsPlayed(seat=0, normals=("G2",), supplies=("G12",)),
        CardsPlayed(seat=1, normals=("A17",)),
        CardsPlayed(seat=2, normals=("G18",)),
    )
    assert refused(table, SupplyTaken(seat=0, supply="G12", card="G18")).code == "supply_target"
    table.play(SupplyTaken(seat=0, supply="G12", card="G2"))
    assert "G2" in table.state.hands[0]


# --- AS-12 hand size and refills --------------------------------------------------------------------


def test_hand_size_grows_with_full_convoys_and_pairs_of_half_convoys_up_to_nine():
    state = RULESET.initial(make_setup(["Alain", "Bea"]))
    assert hand_size(state, ()) == 6
    assert hand_size(state, ("C1",)) == 7  # full
    assert hand_size(state, ("C3",)) == 6  # one half
    assert hand_size(state, ("C3", "C6")) == 7  # two halves
    assert hand_size(state, ("C2",)) == 6  # empty
    assert hand_size(state, ("C1", "C4", "C7", "C3", "C6", "C8")) == 9


def test_a_refill_out_of_order_or_beyond_the_hand_size_is_refused():
    table = at_battle([["A16"], ["G2"], ["A17"]], "C1", zone="air")
    table.play(
        CardsPlayed(seat=0, normals=("A16",)), CardsPlayed(seat=1, normals=("G2",)), CardDiscarded(seat=2, card="A17")
    )
    assert refused(table, CardsDrawn(seat=0, cards=(None,))).code == "draw_order"
    assert refused(table, CardsDrawn(seat=1, cards=(None, None))).code == "draw_count"
    assert refused(table, DeckReshuffled()).code == "no_reshuffle"


# --- AS-13 end ----------------------------------------------------------------------------------------


def test_the_game_ends_after_the_last_convoy():
    table = at_battle([["A16"], ["G6"], ["A17"]], "C1", pile_size=1)
    table.play(
        CardsPlayed(seat=0, normals=("A16",)), CardsPlayed(seat=1, normals=("G6",)), CardDiscarded(seat=2, card="A17")
    )
    result = RULESET.result(table.state, Viewer.full())
    assert table.state.phase == "over"
    assert result.finished and result.winners == (0,)
    assert refused(table, CardsDrawn(seat=1, cards=(None,))).rule_id == "AS-13"


def test_the_winner_is_decided_by_vp_then_convoy_vp_then_the_lowest_numbered_convoy():
    state = msgspec.structs.replace(RULESET.initial(make_setup(["Alain", "Bea", "Carl"])), phase="over")
    # Bea: 7 + 1 = 8 VP, Alain: 6 + 2 = 8 VP -> Bea has more convoy VP.
    state = msgspec.structs.replace(state, convoys_won=(("C4",), ("C1",), ()), captured=(("A1",), ("G2",), ()))
    assert RULESET.result(state, Viewer.full()).winners == (1,)
    # Alain: HX 84 (3) + SC 7 (5) = 8; Bea: PQ 17 (6) + QP 11 (2) = 8; both all convoy VP: lowest convoy C3.
    state = msgspec.structs.replace(state, convoys_won=(("C3", "C6"), ("C4", "C5"), ()), captured=((), (), ()))
    result = RULESET.result(state, Viewer.full())
    assert result.winners == (0,)
    assert [p.placement for p in result.players] == [1, 2, 3]


# --- AS-14 two players --------------------------------------------------------------------------------


def test_in_the_two_player_game_raid_on_st_nazaire_carries_into_the_second_round():
    table = at_battle([["A11", "A15", "G18"], ["G2", "A17"]], "C4", zone="surface")
    table.play(
        CardsPlayed(seat=0, normals=("A15",), specials=("A11",)),
        CardDiscarded(seat=1, card="A17"),
        CardsDrawn(seat=0, cards=(None, None)),
        CardsDrawn(seat=1, cards=(None,)),
        CardDiscarded(seat=0, card="G18"),
    )
    assert refused(table, CardsPlayed(seat=1, normals=("G2",))).code == "side_closed"


def test_a_two_player_tie_starts_two_more_rounds_led_by_the_other_player():
    table = at_battle([["A16", "A17"], ["G2", "G6"]], "C1")
    table.play(
        CardsPlayed(seat=0, normals=("A16",)),
        CardsPlayed(seat=1, normals=("G2",)),
        CardsDrawn(seat=0, cards=(None,)),
        CardsDrawn(seat=1, cards=(None,)),
        CardDiscarded(seat=0, card="A17"),
        CardDiscarded(seat=1, card="G6"),
    )
    assert table.state.decision.kind == "tie"
    table.play(CardsDrawn(seat=1, cards=(None,)), CardsDrawn(seat=0, cards=(None,)))
    assert table.state.phase == "declare_zone"
    assert table.state.battle.leader == 1
    table.play(ZoneDeclared(seat=1, zone="air"))
    assert [t.seat for t in table.state.battle.queue] == [1, 0]
    assert table.state.battle.half == 1


# --- G-2 hidden information -----------------------------------------------------------------------------


def test_a_card_the_record_has_in_another_hand_cannot_be_played():
    table = at_battle([["A1"], [], []], "C1")
    table.play(CardsPlayed(seat=0, normals=("A1",)))
    error = refused(table, CardsPlayed(seat=1, normals=("A1",)))
    assert (error.rule_id, error.code) == ("G-2", "card_elsewhere")


def test_a_face_down_card_becomes_known_when_played():
    table = at_battle([[], [], []], "C1")
    assert table.state.unknown[0] == 6
    table.play(CardsPlayed(seat=0, normals=("A16",)))
    assert table.state.unknown[0] == 5
    assert "A16" in table.state.located


def test_drawing_a_card_the_record_has_elsewhere_is_refused():
    table = at_battle([["A16", "A1"], ["G2"], ["A17"]], "C1", zone="air")
    table.play(
        CardsPlayed(seat=0, normals=("A16",)), CardsPlayed(seat=1, normals=("G2",)), CardDiscarded(seat=2, card="A17")
    )
    error = refused(table, CardsDrawn(seat=1, cards=("A1",)))
    assert (error.rule_id, error.code) == ("G-2", "card_elsewhere")


# --- Gap readings (where the texts are silent; see RULES.md) ---------------------------------------------


def test_a_storm_roll_of_one_to_three_may_be_used_on_nobody():
    table = at_battle([["A16", "S1"], ["G2"], []], "C1")
    table.play(
        CardsPlayed(seat=0, normals=("A16",), specials=("S1",)),
        StormRolled(seat=0, face=1),
        StormStruck(seat=0, target=None),
    )
    assert table.state.battle.storm is None
    assert table.state.battle.queue[0].seat == 1


def test_a_storm_that_misses_after_the_last_player_blows_out_with_the_round():
    table = at_battle([["A16"], ["G2"], ["A1", "S1"]], "C1")
    table.play(
        CardsPlayed(seat=0, normals=("A16",)),
        CardsPlayed(seat=1, normals=("G2",)),
        CardsPlayed(seat=2, normals=("A1",), specials=("S1",)),
        StormRolled(seat=2, face=6),
    )
    assert table.state.decision.kind == "allied"  # the round ended at once: 6 against 3
    assert "S1" in table.state.discard


def test_in_the_two_player_game_an_unfired_storm_passes_into_the_second_round():
    table = at_battle([["A16", "A17"], ["G2", "S1"]], "C1")
    table.play(
        CardsPlayed(seat=0, normals=("A16",)),
        CardsPlayed(seat=1, normals=("G2",), specials=("S1",)),
        StormRolled(seat=1, face=4),
    )
    assert table.state.phase == "refill"
    assert table.state.battle.storm.holder == 0  # AS-14: Alain uses it at the end of his next turn
    table.play(
        CardsDrawn(seat=0, cards=(None,)), CardsDrawn(seat=1, cards=(None, None)), CardDiscarded(seat=0, card="A17")
    )
    assert table.state.phase == "storm_roll"


def test_a_winner_whose_play_the_storm_cancelled_or_whose_card_is_worth_nothing_shares_no_spoils():
    table = at_battle([["A16"], ["A1", "S1"], ["A15"], ["G6"]], "C1", variant="advanced", discarded="C2")
    table.play(
        CardsPlayed(seat=0, normals=("A16",)),
        CardsPlayed(seat=1, normals=("A1",), specials=("S1",)),
        StormRolled(seat=1, face=2),
        StormStruck(seat=1, target=0),
        CardsPlayed(seat=2, normals=("A15",)),
        CardsPlayed(seat=3, normals=("G6",)),
    )
    # Sunderland 3 against U-201 2; Walker was cancelled, Rodney is 0 in the submarine zone (AS-15).
    assert table.state.decision.trick_winner == 1
    assert table.state.phase == "refill"  # only Bea shares: no division to report
    assert (table.state.convoys_won[1], table.state.captured[1]) == (("C1",), ("G6",))


def test_a_convoy_pile_larger_than_the_catalogue_holds_is_refused():
    with pytest.raises(RuleError) as error:
        RULESET.initial(make_setup(["Alain", "Bea", "Carl"], variant="advanced", pile_size=5))
    assert (error.value.rule_id, error.value.code) == ("AS-2", "pile_size")


def test_an_exhausted_deck_is_replaced_by_the_shuffled_discard_pile():
    # Six players hold 36 of the 40 test cards: four are left in the deck.
    hands = [["A16"], ["G2"], ["A17"], ["G6"], ["A6"], ["G15"]]
    table = at_battle(hands, "C1", zone="air")
    for seat, hand in enumerate(hands):
        table.play(CardDiscarded(seat=seat, card=hand[0]))
    assert table.state.decision.kind == "no_combat"
    assert table.state.deck == 4
    for seat in (1, 2, 3, 4):
        table.play(CardsDrawn(seat=seat, cards=(None,)))
    assert refused(table, CardsDrawn(seat=5, cards=(None,))).code == "deck_short"
    table.play(DeckReshuffled())  # AS-12, G-4
    assert table.state.deck == 6 and table.state.discard == ()
    # Walker was discarded by Alain; after the reshuffle it may be drawn again.
    table.play(CardsDrawn(seat=5, cards=("A16",)), CardsDrawn(seat=0, cards=(None,)))
    assert table.state.phase == "turn_convoy"
    assert "A16" in table.state.hands[5]
