"""Each rule reading MN-2 to MN-19 (and G-2): the legal case accepted, each illegal case refused with
its rule id, and the automatic consequences `evolve` computes."""

from __future__ import annotations

import pytest

from domain.milles_nautiques import RULESET
from domain.milles_nautiques.catalogue import CONVOY_COUNT, DECK_SIZE
from domain.milles_nautiques.events import (
    AlertEnded,
    AlertPlayed,
    ConvoyPlaced,
    ConvoysRevealed,
    Dealt,
    Discarded,
    Drew,
    FairSeaPlayed,
    MilesPlayed,
    MineLaid,
    MinesweeperPlayed,
    NeutralFlagPlayed,
    PlaneHit,
    PlanePlayed,
    RadarPlayed,
    RevealedConvoy,
    StormPlayed,
    WarshipPlayed,
)
from domain.ruleset import Player, RuleError, Setup, Viewer
from testkit.players.milles_nautiques import make_setup
from tests.domain.milles_nautiques.harness import Scene


def alains_convoy(card: str = "convoy_10000", players: int = 2, teams: bool = False) -> Scene:
    """Alain (seat 0) lays convoy 1; the next player has drawn and is to play."""
    scene = Scene(players, teams).turn(ConvoyPlaced(seat=0, position=0, card=card))
    return scene.draw()


def attacked(ship: str = "cruiser") -> Scene:
    """Bea alerts Alain's convoy 1 and lays a ship against it; Alain has drawn and is to play."""
    scene = alains_convoy().do(AlertPlayed(seat=1, convoy=1))
    return scene.skip().turn(WarshipPlayed(seat=1, convoy=1, ship=ship)).draw()


# MN-1: the deck ----------------------------------------------------------------------------------


def test_the_deck_is_the_itemised_list_of_106_cards():
    assert DECK_SIZE == 106
    assert CONVOY_COUNT == 13
    assert Scene().state.stock == 106 - 12


def test_a_card_the_deck_does_not_hold_is_refused():
    scene = Scene().draw()
    scene.do(Discarded(seat=0, card="minesweeper"))
    error = scene.draw().refuse(Discarded(seat=1, card="torpedo"))
    assert (error.rule_id, error.code) == ("MN-1", "unknown_card")


# MN-2, MN-19: the deal and the turn ----------------------------------------------------------------


def test_the_player_on_the_dealers_left_plays_first():
    state = Scene(players=3, dealer=1).state
    assert state.to_play == 2
    assert state.phase == "draw"
    assert state.stock == 106 - 18
    assert [hand.size for hand in state.hands] == [6, 6, 6]


def test_a_deal_by_another_player_than_the_set_up_names_is_refused():
    state = RULESET.initial(make_setup(2, dealer=0))
    with pytest.raises(RuleError) as error:
        RULESET.validate(state, Dealt(dealer=1))
    assert (error.value.rule_id, error.value.code) == ("MN-19", "wrong_dealer")


def test_set_up_options_other_than_the_dealer_and_the_round_number_are_refused():
    for options in ({"dealer": 2}, {"round": 0}, {"dealr": 1}):
        setup = make_setup(2)
        with pytest.raises(RuleError) as error:
            RULESET.initial(Setup(players=setup.players, options=options))
        assert error.value.rule_id == "MN-19"


def test_a_second_deal_is_refused():
    assert Scene().refuse(Dealt(dealer=1)).rule_id == "MN-2"


def test_a_player_out_of_turn_is_refused():
    error = Scene().refuse(Drew(seat=1))
    assert (error.rule_id, error.code) == ("MN-2", "not_your_turn")


def test_a_play_before_the_draw_is_refused():
    error = Scene().refuse(ConvoyPlaced(seat=0, position=0, card="convoy_5000"))
    assert (error.rule_id, error.code) == ("MN-2", "draw_first")


def test_a_second_draw_in_a_turn_is_refused():
    error = Scene().draw().refuse(Drew(seat=0))
    assert (error.rule_id, error.code) == ("MN-2", "already_drew")


def test_a_play_passes_the_turn_to_the_left_with_six_cards_in_hand():
    scene = Scene(players=3).turn(Discarded(seat=0, card="alert"))
    assert scene.state.to_play == 1
    assert scene.state.hands[0].size == 6
    assert scene.state.turn == 2


# MN-3: convoy rows ------------------------------------------------------------------------------


def test_a_convoy_goes_between_two_convoys_and_the_others_keep_their_places():
    scene = Scene().turn(ConvoyPlaced(seat=0, position=0, card="convoy_5000")).skip()
    scene.turn(ConvoyPlaced(seat=0, position=1, card="convoy_2500")).skip()
    scene.turn(ConvoyPlaced(seat=0, position=1, card="trawler"))
    assert scene.state.rows[0] == (1, 3, 2)


def test_a_convoy_beyond_the_end_of_the_row_is_refused():
    error = Scene().draw().refuse(ConvoyPlaced(seat=0, position=1, card="convoy_5000"))
    assert (error.rule_id, error.code) == ("MN-3", "bad_position")


def test_a_card_that_is_not_a_convoy_cannot_be_laid_as_one():
    error = Scene().draw().refuse(ConvoyPlaced(seat=0, position=0, card="cruiser"))
    assert (error.rule_id, error.code) == ("MN-3", "not_a_convoy")


# MN-4: miles -----------------------------------------------------------------------------------


def test_miles_on_an_opponents_convoy_are_refused():
    error = alains_convoy().refuse(MilesPlayed(seat=1, convoy=1, card="miles_200"))
    assert (error.rule_id, error.code) == ("MN-4", "not_your_convoy")


