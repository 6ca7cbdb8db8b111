"""A complete recorded game on the shipped Breakthrough scenario Sidi Ghazal, with its nation rules
(M44-IT-1, M44-IT-2, M44-GB-1), the desert overrun (M44-NA-1) and village control (M44-DD-1).

The record (fixtures/sidi_ghazal_expansions_axis_victory.jsonl) is never edited: it guards stored games
against changes to the expansion events or rules. The medals at the chosen steps were checked by hand
against the replay lines: the Axis hold the village at the start (1 medal), lose it when Allied armour
advances into it at step 101, and win on taking it back with their artillery at step 156.
"""

import pytest

from domain.memoire44 import RULESET
from domain.memoire44.events import Battle, CardTaken, Retreated, UnitMoved
from domain.record import fold

from .harness import check_record, check_shipped_scenario, read_record, state_after


@pytest.fixture(scope="module")
def events():
    return read_record("sidi_ghazal_expansions_axis_victory.jsonl")


def test_the_record_is_a_breakthrough_game_with_the_nation_rules_on(events):
    check_shipped_scenario(events[0], "sidi_ghazal")
    state = state_after(events, 0)
    assert state.board.rows == 17 and state.expansions.italy_high_command and state.expansions.british_commonwealth
    assert state.hand_limit == (6, 5) and state.medals == (1, 0)  # M44-IT-1 six cards; M44-DD-1 the village


def test_every_recorded_event_is_accepted_and_the_invariants_hold(events):
    check_record(events)


def test_desert_armour_advances_after_taking_ground_and_the_british_battle_back(events):
    assert isinstance(events[51], UnitMoved) and state_after(events, 50).order_of(events[51].unit).advance  # M44-NA-1
    back = events[53]
    assert isinstance(back, Battle) and back.seat == 1 and back.dice == 1  # M44-GB-1
    before, after = state_after(events, 52), state_after(events, 53)
    assert before.units[back.unit].figures == 1 and before.pending.kind == "battle_back"
    target = before.occupant[back.target]
    assert before.units[target].figures - after.units[target].figures == 1


def test_a_lost_axis_unit_costs_the_italian_side_a_card_taken_by_the_allies(events):
    before, after = state_after(events, 83), state_after(events, 84)
    assert after.medals == (2, 1) and after.cards_to_take == 1 and after.hand_limit == (5, 5)
    assert before.hand_limit == (6, 5)
    taken = events[85]
    assert isinstance(taken, CardTaken) and taken.seat == 1  # M44-IT-1
    state = state_after(events, 85)
    assert state.cards_to_take == 0 and state.discard[-1] == taken.card


def test_an_italian_unit_retreats_two_hexes_for_one_flag(events):
    retreat = events[99]
    assert isinstance(retreat, Retreated) and len(retreat.path) == 2  # M44-IT-2
    before = state_after(events, 98)
    assert before.pending.flags == 1 and before.units[retreat.unit].nation == "ita"


def test_the_village_changes_hands_and_its_medal_follows(events):
    assert state_after(events, 100).medals == (2, 1)
    state = state_after(events, 101)
    assert state.medals == (1, 2) and state.villages == ((2, 1),)  # M44-DD-1: the Allies took it


def test_the_axis_win_by_retaking_the_village(events):
    state = fold(RULESET, events).state
    assert state.over and state.winner == 0 and state.villages == ((2, 0),)
    result = RULESET.result(state)
    assert [p.score for p in result.players] == [6, 1]
    # 4 eliminations + the village + the temporary medal on its hex; the Allies keep their 1 elimination.
    assert result.players[0].breakdown == {"eliminations": 4, "objectives": 2, "special": 0}
    assert result.players[1].breakdown == {"eliminations": 1, "objectives": 0, "special": 0}


def test_every_event_narrates_with_its_turn(events):
    state = RULESET.initial(events[0].setup)
    for event in events[1:]:
        after = RULESET.evolve(state, event)
        line = RULESET.narrate(state, event, after)
        assert line.text and line.chapters[0][0] == "turn"
        state = after
