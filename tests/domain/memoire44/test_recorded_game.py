"""A complete recorded game on the shipped scenario Hedgerow Lane, to an Axis medal victory.

The record (fixtures/hedgerow_lane_axis_medal_victory.jsonl) is never edited: it guards stored games
against changes to the events or the rules. Some draws were recorded face down (G-2).
"""

from itertools import pairwise

import pytest

from domain.memoire44 import RULESET
from domain.memoire44.board import hex_name
from domain.memoire44.events import Battle, CardDrawn, GroundTaken, Retreated
from domain.record import Correction, fold, start
from domain.ruleset import Viewer

from .harness import check_shipped_scenario, read_record, state_after


@pytest.fixture(scope="module")
def events():
    return read_record("hedgerow_lane_axis_medal_victory.jsonl")


def test_the_record_starts_with_the_set_up_of_a_shipped_scenario(events):
    check_shipped_scenario(events[0], "hedgerow_lane")


def test_every_recorded_event_is_accepted_by_the_rules(events):
    folded = start(RULESET, events[0])
    for event in events[1:]:
        folded = folded.accept(event)
    assert folded.state == fold(RULESET, events).state


def test_after_the_deal_the_axis_play_first_with_face_down_cards_counted(events):
    state = state_after(events, 8)
    assert state.phase == "card" and state.sides[state.active] == "AXIS"
    assert sorted(state.hands[0].known) == ["probe_centre", "recon_1_left"]
    assert state.hands[0].unknown == 2
    assert state.hands[1].size == 4 and state.hands[1].unknown == 3


def test_the_axis_armour_takes_ground_overruns_and_takes_ground_again(events):
    assert isinstance(events[16], GroundTaken) and isinstance(events[17], Battle)
    state = state_after(events, 19)
    axis_armour = next(u for u in state.units if u.camp == 0 and u.kind == "armour")
    allied_armour = next(u for u in state.units if u.camp == 1 and u.kind == "armour")
    assert axis_armour.hex == (6, 18)  # J7
    assert allied_armour.hex == (7, 19) and allied_armour.figures == 1  # pushed back twice, two hits
    assert state.medals == (0, 0)


def test_the_first_medal_is_the_allied_armour_eliminated(events):
    before, after = state_after(events, 60), state_after(events, 61)
    assert before.medals == (0, 0) and after.medals == (1, 0)
    allied_armour = next(u for u in after.units if u.camp == 1 and u.kind == "armour")
    assert allied_armour.hex is None and allied_armour.figures == 0


def test_the_game_ends_on_the_fourth_axis_medal(events):
    state = fold(RULESET, events).state
    assert state.over and state.winner == 0
    result = RULESET.result(state, Viewer.public())
    assert result.finished and result.winners == (0,)
    assert [p.score for p in result.players] == [4, 0]
    assert result.players[0].breakdown == {"eliminations": 4, "objectives": 0, "special": 0}
    assert not RULESET.result(state_after(events, len(events) - 2), Viewer.public()).finished


def test_retreats_in_the_record_go_towards_the_units_own_edge(events):
    for count, event in enumerate(events[1:], start=1):
        if isinstance(event, Retreated):
            state = state_after(events, count - 1)
            unit = state.units[event.unit]
            step = -1 if unit.camp == 0 else 1
            rows = [unit.hex[0], *(h[0] for h in event.path)]
            assert all(b - a == step for a, b in pairwise(rows))


def test_a_correction_of_the_last_battle_takes_the_victory_back(events):
    # G-3: the record keeps the mistake and its void; the fold skips it.
    corrected = fold(RULESET, [*events, Correction(voids=1, reason="the dice were misread")])
    assert not corrected.state.over
    assert corrected.state.medals == (3, 0)
    assert corrected.effective_count == len(events) - 2


def test_every_event_narrates_in_plain_english_with_its_turn(events):
    state = RULESET.initial(events[0].setup)
    turns = []
    for event in events[1:]:
        after = RULESET.evolve(state, event)
        line = RULESET.narrate(state, event, after, Viewer.full())
        assert line.text and line.chapters[0][0] == "turn"
        turns.append(line.chapters[0][1])
        if isinstance(event, CardDrawn) and event.card is None:
            assert "face down" in line.text
        if isinstance(event, CardDrawn):  # G-2: the public never reads which card was drawn
            public = RULESET.narrate(state, event, after, Viewer.public()).text
            assert public == line.text.split(" draw ")[0] + " draw a card."
        state = after
    assert turns == sorted(turns) and turns[-1] > 10


def test_the_replay_reads_as_sentences_with_counts_in_the_singular_where_they_are_one(events):
    # Issue 16: "retreats to G4", "1 figure", "1 die", never "figure(s)" or a bare arrow.
    lines = []
    for count, event in enumerate(events[1:], start=1):
        before, after = state_after(events, count - 1), state_after(events, count)
        text = RULESET.narrate(before, event, after, Viewer.full()).text
        lines.append(text)
        if isinstance(event, Retreated) and len(event.path) == 1:
            assert f"retreats to {hex_name(event.path[0])}" in text
        if isinstance(event, Battle) and event.dice == 1:
            assert "1 die," in text
    assert not [line for line in lines if "(s)" in line or "(es)" in line]
    assert any("retreats to " in line for line in lines)