def test_a_convoy_arrives_at_four_thousand_miles_or_more_and_leaves_the_row():
    scene = alains_convoy().skip()
    for card in ("miles_2000", "miles_1000", "miles_600"):
        scene.turn(MilesPlayed(seat=0, convoy=1, card=card)).skip()
    assert scene.convoy(1).status == "at_sea"
    scene.turn(MilesPlayed(seat=0, convoy=1, card="miles_1000"))
    convoy = scene.convoy(1)
    assert (convoy.status, convoy.distance) == ("arrived", 4600)
    assert scene.state.rows[0] == ()
    error = scene.draw().refuse(AlertPlayed(seat=1, convoy=1))
    assert (error.rule_id, error.code) == ("MN-4", "convoy_arrived")


def test_an_alert_and_a_lone_plane_do_not_stop_a_convoy():
    scene = alains_convoy().do(AlertPlayed(seat=1, convoy=1)).skip()
    scene.turn(PlanePlayed(seat=1, convoy=1)).draw()
    scene.do(MilesPlayed(seat=0, convoy=1, card="miles_1000"))
    assert scene.convoy(1).distance == 1000


def test_a_convoy_in_a_naval_battle_takes_no_miles():
    error = attacked().refuse(MilesPlayed(seat=0, convoy=1, card="miles_200"))
    assert (error.rule_id, error.code) == ("MN-4", "stopped_by_battle")


def test_an_arriving_convoy_keeps_its_miles_and_sends_its_alert_plane_and_mine_to_the_discard():
    # Gap reading (package docstring): what lies against an arrived convoy goes to the discard.
    scene = alains_convoy().do(AlertPlayed(seat=1, convoy=1))
    scene.turn(MilesPlayed(seat=0, convoy=1, card="miles_2000")).turn(PlanePlayed(seat=1, convoy=1))
    scene.turn(MilesPlayed(seat=0, convoy=1, card="miles_1000")).turn(MineLaid(seat=1, convoy=1))
    scene.turn(MilesPlayed(seat=0, convoy=1, card="miles_1000"))
    convoy = scene.convoy(1)
    assert convoy.status == "arrived"
    assert convoy.miles == ("miles_2000", "miles_1000", "miles_1000")
    assert (convoy.alert, convoy.plane, convoy.mine) == (False, None, None)
    assert (scene.discarded("alert"), scene.discarded("plane"), scene.discarded("mine")) == (1, 1, 1)


# MN-5: alert, end of alert ---------------------------------------------------------------------


def test_an_alert_on_ones_own_convoy_is_refused():
    scene = Scene().turn(ConvoyPlaced(seat=0, position=0, card="convoy_5000")).skip().draw()
    assert scene.refuse(AlertPlayed(seat=0, convoy=1)).rule_id == "MN-5"


def test_a_second_alert_on_a_convoy_is_refused():
    scene = alains_convoy(players=3).do(AlertPlayed(seat=1, convoy=1)).draw()
    error = scene.refuse(AlertPlayed(seat=2, convoy=1))
    assert (error.rule_id, error.code) == ("MN-5", "already_alerted")


def test_an_end_of_alert_sends_the_alert_and_the_battle_to_the_discard():
    scene = attacked("destroyer").do(AlertEnded(seat=0, convoy=1))
    convoy = scene.convoy(1)
    assert (convoy.alert, convoy.battle, convoy.status) == (False, (), "at_sea")
    assert [scene.discarded(card) for card in ("end_of_alert", "alert", "destroyer")] == [1, 1, 1]


def test_an_end_of_alert_on_someone_elses_convoy_is_refused():
    scene = alains_convoy(players=3).do(AlertPlayed(seat=1, convoy=1)).draw()
    error = scene.refuse(AlertEnded(seat=2, convoy=1))
    assert (error.rule_id, error.code) == ("MN-5", "not_your_convoy")


def test_a_partner_may_end_the_alert_on_the_teams_convoy():
    scene = alains_convoy(players=4, teams=True).do(AlertPlayed(seat=1, convoy=1)).draw()
    scene.do(AlertEnded(seat=2, convoy=1))
    assert not scene.convoy(1).alert


# MN-6: naval battles ---------------------------------------------------------------------------


def test_a_naval_attack_without_an_alert_is_refused():
    error = alains_convoy().refuse(WarshipPlayed(seat=1, convoy=1, ship="cruiser"))
    assert (error.rule_id, error.code) == ("MN-6", "no_alert")


def test_a_defending_ship_weaker_than_the_attacker_is_refused():
    error = attacked("cruiser").refuse(WarshipPlayed(seat=0, convoy=1, ship="destroyer"))
    assert (error.rule_id, error.code) == ("MN-6", "too_weak")


def test_a_defence_with_no_battle_to_answer_is_refused():
    scene = alains_convoy().skip().draw()
    error = scene.refuse(WarshipPlayed(seat=0, convoy=1, ship="carrier"))
    assert (error.rule_id, error.code) == ("MN-6", "nothing_to_defend")


def test_a_second_attacker_must_wait_for_the_defender_to_answer():
    scene = alains_convoy(players=3).do(AlertPlayed(seat=1, convoy=1)).skip(2)
    scene.turn(WarshipPlayed(seat=1, convoy=1, ship="frigate")).draw()
    error = scene.refuse(WarshipPlayed(seat=2, convoy=1, ship="carrier"))
    assert (error.rule_id, error.code) == ("MN-6", "ships_alternate")


def test_an_unanswered_attacking_ship_sinks_the_convoy_at_the_start_of_its_layers_next_turn():
    scene = attacked("cruiser").do(Discarded(seat=0, card="alert"))
    convoy = scene.convoy(1)
    assert (convoy.status, convoy.captor) == ("destroyed", 1)
    assert scene.state.phase == "draw" and scene.state.to_play == 1
    assert scene.discarded("cruiser") == 1 and scene.discarded("alert") == 2
    assert [c.kind for c in scene.state.consequences] == ["sunk"]


def test_an_unanswered_defending_ship_saves_the_convoy_and_clears_the_battle():
    scene = attacked("cruiser").do(WarshipPlayed(seat=0, convoy=1, ship="carrier")).skip()
    convoy = scene.convoy(1)
    assert (convoy.status, convoy.alert, convoy.battle) == ("at_sea", False, ())
    assert [scene.discarded(card) for card in ("cruiser", "carrier", "alert")] == [1, 1, 1]


