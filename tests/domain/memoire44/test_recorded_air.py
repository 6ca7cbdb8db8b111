"""A complete recorded game on the shipped scenario Hedgerow Lane (standard board) with the air rules, the
test air pack and Normandy 1944 air superiority (the Allies): deployments, planes leaving the board when
not ordered, ammunition markers and strikes, a plane shot down from the ground (M44-AIR-2 to M44-AIR-8).

The record (fixtures/hedgerow_lane_air_allied_victory.jsonl) is never edited. The medals at the chosen
steps were checked by hand against the replay lines: the Axis armour eliminates the Allied armour at step
17 (1-0); an Allied infantry battle eliminates the Axis infantry at I5 at step 70 (1-1); the Allied
infantry at J7 shoots down the Bf 109 flying over it at step 82 (1-2, the plane's medal); the Axis
infantry at J5, already cut down by an air strike at step 71, is eliminated at step 85 (1-3); an Allied
infantry unit enters the temporary objective G5 at step 95 and the Allies reach their four medals.
"""

from pathlib import Path

import msgspec
import pytest

from domain.memoire44 import RULESET
from domain.memoire44.events import AirCardDrawn, AirStrike, AntiAircraft, PlaneDeployed, PlaneMoved
from domain.memoire44.scenario import content_hash
from domain.ruleset import Viewer

from .harness import check_record, read_record, state_after


@pytest.fixture(scope="module")
def events():
    return read_record("hedgerow_lane_air_allied_victory.jsonl")


def test_the_record_is_hedgerow_lane_with_the_air_rules(events):
    # The shipped scenario with the air settings added to its options (M44-SC-1), imported as a club's file.
    ref = events[0].setup.resources["scenario"]
    assert ref.resource_id == "hedgerow_lane_air"
    assert ref.content_hash == content_hash((Path(__file__).parent / "hedgerow_lane_air.m44").read_bytes())
    shipped = msgspec.json.decode(RULESET.resource_kinds["scenario"].builtin()["hedgerow_lane"])
    imported = msgspec.json.decode((Path(__file__).parent / "hedgerow_lane_air.m44").read_bytes())
    assert imported["board"] == shipped["board"] and imported["game_info"]["options"]["air_rules"] is True
    state = state_after(events, 0)
    assert state.expansions.air and state.air is not None
    assert state.sides[state.air.superiority] == "ALLIES" and state.air.due == (2, 3)  # M44-AIR-2


def test_every_recorded_event_is_accepted_and_the_invariants_hold(events):
    check_record(events)


def test_the_medals_at_the_chosen_steps(events):
    assert [state_after(events, step).medals for step in (16, 17, 69, 70, 81, 82, 84, 85, 94, 95)] == [
        (0, 0),
        (1, 0),
        (1, 0),
        (1, 1),
        (1, 1),
        (1, 2),
        (1, 2),
        (1, 3),
        (1, 3),
        (1, 4),
    ]
    final = state_after(events, len(events) - 1)
    assert final.over and final.sides[final.winner or 0] == "ALLIES"


def test_a_plane_not_ordered_leaves_the_board_at_the_end_of_its_sides_turn(events):
    assert isinstance(events[25], PlaneDeployed)  # the Typhoon, deployed at step 25
    assert state_after(events, 45).air.planes[2].hex is not None  # still flying in the Allies' next turn
    assert state_after(events, 46).air.planes[2].hex is None  # M44-AIR-4: not ordered, gone at its end
    assert state_after(events, 46).medals == (1, 0)  # without a medal


def test_the_strikes_hit_by_the_units_symbol(events):
    assert isinstance(events[27], PlaneMoved) and events[27].markers == ((5, 9),)  # M44-AIR-6
    before, after = state_after(events, 28), state_after(events, 29)
    assert isinstance(events[29], AirStrike) and events[29].faces == ("infantry",)
    uid = before.occupant[(5, 9)]
    assert (before.units[uid].figures, after.units[uid].figures) == (4, 3)
    assert isinstance(events[78], AirStrike) and events[78].faces == ("star",)
    assert state_after(events, 78).units == state_after(events, 77).units  # a star misses


def test_the_plane_shot_down_never_returns(events):
    assert isinstance(events[82], AntiAircraft) and "grenade" in events[82].faces  # M44-AIR-8
    state = state_after(events, 82)
    assert state.air.planes[0].lost and state.air.planes[0].hex is None and state.air.kills == (0, 1)
    assert not any(isinstance(e, PlaneDeployed) and e.plane == "bf109" for e in events[83:])


def test_every_event_narrates_and_air_cards_stay_hidden_from_the_public(events):
    state = state_after(events, 0)
    for event in events[1:]:
        after = RULESET.evolve(state, event)
        line = RULESET.narrate(state, event, after, Viewer.public()).text
        assert line and not line.endswith(f": {type(event).__name__}.")
        if isinstance(event, AirCardDrawn):
            assert line.endswith("draw an air combat card.")  # G-2
        state = after
