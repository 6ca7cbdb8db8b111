"""A complete recorded D-Day game (M44-DD-1 to M44-DD-9) on the shipped Pointe du Verrier scenario, with
the test reinforcement table: Alain the Axis, Bea the Allies, who move first and win 6 to 5.

The record (fixtures/pointe_du_verrier_dday.jsonl, written once by make_fixtures.py) is never edited: it
guards stored D-Day games against changes to the reinforcement events or rules. The medals and reserves
at the chosen steps were checked by hand against the replay lines and the board: the west beach (B7, C7,
D7) and the east beach (I7, J7, K7) are Allied while no Axis unit is on or next to them (M44-DD-2); the
village (F5, G5) is Axis at the start and changes hands when the Allies alone stand in it (M44-DD-1); the
bridge at J3 belongs to the one side alone on or next to it (M44-DD-3). Units 0 to 14 are the scenario's,
reinforcements are numbered from 15.
"""

import pytest

from domain.memoire44 import RULESET
from domain.memoire44.events import Battle, CardPlayed, ReinforcementPlaced, ReinforcementsRolled
from domain.ruleset import RuleError, Viewer

from .harness import check_record, check_shipped_scenario, expected_medals, read_record, state_after

ALAIN, BEA = 0, 1


@pytest.fixture(scope="module")
def events():
    return read_record("pointe_du_verrier_dday.jsonl")


def test_the_record_is_a_dday_game_of_two_hundred_and_ninety_five_events(events):
    check_shipped_scenario(events[0], "pointe_du_verrier")
    state = state_after(events, 0)
    assert len(events) - 1 == 295 and len(state.units) == 15
    assert state.reserve == (
        {"infantry": 8, "armour": 3, "artillery": 2},
        {"infantry": 16, "armour": 6, "artillery": 2},
    )
    assert state.medals == (1, 0)  # M44-DD-1: the Axis hold the village at the start


def test_every_recorded_event_is_accepted_and_the_invariants_hold(events):
    check_record(events)  # includes the figures conserved between reserve, board and medals (M44-DD-8, 9)


def test_the_first_allied_turn_rolls_five_dice_and_lands_three_units(events):
    # M44-DD-6: four cards left in the Allied hand and Attack Centre shown: five dice; infantry, armour,
    # grenade, infantry, flag bring infantry, armour, infantry, infantry.
    assert events[11] == ReinforcementsRolled(seat=BEA, faces=("infantry", "armour", "grenade", "infantry", "flag"))
    assert state_after(events, 11).reinforcements == ("infantry", "armour", "infantry", "infantry")
    # M44-DD-7: placed after the orders, one in each landing craft (C9, G9, K9).
    assert [e.hex for e in events[13:16]] == [(8, 4), (8, 12), (8, 20)]
    state = state_after(events, 15)
    assert state.reserve[1] == {"infantry": 8, "armour": 3, "artillery": 2}  # 16 - 2 x 4; 6 - 3 (M44-DD-8)
    assert [u.uid for u in state.units[15:]] == [15, 16, 17] and all(
        u.uid not in {o.uid for o in state.orders} for u in state.units[15:]
    )


def test_the_axis_enter_by_their_entry_tokens(events):
    placed = [e for e in events if isinstance(e, ReinforcementPlaced) and e.seat == ALAIN]
    assert placed and {e.hex for e in placed} <= {(0, 6), (0, 12), (0, 18)}  # D1, G1, J1 (M44-DD-7)
    assert state_after(events, 28).reserve[0] == {"infantry": 2, "armour": 0, "artillery": 2}


def test_lost_figures_go_back_to_the_reserve_all_but_the_medal(events):
    # M44-DD-9: the Allied armour at G6 (three figures) takes one armour hit (3 -> 4 in reserve), then two
    # more hits eliminate it: one figure goes back (5), the last is the Axis' medal.
    assert state_after(events, 30).reserve[1]["armour"] == 3
    assert state_after(events, 31).reserve[1]["armour"] == 4
    state = state_after(events, 32)
    assert state.reserve[1]["armour"] == 5 and state.medals == (2, 0)


def test_after_the_allied_air_power_the_axis_play_without_reinforcements(events):
    assert events[250] == CardPlayed(seat=BEA, card="air_power")
    assert isinstance(events[252], Battle) and events[252].dice == 2  # M44-DD-4: Allied air superiority
    assert events[257] == CardPlayed(seat=ALAIN, card="barrage") and isinstance(events[258], Battle)
    state = state_after(events, 257)
    with pytest.raises(RuleError) as error:
        RULESET.validate(state, ReinforcementsRolled(seat=ALAIN, faces=("flag",) * 4))
    assert error.value.rule_id == "M44-DD-4"
    assert isinstance(events[268], ReinforcementsRolled)  # the next Axis turn rolls again


@pytest.mark.parametrize(
    ("step", "medals", "why"),
    [
        (15, (1, 0), "three Allied units land; the Axis still hold the village"),
        (32, (2, 0), "the Axis eliminate the Allied armour at G6"),
        (48, (3, 0), "Axis armour reaches J4, next to the J3 bridge, alone there"),
        (67, (3, 2), "the Allies eliminate the Axis infantry on D7: a kill, and no defender is left by the west beach"),
        (83, (2, 3), "Allied infantry enters F5 alone: the village medal passes to the Allies"),
        (133, (2, 5), "the Allies' third kill (H7): 3 kills, the west beach and the village"),
        (140, (1, 5), "the Axis armour leaves J4: nobody is next to the bridge"),
        (197, (2, 5), "Axis infantry reaches J2, next to the bridge again"),
        (270, (5, 5), "the Axis' fourth kill, with the bridge"),
        (295, (5, 6), "the Axis artillery at B4 cannot retreat and is eliminated: 4 kills, beach and village, 6"),
    ],
)
def test_the_medals_at_chosen_steps(events, step, medals, why):
    state = state_after(events, step)
    assert state.medals == medals, why
    assert state.medals == expected_medals(state)


def test_the_game_ends_with_an_allied_victory_and_the_replay_tells_the_landings(events):
    state = state_after(events, len(events) - 1)
    assert state.over and state.sides[state.winner] == "ALLIES"
    before, after = state_after(events, 12), state_after(events, 13)
    line = RULESET.narrate(before, events[13], after, Viewer.public()).text
    assert line == "Allies (Bea) bring in a reinforcement infantry unit at C9 (12 figures of infantry left in reserve)."