def test_a_tied_battle_is_not_decided_and_either_side_may_restart_with_a_weaker_ship():
    scene = attacked("cruiser").do(WarshipPlayed(seat=0, convoy=1, ship="cruiser")).skip()
    assert len(scene.convoy(1).battle) == 2  # tied: nothing decided at Alain's turn
    assert scene.draw().refuse(MilesPlayed(seat=0, convoy=1, card="miles_200")).rule_id == "MN-4"
    scene.skip().draw().do(WarshipPlayed(seat=1, convoy=1, ship="submarine"))
    assert [ship.strength for ship in scene.convoy(1).battle] == [4, 4, 1]


def tied() -> Scene:
    """Bea's cruiser against Alain's convoy 1, answered by Alain's cruiser (tied, MN-6); Bea has drawn."""
    return attacked("cruiser").do(WarshipPlayed(seat=0, convoy=1, ship="cruiser")).draw()


def test_an_attacker_restarting_a_tie_with_an_equal_ship_sinks_the_convoy_if_it_holds_a_full_turn():
    # MN-6: the restart is a new play, not an answer to the ship below it: unanswered, it wins.
    scene = tied().do(WarshipPlayed(seat=1, convoy=1, ship="cruiser"))
    scene.skip()  # Alain lets it stand
    convoy = scene.convoy(1)
    assert (convoy.status, convoy.captor) == ("destroyed", 1)
    assert [c.kind for c in scene.state.consequences] == ["sunk"]


def test_a_defender_restarting_a_tie_with_an_equal_ship_saves_the_convoy_if_it_holds_a_full_turn():
    scene = tied().skip().draw().do(WarshipPlayed(seat=0, convoy=1, ship="cruiser"))
    scene.skip()  # Bea lets it stand
    convoy = scene.convoy(1)
    assert (convoy.status, convoy.battle, convoy.alert) == ("at_sea", (), False)
    assert [c.kind for c in scene.state.consequences] == ["saved"]


def test_an_equal_answer_to_a_restart_ties_the_battle_again():
    scene = tied().do(WarshipPlayed(seat=1, convoy=1, ship="cruiser")).draw()
    error = scene.refuse(WarshipPlayed(seat=0, convoy=1, ship="destroyer"))
    assert (error.rule_id, error.code) == ("MN-6", "too_weak")  # a restart is answered like any ship
    scene.do(WarshipPlayed(seat=0, convoy=1, ship="cruiser")).skip(2)
    assert scene.convoy(1).status == "at_sea"
    assert [ship.strength for ship in scene.convoy(1).battle] == [4, 4, 4, 4]  # tied: nothing decided


def test_two_submarines_together_beat_a_carrier_and_bring_an_extra_draw():
    scene = attacked("carrier")
    assert scene.refuse(WarshipPlayed(seat=0, convoy=1, ship="submarine")).code == "too_weak"
    scene.do(WarshipPlayed(seat=0, convoy=1, ship="submarine", paired=True))
    assert scene.convoy(1).battle[-1].strength == 6
    assert (scene.state.phase, scene.state.to_play, scene.state.hands[0].size) == ("extra_draw", 0, 5)
    scene.draw()
    assert (scene.state.to_play, scene.state.hands[0].size) == (1, 6)


def test_only_submarines_may_be_paired():
    error = attacked().refuse(WarshipPlayed(seat=0, convoy=1, ship="carrier", paired=True))
    assert (error.rule_id, error.code) == ("MN-6", "only_submarines_pair")


def test_a_partner_defends_the_teams_convoy():
    scene = alains_convoy(players=4, teams=True).do(AlertPlayed(seat=1, convoy=1)).skip(3)
    scene.turn(WarshipPlayed(seat=1, convoy=1, ship="destroyer"))
    scene.turn(WarshipPlayed(seat=2, convoy=1, ship="destroyer"))
    assert [ship.attacking for ship in scene.convoy(1).battle] == [True, False]


# MN-7: planes ----------------------------------------------------------------------------------


def test_a_second_plane_from_another_player_is_refused():
    scene = alains_convoy(players=3).do(PlanePlayed(seat=1, convoy=1)).draw()
    error = scene.refuse(PlanePlayed(seat=2, convoy=1))
    assert (error.rule_id, error.code) == ("MN-7", "second_plane_other_player")


def test_a_second_plane_from_the_first_planes_partner_is_refused():
    scene = alains_convoy(players=4, teams=True).do(PlanePlayed(seat=1, convoy=1)).skip().draw()
    assert scene.seat == 3
    assert scene.refuse(PlanePlayed(seat=3, convoy=1)).code == "second_plane_other_player"


def test_the_same_players_second_plane_destroys_the_convoy():
    scene = alains_convoy().do(PlanePlayed(seat=1, convoy=1)).skip().turn(PlanePlayed(seat=1, convoy=1))
    convoy = scene.convoy(1)
    assert (convoy.status, convoy.captor) == ("destroyed", 1)
    assert scene.discarded("plane") == 2
    assert [c.kind for c in scene.state.consequences] == ["bombed"]


def test_a_plane_hit_sends_the_lone_plane_and_itself_to_the_discard():
    scene = alains_convoy().do(PlanePlayed(seat=1, convoy=1)).turn(PlaneHit(seat=0, convoy=1))
    assert scene.convoy(1).plane is None
    assert (scene.discarded("plane"), scene.discarded("plane_hit")) == (1, 1)


def test_a_plane_hit_with_no_plane_or_on_someone_elses_convoy_is_refused():
    scene = alains_convoy(players=3).do(PlanePlayed(seat=1, convoy=1)).draw()
    assert scene.refuse(PlaneHit(seat=2, convoy=1)).code == "not_your_convoy"
    scene = alains_convoy().skip().draw()
    assert scene.refuse(PlaneHit(seat=0, convoy=1)).code == "no_plane"


