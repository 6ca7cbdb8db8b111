"""A complete recorded Overlord game at a table of six (M44-OV-2 to M44-OV-7) on the shipped Meuse Line
scenario (Overlord board, Blitz), with the test initiative table.

The record (fixtures/meuse_line_overlord_six.jsonl, written once by make_fixtures.py) is never edited: it
guards stored team games against changes to the team events or rules. The medals at the chosen steps
were checked by hand against the replay lines and the board: the two Meuse bridges (R5 and I5) are
control objectives (M44-DD-3) worth a medal to the one side alone on or next to them.
"""

import msgspec
import pytest

from domain.memoire44 import RULESET
from domain.memoire44.events import Battle, CardPlayed, CardsGiven, Gift, InitiativeTaken
from domain.record import fold
from domain.ruleset import Viewer

from .harness import check_record, check_shipped_scenario, expected_medals, read_record, state_after

ALAIN, BEA, CHLOE, DENIS, EMMA, FRED = range(6)


@pytest.fixture(scope="module")
def events():
    return read_record("meuse_line_overlord_six.jsonl")


def test_the_record_is_a_six_seat_overlord_game(events):
    check_shipped_scenario(events[0], "meuse_line")
    state = state_after(events, 0)
    assert state.commanders == (ALAIN, DENIS) and state.board.cols == 26  # M44-OV-2, M44-OV-1
    assert [p.team for p in events[0].setup.players] == [0, 0, 0, 1, 1, 1]
    assert state.medals == (0, 0)


def test_every_recorded_event_is_accepted_and_the_invariants_hold(events):
    check_record(events)


def test_the_commanders_hand_out_and_the_generals_play_in_their_sections(events):
    gifts = [e for e in events if isinstance(e, CardsGiven)]
    assert {e.seat for e in gifts} == {ALAIN, DENIS} and all(1 <= len(e.gifts) <= 3 for e in gifts)  # M44-OV-3
    players = {e.seat for e in events if isinstance(e, CardPlayed) and e.card != "ambush"}
    assert players <= {BEA, CHLOE, DENIS, EMMA, FRED} and ALAIN not in players  # M44-OV-5: Alain commands no section
    assert any(isinstance(e, InitiativeTaken) for e in events)  # M44-OV-7
    before, after = state_after(events, 11), state_after(events, 12)
    # The full record and the side's own seats read which card went to whom; the enemy and the public how many.
    line = RULESET.narrate(before, events[12], after, Viewer.full()).text
    assert line == (
        "Axis (Alain) hand out command cards as commander-in-chief: "
        "Infantry Assault to Bea, Medics & Mechanics to Chloe."
    )
    assert RULESET.narrate(before, events[12], after, Viewer.of_seat(BEA)).text == line
    for viewer in (Viewer.public(), Viewer.of_seat(DENIS)):
        told = RULESET.narrate(before, events[12], after, viewer).text
        assert told == "Axis (Alain) hand out command cards as commander-in-chief: 1 card to Bea, 1 card to Chloe."
    face_down = CardsGiven(seat=ALAIN, gifts=(Gift(general=CHLOE, card=None), Gift(general=CHLOE, card="attack_right")))
    told = RULESET.narrate(before, face_down, before, Viewer.full()).text
    assert told.endswith("commander-in-chief: a card (face down) and Attack Right to Chloe.")
    public = msgspec.json.encode(RULESET.view(after, Viewer.public())).decode()
    assert "infantry_assault" not in public and "medics_and_mechanics" not in public  # G-2


@pytest.mark.parametrize(
    ("step", "medals", "why"),
    [
        (27, (0, 0), "no unit yet next to a bridge"),
        (28, (0, 1), "Allied armour moves to R6, next to the R5 bridge, alone there"),
        (75, (0, 2), "an Allied Barrage eliminates the Axis infantry at C3; the Allies still hold R5"),
        (99, (0, 3), "Allied infantry reaches I5: both bridges are Allied"),
        (117, (1, 2), "three flags drive that infantry from I5 to H8: the Axis alone are next to I5"),
        (152, (1, 2), "Axis armour eliminates the Allied armour at E5; I5 contested since step 130"),
        (217, (5, 1), "four Allied units lost; the Allied armour at Q4 is gone, so R5 is nobody's"),
        (243, (7, 1), "the fifth Allied unit lost and both bridges Axis: 5 + 2 = 7, the Axis win"),
    ],
)
def test_the_medals_at_chosen_steps(events, step, medals, why):
    state = state_after(events, step)
    assert state.medals == medals, why
    assert state.medals == expected_medals(state)


def test_no_card_is_played_after_the_side_s_first_unit_battle_of_a_turn(events):
    battled = False  # M44-OV-6
    for event in events[1:]:
        if isinstance(event, CardsGiven):
            battled = False
        elif isinstance(event, Battle) and event.unit is not None:
            battled = True
        elif isinstance(event, InitiativeTaken) or (isinstance(event, CardPlayed) and event.card != "ambush"):
            assert not battled, event


def test_the_game_ends_with_the_whole_axis_side_winning(events):
    result = RULESET.result(fold(RULESET, events).state, Viewer.public())
    assert result.finished and result.winners == (ALAIN, BEA, CHLOE)
    assert [p.score for p in result.players] == [7, 7, 7, 1, 1, 1]
