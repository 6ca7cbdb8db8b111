"""A complete recorded Overlord game at a table of six under the Eastern Front rules (M44-OV-8, M44-OV-10):
Meuse Line with the commissar rule turned on for the Allies, imported by the club as meuse_line_commissar
(the file meuse_line_commissar.m44 beside these tests), with the test initiative table.

The record (fixtures/meuse_line_eastern_front_six.jsonl, written once by make_fixtures.py) is never
edited: it guards stored Eastern Front team games against changes to the rules. The steps cited were read
by hand from the replay lines: Denis (the Allied commander-in-chief) first places Probe Left at step 25,
hands it to Emma at step 50, then places two cards face down and Probe Centre (steps 51 to 55), which go
out at step 67 with the face-down ones named; at step 247 he hands out the one card under the token and
Counter-Attack at once from his hand.
"""

from pathlib import Path

import msgspec
import pytest

from domain.memoire44 import RULESET
from domain.memoire44.events import CardCommitted, CardsGiven
from domain.memoire44.rules.overlord import hands_out_token
from domain.ruleset import Viewer

from .harness import check_record, read_record, state_after

ALAIN, BEA, CHLOE, DENIS, EMMA, FRED = range(6)
ALLIES = 1


@pytest.fixture(scope="module")
def events():
    return read_record("meuse_line_eastern_front_six.jsonl")


def test_the_record_is_a_six_seat_game_with_the_commissar_on_the_allied_side(events):
    ref = events[0].setup.resources["scenario"]
    data = (Path(__file__).parent / "meuse_line_commissar.m44").read_bytes()
    assert ref.resource_id == "meuse_line_commissar"
    assert ref.content == msgspec.json.decode(msgspec.json.encode(RULESET.resource_kinds["scenario"].parse(data)))
    state = state_after(events, 0)
    assert state.teams and state.commanders == (ALAIN, DENIS) and state.expansions.commissar == "ALLIES"


def test_every_recorded_event_is_accepted_and_the_invariants_hold(events):
    check_record(events)  # cards conserved, medals recounted, each side within its hand size


def test_only_the_allied_commander_places_cards_and_every_one_goes_out_on_the_next_turn(events):
    placements = [e for e in events if isinstance(e, CardCommitted)]
    assert placements and {e.seat for e in placements} == {DENIS}
    for step, event in enumerate(events[1:], start=1):
        before = state_after(events, step - 1)
        if isinstance(event, CardsGiven) and hands_out_token(before, before.active):
            assert event.seat == DENIS and len(event.gifts) >= len(before.token)
            named = [card for card in before.token if card is not None]
            handed = [gift.card for gift in event.gifts]
            assert all(handed.count(card) >= named.count(card) for card in named)  # M44-OV-8
            assert state_after(events, step).token == ()


def test_cards_placed_face_down_are_named_as_they_go_out(events):
    assert [events[step].card for step in (51, 53, 55)] == [None, None, "probe_centre"]
    before, after = state_after(events, 66), state_after(events, 67)
    assert before.token == (None, None, "probe_centre")
    assert [(g.general, g.card) for g in events[67].gifts] == [
        (EMMA, "attack_left"),
        (FRED, "recon_in_force"),
        (DENIS, "probe_centre"),
    ]
    assert after.token == () and after.hands[ALLIES] == before.hands[ALLIES]  # nothing left the hand
    line = RULESET.narrate(before, events[67], after, Viewer.public()).text
    assert line == (
        "Allies (Denis) hand out the 3 cards from under the commissar token as commander-in-chief: "
        "1 card to Emma, 1 card to Fred, 1 card to Denis."
    )


def test_counter_attack_goes_out_at_once_beside_the_token_s_card(events):
    before, after = state_after(events, 246), state_after(events, 247)
    assert before.token == ("direct_from_hq",)
    assert after.hands[ALLIES].size == before.hands[ALLIES].size - 1  # Counter-Attack left the hand (M44-OV-10)
    line = RULESET.narrate(before, events[247], after, Viewer.full()).text
    assert line == (
        "Allies (Denis) hand out the card from under the commissar token and 1 card at once from the hand as "
        "commander-in-chief: Direct from HQ to Emma, Counter-Attack to Denis."
    )
    for viewer in (Viewer.public(), Viewer.of_seat(ALAIN)):
        told = RULESET.narrate(before, events[247], after, viewer).text
        assert told.endswith("from the hand as commander-in-chief: 1 card to Emma, 1 card to Denis.")


def test_the_cards_under_the_token_are_seen_by_the_allied_seats_only(events):
    state = state_after(events, 55)
    for viewer in (Viewer.public(), Viewer.of_seat(ALAIN), Viewer.of_seat(BEA), Viewer.of_seat(CHLOE)):
        view = RULESET.view(state, viewer)
        assert view["hands"][ALLIES]["under_token"] == {"count": 3}
    for seat in (DENIS, EMMA, FRED):
        cards = RULESET.view(state, Viewer.of_seat(seat))["hands"][ALLIES]["under_token"]["cards"]
        assert cards == [None, None, "probe_centre"]