def test_a_plane_on_ones_own_convoy_is_refused():
    scene = alains_convoy().skip().draw()
    assert scene.refuse(PlanePlayed(seat=0, convoy=1)).rule_id == "MN-7"


# MN-8: mines -----------------------------------------------------------------------------------


def test_a_mine_explodes_at_the_start_of_its_layers_next_turn():
    scene = alains_convoy().do(MineLaid(seat=1, convoy=1)).draw()
    assert scene.convoy(1).status == "at_sea"
    scene.do(Discarded(seat=0, card="alert"))
    convoy = scene.convoy(1)
    assert (convoy.status, convoy.captor) == ("destroyed", 1)
    assert scene.discarded("mine") == 1
    assert scene.state.phase == "draw"  # before Bea's draw


def test_a_minesweeper_clears_the_mine():
    scene = alains_convoy().do(MineLaid(seat=1, convoy=1)).turn(MinesweeperPlayed(seat=0, convoy=1))
    assert scene.convoy(1).status == "at_sea" and scene.convoy(1).mine is None
    assert (scene.discarded("mine"), scene.discarded("minesweeper")) == (1, 1)


def test_a_minesweeper_on_someone_elses_convoy_is_refused():
    scene = alains_convoy(players=3).do(MineLaid(seat=1, convoy=1)).draw()
    error = scene.refuse(MinesweeperPlayed(seat=2, convoy=1))
    assert (error.rule_id, error.code) == ("MN-8", "not_your_convoy")


def test_a_mine_may_go_on_a_neutral_convoy_in_a_storm():
    scene = alains_convoy().skip().turn(NeutralFlagPlayed(seat=0, convoy=1)).turn(StormPlayed(seat=1, convoy=1))
    scene.skip().turn(MineLaid(seat=1, convoy=1))
    assert scene.convoy(1).mine == 1


def test_a_second_mine_on_a_convoy_is_refused():
    # Gap reading: one mine at a time on a convoy.
    scene = alains_convoy(players=3).do(MineLaid(seat=1, convoy=1)).draw()
    error = scene.refuse(MineLaid(seat=2, convoy=1))
    assert (error.rule_id, error.code) == ("MN-8", "already_mined")


# MN-9: radar -----------------------------------------------------------------------------------


def _row_of_three() -> Scene:
    scene = Scene()
    for position in range(3):
        scene.turn(ConvoyPlaced(seat=0, position=position, card="convoy_5000")).skip()
    return scene.skip().draw()  # Alain discards, Bea to play


def test_a_radar_on_a_middle_convoy_is_refused():
    scene = _row_of_three()
    assert scene.state.rows[0] == (1, 2, 3)
    error = scene.refuse(RadarPlayed(seat=1, convoy=2))
    assert (error.rule_id, error.code) == ("MN-9", "not_at_an_end")


def test_a_radar_detects_either_end_of_a_row():
    scene = _row_of_three().do(RadarPlayed(seat=1, convoy=3))
    assert scene.convoy(3).detected
    scene.skip().turn(RadarPlayed(seat=1, convoy=1))
    assert [c.detected for c in scene.state.convoys] == [True, False, True]


def test_a_radar_on_ones_own_convoy_or_a_detected_one_is_refused():
    scene = _row_of_three()
    scene.skip().draw()
    assert scene.refuse(RadarPlayed(seat=0, convoy=1)).code == "own_convoy"
    scene = _row_of_three().do(RadarPlayed(seat=1, convoy=1)).skip().draw()
    assert scene.refuse(RadarPlayed(seat=1, convoy=1)).code == "already_detected"


def test_a_radar_turns_a_face_down_convoy_up_for_the_record():
    scene = Scene().turn(ConvoyPlaced(seat=0, position=0)).draw()
    assert scene.convoy(1).card is None
    error = scene.refuse(RadarPlayed(seat=1, convoy=1, revealed="radar"))
    assert (error.rule_id, error.code) == ("MN-3", "not_a_convoy")
    scene.do(RadarPlayed(seat=1, convoy=1, revealed="convoy_20000"))
    assert scene.convoy(1).card == "convoy_20000" and scene.convoy(1).detected


def test_a_radar_that_contradicts_the_record_is_refused():
    scene = alains_convoy("convoy_5000")
    error = scene.refuse(RadarPlayed(seat=1, convoy=1, revealed="convoy_20000"))
    assert (error.rule_id, error.code) == ("G-2", "contradicts_record")


# MN-10: storm and fair sea --------------------------------------------------------------------


def stormy() -> Scene:
    """Bea lays a storm on Alain's convoy 1; Alain has drawn."""
    return alains_convoy().do(StormPlayed(seat=1, convoy=1)).draw()


def test_a_thousand_mile_card_on_a_convoy_in_a_storm_is_refused():
    scene = stormy()
    error = scene.refuse(MilesPlayed(seat=0, convoy=1, card="miles_1000"))
    assert (error.rule_id, error.code) == ("MN-10", "storm_limit")
    scene.do(MilesPlayed(seat=0, convoy=1, card="miles_600"))
    assert scene.convoy(1).distance == 600


def test_no_ship_or_plane_against_a_convoy_in_a_storm_but_a_mine_may():
    scene = alains_convoy().do(AlertPlayed(seat=1, convoy=1)).skip().turn(StormPlayed(seat=1, convoy=1))
    scene.skip().draw()
    for event in (WarshipPlayed(seat=1, convoy=1, ship="cruiser"), PlanePlayed(seat=1, convoy=1)):
        assert scene.refuse(event).rule_id == "MN-10"
    scene.do(MineLaid(seat=1, convoy=1))


def test_an_alert_may_be_laid_on_a_convoy_in_a_storm_and_its_attack_waits_for_the_fair_sea():
    # MN-22: an alert is not an attack; the ships it allows still wait for the storm to end (MN-10).
    scene = stormy().skip().draw().do(AlertPlayed(seat=1, convoy=1))
    assert scene.convoy(1).alert and scene.convoy(1).storm
    scene.skip().draw()
    error = scene.refuse(WarshipPlayed(seat=1, convoy=1, ship="cruiser"))
    assert (error.rule_id, error.code) == ("MN-10", "in_storm")
    assert AlertPlayed(seat=1, convoy=1) not in RULESET.legal_events(scene.state, 1)  # one alert only
    scene.do(FairSeaPlayed(seat=1, convoy=1)).skip().draw()
    scene.do(WarshipPlayed(seat=1, convoy=1, ship="cruiser"))
    assert scene.convoy(1).battle[-1].attacking


def test_a_fair_sea_ends_the_storm_and_both_go_to_the_discard():
    scene = stormy().do(FairSeaPlayed(seat=0, convoy=1))
    assert not scene.convoy(1).storm
    assert (scene.discarded("storm"), scene.discarded("fair_sea")) == (1, 1)
    assert scene.draw().refuse(FairSeaPlayed(seat=1, convoy=1)).code == "no_storm"


def test_a_storm_on_a_convoy_in_battle_or_already_in_a_storm_is_refused():
    assert attacked().refuse(StormPlayed(seat=0, convoy=1)).code == "battle_on_convoy"
    assert stormy().refuse(StormPlayed(seat=0, convoy=1)).code == "already_in_storm"


def test_a_player_may_lay_a_storm_on_his_own_convoy():
    scene = alains_convoy().skip().turn(StormPlayed(seat=0, convoy=1))
    assert scene.convoy(1).storm


# MN-11: neutral flag ---------------------------------------------------------------------------


def test_a_neutral_flag_on_an_alerted_convoy_is_refused():
    scene = alains_convoy().do(AlertPlayed(seat=1, convoy=1)).draw()
    error = scene.refuse(NeutralFlagPlayed(seat=0, convoy=1))
    assert (error.rule_id, error.code) == ("MN-11", "under_attack")


def test_a_neutral_convoy_takes_no_alert_ship_or_plane():
    scene = alains_convoy().skip().turn(NeutralFlagPlayed(seat=0, convoy=1)).draw()
    for event in (AlertPlayed(seat=1, convoy=1), PlanePlayed(seat=1, convoy=1)):
        assert scene.refuse(event).rule_id == "MN-11"
    scene.do(StormPlayed(seat=1, convoy=1))


def test_a_neutral_flag_on_an_opponents_convoy_is_refused():
    assert alains_convoy().refuse(NeutralFlagPlayed(seat=1, convoy=1)).code == "not_your_convoy"


# MN-12: one destruction ------------------------------------------------------------------------


def test_a_destroyed_convoy_sends_every_other_card_on_it_to_the_discard():
    scene = alains_convoy(players=3).do(PlanePlayed(seat=1, convoy=1))
    scene.turn(MineLaid(seat=2, convoy=1)).turn(MilesPlayed(seat=0, convoy=1, card="miles_400"))
    scene.turn(PlanePlayed(seat=1, convoy=1))
    convoy = scene.convoy(1)
    assert (convoy.status, convoy.captor) == ("destroyed", 1)
    assert [scene.discarded(card) for card in ("mine", "plane", "miles_400")] == [1, 2, 1]
    assert scene.state.rows[0] == ()


# MN-13, MN-21: convoy points -------------------------------------------------------------------


def test_a_detected_five_thousand_left_at_zero_miles_scores_as_a_ten_thousand():
    scene = Scene().run_out(
        {
            0: [
                ConvoyPlaced(seat=0, position=0, card="convoy_5000"),
                ConvoyPlaced(seat=0, position=1, card="convoy_2500"),
                MilesPlayed(seat=0, convoy=2, card="miles_2000"),
                MilesPlayed(seat=0, convoy=2, card="miles_2000"),
            ],
            1: [RadarPlayed(seat=1, convoy=1)],
        },
    )
    assert scene.convoy(1).detected and scene.convoy(1).distance == 0
    # 1 point for the detected 5,000 (the 10,000 column at 0 miles) + 2.5 for the 2,500 in port.
    assert RULESET.result(scene.state, Viewer.public()).players[0].breakdown["convoy"] == 2 + 5


# MN-15: the end of the round -------------------------------------------------------------------


def test_capture_points_count_only_once_the_captor_has_a_convoy_in_port():
    # Bea captures Alain's 20,000 (20 points) then brings her own 20,000 in (20 points): 40, over.
    scene = Scene().turn(ConvoyPlaced(seat=0, position=0, card="convoy_20000"))
    scene.turn(ConvoyPlaced(seat=1, position=0, card="convoy_20000"))
    scene.skip().turn(PlanePlayed(seat=1, convoy=1)).skip().turn(PlanePlayed(seat=1, convoy=1))
    assert scene.convoy(1).status == "destroyed"
    assert RULESET.result(scene.state, Viewer.public()).players[1].score == 0
    for card in ("miles_2000", "miles_2000"):
        scene.skip().turn(MilesPlayed(seat=1, convoy=2, card=card))
    assert (scene.state.phase, scene.state.ended) == ("over", "forty")
    assert RULESET.result(scene.state, Viewer.public()).players[1].breakdown == {
        "convoy": 40,
        "capture": 40,
        "round_bonus": 20,
        "slowness_bonus": 0,
    }


def test_a_round_over_refuses_every_further_play():
    scene = Scene().turn(ConvoyPlaced(seat=0, position=0, card="convoy_20000")).turn(RadarPlayed(seat=1, convoy=1))
    scene.turn(MilesPlayed(seat=0, convoy=1, card="miles_2000")).skip()
    scene.turn(MilesPlayed(seat=0, convoy=1, card="miles_2000"))  # detected 20,000 in port: 40
    assert scene.state.phase == "over"
    for event in (
        Drew(seat=1),
        Drew(seat=0),
        Discarded(seat=1, card="alert"),
        ConvoysRevealed(convoys=(RevealedConvoy(convoy=1, card="convoy_20000"),)),
    ):
        assert scene.refuse(event).rule_id == "MN-15"


def test_a_mine_that_brings_its_layer_to_forty_ends_the_round_before_his_draw():
    # Checked after every automatic consequence (MN-15).
    scene = Scene().turn(ConvoyPlaced(seat=0, position=0, card="convoy_20000"))
    scene.turn(ConvoyPlaced(seat=1, position=0, card="convoy_20000"))
    scene.turn(MilesPlayed(seat=0, convoy=1, card="miles_2000"))
    scene.turn(MilesPlayed(seat=1, convoy=2, card="miles_2000"))
    scene.turn(ConvoyPlaced(seat=0, position=1, card="convoy_10000"))
    scene.turn(MilesPlayed(seat=1, convoy=2, card="miles_2000"))  # Bea in port: 20 points
    scene.turn(Discarded(seat=0, card="alert"))
    scene.turn(MineLaid(seat=1, convoy=1))  # Alain's 20,000 at 2,000 miles
    scene.turn(Discarded(seat=0, card="alert"))
    assert (scene.state.phase, scene.state.ended, scene.state.forty_sides) == ("over", "forty", (1,))
    assert scene.state.hands[1].size == 6  # no draw happened
    assert [c.kind for c in scene.state.consequences] == ["mined", "round_over_forty"]


def test_a_round_with_no_convoy_in_port_when_the_cards_run_out_is_void():
    scene = Scene(players=3).run_out({0: [ConvoyPlaced(seat=0, position=0, card="convoy_20000")]})
    result = RULESET.result(scene.state, Viewer.public())
    assert result.finished and result.void
    assert result.winners == ()
    assert all(player.score == 0 for player in result.players)


def test_a_convoy_the_record_never_knew_must_be_revealed_before_the_round_is_scored():
    scene = Scene()
    scene.reserved["convoy_10000"] = 1
    scene = scene.run_out(
        {
            0: [
                ConvoyPlaced(seat=0, position=0, card="convoy_5000"),
                ConvoyPlaced(seat=0, position=1),
                MilesPlayed(seat=0, convoy=1, card="miles_2000"),
                MilesPlayed(seat=0, convoy=1, card="miles_2000"),
            ]
        },
    )
    assert scene.state.phase == "reveal"
    assert not RULESET.result(scene.state, Viewer.public()).finished
    assert (
        scene.refuse(ConvoysRevealed(convoys=(RevealedConvoy(convoy=1, card="convoy_5000"),))).code == "already_known"
    )
    scene.do(ConvoysRevealed(convoys=(RevealedConvoy(convoy=2, card="convoy_10000"),)))
    result = RULESET.result(scene.state, Viewer.public())
    assert result.finished and result.winners == (0,)
    # 5,000 in port 5 + 10,000 at 0 miles 1 = 6 points, +10 winner; no slowness (2,000s).
    assert result.players[0].score == 12 + 20


def test_a_player_showing_face_down_convoys_that_make_forty_ends_the_round():
    # Gap reading: a convoy the record does not know counts 0 until revealed; a reveal during the
    # round is accepted and followed by the 40-point check.
    scene = Scene().turn(ConvoyPlaced(seat=0, position=0, card="convoy_20000")).skip()
    scene.turn(ConvoyPlaced(seat=0, position=1)).skip()
    for convoy, card in ((1, "miles_2000"), (1, "miles_2000"), (2, "miles_2000"), (2, "miles_1000"), (2, "miles_1000")):
        scene.turn(MilesPlayed(seat=0, convoy=convoy, card=card)).skip()
    assert [c.status for c in scene.state.convoys] == ["arrived", "arrived"]
    assert scene.state.phase == "draw"  # the record knows 20 points: convoy 1
    scene.do(ConvoysRevealed(convoys=(RevealedConvoy(convoy=2, card="convoy_20000"),)))
    assert (scene.state.phase, scene.state.ended, scene.state.forty_sides) == ("over", "forty", (0,))
    assert RULESET.result(scene.state, Viewer.public()).players[0].breakdown["convoy"] == 80


def test_pending_mines_and_battles_are_not_decided_when_the_cards_run_out():
    # Gap reading: the last card ends the round at once.
    scene = Scene()
    scene.reserved["mine"] = 1
    plays = {0: [ConvoyPlaced(seat=0, position=0, card="convoy_5000")], 1: []}
    state_before_end = None
    while scene.state.phase not in ("over", "reveal"):
        if scene.state.phase == "draw":
            scene.draw()
            continue
        if scene.state.stock == 0 and scene.state.hands[0].size == 0 and scene.state.hands[1].size == 1:
            scene.do(MineLaid(seat=1, convoy=1))
            state_before_end = scene.state
            break
        queue = plays.get(scene.seat)
        scene.do(queue.pop(0) if queue else Discarded(seat=scene.seat, card=scene.spare_card()))
    assert state_before_end is not None
    assert scene.state.phase == "over" and scene.state.ended == "cards"
    assert scene.convoy(1).status == "at_sea" and scene.convoy(1).mine == 1


def test_once_the_stock_is_empty_players_play_without_drawing_and_empty_hands_are_passed_over():
    scene = Scene(players=3)
    while scene.state.stock:
        scene.skip() if scene.state.phase == "draw" else scene.do(Discarded(seat=scene.seat, card=scene.spare_card()))
    # 88 cards in the stock: seat 0 took the last one; seat 1 now plays without drawing.
    assert (scene.state.phase, scene.state.to_play) == ("play", 1)
    sizes = [hand.size for hand in scene.state.hands]
    assert sizes == [6, 6, 6]
    seen_seats = []
    while scene.state.phase == "play":
        seen_seats.append(scene.seat)
        scene.do(Discarded(seat=scene.seat, card=scene.spare_card()))
    assert scene.state.phase == "over" and scene.state.ended == "cards"
    assert all(hand.size == 0 for hand in scene.state.hands)
    assert seen_seats == [1, 2, 0] * 6


def test_a_player_passed_over_with_an_empty_hand_still_has_his_mine_explode():
    # Gap reading: once the stock is empty a player with no card is passed over, but his battles and
    # mines still come due at what would have been his turn.
    scene = Scene(players=3)
    scene.reserved.update({"submarine": 2, "mine": 1})
    scene.turn(ConvoyPlaced(seat=0, position=0, card="convoy_5000")).turn(AlertPlayed(seat=1, convoy=1))
    scene.skip().turn(ConvoyPlaced(seat=0, position=1, card="convoy_10000"))
    while scene.state.stock:
        scene.skip()
    assert (scene.state.phase, scene.state.to_play) == ("play", 1)
    scene.do(WarshipPlayed(seat=1, convoy=1, ship="submarine", paired=True))  # Bea: 4 cards left
    scene.reserved["submarine"] = 0
    while scene.state.hands[1].size > 1 or scene.seat != 1:
        scene.do(Discarded(seat=scene.seat, card=scene.spare_card()))
    scene.do(MineLaid(seat=1, convoy=2))  # Bea's last card
    scene.reserved["mine"] = 0
    scene.do(Discarded(seat=2, card=scene.spare_card()))
    scene.do(Discarded(seat=0, card=scene.spare_card()))
    convoy = scene.convoy(2)
    assert (convoy.status, convoy.captor) == ("destroyed", 1)
    assert [c.kind for c in scene.state.consequences] == ["mined"]
    assert (scene.state.phase, scene.state.to_play) == ("play", 2)  # Bea, with no card, is passed over


# MN-16: bonuses --------------------------------------------------------------------------------


@pytest.mark.parametrize(("second", "bonus"), [("convoy_2500", 0), ("trawler", 14)])
def test_one_fast_arrival_withholds_the_slowness_bonus_unless_it_is_the_trawler(second, bonus):
    # MN-20: a trawler in port is not an arrived convoy, so its 2,000s do not count.
    scene = Scene().run_out(
        {
            0: [
                ConvoyPlaced(seat=0, position=0, card="convoy_2500"),
                ConvoyPlaced(seat=0, position=1, card=second),
                *[MilesPlayed(seat=0, convoy=1, card="miles_600")] * 6,
                MilesPlayed(seat=0, convoy=1, card="miles_400"),
                MilesPlayed(seat=0, convoy=2, card="miles_2000"),
                MilesPlayed(seat=0, convoy=2, card="miles_2000"),
            ]
        },
    )
    assert [c.status for c in scene.state.convoys] == ["arrived", "arrived"]
    assert RULESET.result(scene.state, Viewer.public()).players[0].breakdown["slowness_bonus"] == bonus


def test_sides_level_at_the_top_share_the_round_win():
    # Gap reading: each side level at the top gets the +10 bonus.
    scene = Scene().run_out(
        {
            0: [
                ConvoyPlaced(seat=0, position=0, card="convoy_5000"),
                MilesPlayed(seat=0, convoy=1, card="miles_2000"),
                MilesPlayed(seat=0, convoy=1, card="miles_2000"),
            ],
            1: [
                ConvoyPlaced(seat=1, position=0, card="convoy_5000"),
                MilesPlayed(seat=1, convoy=2, card="miles_2000"),
                MilesPlayed(seat=1, convoy=2, card="miles_1000"),
                MilesPlayed(seat=1, convoy=2, card="miles_1000"),
            ],
        },
    )
    result = RULESET.result(scene.state, Viewer.public())
    assert result.winners == (0, 1)
    assert [p.score for p in result.players] == [10 + 20, 10 + 20]
    assert [p.placement for p in result.players] == [1, 1]


# MN-20: the trawler ---------------------------------------------------------------------------


def test_a_trawler_in_port_gives_no_right_to_score_so_captures_do_not_reach_forty():
    # Bea captures Alain's detected 20,000 (40 points) and sails the trawler 4,000 miles: it leaves
    # the row like any convoy, but it is not an arrived convoy, so her capture does not count yet.
    scene = Scene().turn(ConvoyPlaced(seat=0, position=0, card="convoy_20000"))
    scene.turn(ConvoyPlaced(seat=1, position=0, card="trawler")).skip()
    scene.turn(RadarPlayed(seat=1, convoy=1)).skip().turn(PlanePlayed(seat=1, convoy=1)).skip()
    scene.turn(PlanePlayed(seat=1, convoy=1))
    for card in ("miles_2000", "miles_2000"):
        scene.skip().turn(MilesPlayed(seat=1, convoy=2, card=card))
    assert scene.convoy(2).status == "arrived" and scene.state.rows[1] == ()
    assert scene.state.phase == "draw"  # not over: no 40 points
    assert RULESET.result(scene.state, Viewer.public()).players[1].breakdown["capture"] == 0
    scene.skip().turn(ConvoyPlaced(seat=1, position=0, card="convoy_2500"))
    for _ in range(4):
        scene.skip().turn(MilesPlayed(seat=1, convoy=3, card="miles_1000"))
    # A real convoy in port: 2.5 + 40 captured = 42.5 points, the round is over.
    assert (scene.state.phase, scene.state.ended, scene.state.forty_sides) == ("over", "forty", (1,))
    assert RULESET.result(scene.state, Viewer.public()).players[1].breakdown["capture"] == 80


def test_a_trawler_in_port_does_not_win_a_round_whose_cards_run_out():
    # Bea captures Alain's 5,000 (5 points) and brings the trawler in; Alain's 2,500 arrives (2.5).
    # Only Alain has an arrived convoy: he wins, and Bea's capture scores nothing.
    scene = Scene().run_out(
        {
            0: [
                ConvoyPlaced(seat=0, position=0, card="convoy_2500"),
                ConvoyPlaced(seat=0, position=1, card="convoy_5000"),
                MilesPlayed(seat=0, convoy=1, card="miles_2000"),
                MilesPlayed(seat=0, convoy=1, card="miles_2000"),
            ],
            1: [
                ConvoyPlaced(seat=1, position=0, card="trawler"),
                PlanePlayed(seat=1, convoy=3),
                PlanePlayed(seat=1, convoy=3),
                *[MilesPlayed(seat=1, convoy=2, card="miles_1000")] * 4,
            ],
        },
    )
    assert [c.status for c in scene.state.convoys] == ["arrived", "arrived", "destroyed"]
    result = RULESET.result(scene.state, Viewer.public())
    assert result.winners == (0,)
    assert [p.score for p in result.players] == [5 + 20, 0]


def test_a_round_whose_only_convoy_in_port_is_the_trawler_is_void():
    # A slow trawler in port earns neither the round nor the slowness bonus (MN-16).
    scene = Scene().run_out(
        {
            1: [
                ConvoyPlaced(seat=1, position=0, card="trawler"),
                *[MilesPlayed(seat=1, convoy=1, card="miles_600")] * 6,
                MilesPlayed(seat=1, convoy=1, card="miles_400"),
            ]
        },
    )
    assert scene.convoy(1).status == "arrived"
    result = RULESET.result(scene.state, Viewer.public())
    assert result.finished and result.void and result.winners == ()
    assert [p.score for p in result.players] == [0, 0]
    assert [c.kind for c in scene.state.consequences] == ["round_void"]


def test_a_face_down_convoy_in_port_gives_the_right_to_score_only_once_the_table_shows_it():
    # Reading: it might be the trawler (MN-20), so the record waits for the reveal, as the 40 claim does.
    scene = Scene().turn(ConvoyPlaced(seat=0, position=0, card="convoy_20000"))
    scene.turn(ConvoyPlaced(seat=1, position=0)).skip()
    scene.turn(RadarPlayed(seat=1, convoy=1)).skip().turn(PlanePlayed(seat=1, convoy=1)).skip()
    scene.turn(PlanePlayed(seat=1, convoy=1))
    for card in ("miles_2000", "miles_2000"):
        scene.skip().turn(MilesPlayed(seat=1, convoy=2, card=card))
    assert scene.convoy(2).status == "arrived" and scene.state.phase == "draw"
    scene.do(ConvoysRevealed(convoys=(RevealedConvoy(convoy=2, card="convoy_2500"),)))
    assert (scene.state.phase, scene.state.ended, scene.state.forty_sides) == ("over", "forty", (1,))


# MN-18: teams ----------------------------------------------------------------------------------


@pytest.mark.parametrize("teams", [(1, 1, 2, 2), (1, 2, 1, None), (1, 2, 3, 1)])
def test_teams_other_than_facing_partners_are_refused(teams):
    setup = Setup(players=tuple(Player(player_id=f"p{s}", name=f"P{s}", seat=s, team=t) for s, t in enumerate(teams)))
    with pytest.raises(RuleError) as error:
        RULESET.initial(setup)
    assert error.value.rule_id == "MN-18"


def test_teams_with_three_players_are_refused_and_seven_players_are_too_many():
    with pytest.raises(RuleError):
        RULESET.initial(make_setup(3, teams=True))
    setup = Setup(players=tuple(Player(player_id=f"p{s}", name=f"P{s}", seat=s) for s in range(7)))
    with pytest.raises(RuleError) as error:
        RULESET.initial(setup)
    assert error.value.code == "player_count"


def test_six_players_play_in_three_teams_of_facing_partners():
    state = RULESET.initial(make_setup(6, teams=True))
    assert state.side_seats == ((0, 3), (1, 4), (2, 5))
    assert state.side_of == (0, 1, 2, 0, 1, 2)


def test_partners_lay_their_convoys_in_one_row():
    scene = Scene(players=4, teams=True).turn(ConvoyPlaced(seat=0, position=0, card="convoy_5000")).skip()
    scene.turn(ConvoyPlaced(seat=2, position=0, card="convoy_2500"))
    assert scene.state.rows == ((2, 1), ())
    scene.skip().turn(MilesPlayed(seat=0, convoy=2, card="miles_200"))
    assert scene.convoy(2).distance == 200


# G-2: hidden information and conservation ------------------------------------------------------


def test_a_card_the_hand_cannot_hold_is_refused():
    scene = Scene(hands=(("convoy_5000",) * 3 + ("alert",) * 3, ())).draw("alert")
    error = scene.refuse(Discarded(seat=0, card="cruiser"))
    assert (error.rule_id, error.code) == ("G-2", "not_in_hand")


def test_naming_more_copies_than_the_deck_holds_is_refused():
    scene = Scene(hands=(("miles_2000", "miles_2000"), ("miles_2000",)))
    error = scene.refuse(Drew(seat=0, card="miles_2000"))
    assert (error.rule_id, error.code) == ("G-2", "too_many_copies")


def test_a_convoy_card_named_beyond_the_thirteen_with_one_laid_face_down_is_refused():
    # Twelve convoys named in the deal, a thirteenth laid face down: the trawler cannot turn up too.
    scene = Scene(hands=(("convoy_2500",) * 3 + ("convoy_5000",) * 3, ("convoy_10000",) * 4 + ("convoy_20000",) * 2))
    scene.turn(ConvoyPlaced(seat=0, position=0))
    error = scene.refuse(Drew(seat=1, card="trawler"))
    assert (error.rule_id, error.code) == ("G-2", "too_many_copies")
    scene.draw().do(RadarPlayed(seat=1, convoy=1, revealed="trawler"))  # revealing it is fine
    assert scene.convoy(1).card == "trawler"


def test_a_face_down_convoy_needs_a_face_down_card_in_hand():
    scene = Scene(hands=(("convoy_5000",) * 3 + ("alert",) * 3, ())).draw("alert")
    assert scene.refuse(ConvoyPlaced(seat=0, position=0)).code == "hidden_card_not_in_hand"


def test_a_face_down_card_becomes_known_when_it_is_played():
    scene = Scene()
    assert scene.state.hands[0].unknown == 6
    scene.turn(Discarded(seat=0, card="carrier"))
    assert scene.state.hands[0].unknown == 6  # one drawn face down, one named by its play
    assert scene.discarded("carrier") == 1
