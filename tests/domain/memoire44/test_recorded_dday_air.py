"""A complete recorded D-Day game with the air rules: Pointe du Verrier (the D-Day reinforcements, village,
beach and bridge control) with the air settings added, the test reinforcement table and the test air pack.

The record (fixtures/pointe_du_verrier_air_axis_victory.jsonl) is never edited. The medals at the chosen
steps were checked by hand against the replay lines: the Axis hold the village F5-G5 from the start (1-0);
by step 183 they have also eliminated four Allied units (at steps 76, 104, 147 and 150) while the Allies
hold no beach (5-0); at step 183 the Allies answer the Bf 109's ammunition marker on their infantry with
Ambush, and at step 184 that infantry shoots the plane down (5-1, the plane's medal, M44-AIR-12); at step
186 the last Allied unit next to the bridge J3 retreats, the bridge's medal goes to the Axis and they reach
their six medals.
"""

from pathlib import Path

import pytest

from domain.memoire44 import RULESET
from domain.memoire44.battlefield import objective_holder
from domain.memoire44.events import AntiAircraft, CardPlayed, PlaneDeployed, ReinforcementPlaced, Retreated
from domain.memoire44.scenario import content_hash
from domain.ruleset import Viewer

from .harness import check_record, read_record, state_after


@pytest.fixture(scope="module")
def events():
    return read_record("pointe_du_verrier_air_axis_victory.jsonl")


def test_the_record_is_the_dday_scenario_with_the_air_rules(events):
    ref = events[0].setup.resources["scenario"]
    assert ref.resource_id == "pointe_du_verrier_air"
    assert ref.content_hash == content_hash((Path(__file__).parent / "pointe_du_verrier_air.m44").read_bytes())
    state = state_after(events, 0)
    assert state.expansions.dday and state.expansions.air and state.air is not None
    # M44-AIR-2: the scenario's air superiority (the Allies) gives them one card more, the beaches one fewer each.
    assert state.sides[state.air.superiority] == "ALLIES" and state.air.due == (1, 2)


def test_every_recorded_event_is_accepted_and_the_invariants_hold(events):
    check_record(events)


def test_the_medals_at_the_chosen_steps(events):
    steps = (0, 75, 76, 183, 184, 185, 186)
    assert [state_after(events, n).medals for n in steps] == [(1, 0), (1, 1), (2, 1), (5, 0), (5, 1), (5, 1), (6, 1)]
    assert objective_holder(state_after(events, 185), 3) is None  # the bridge J3: both sides next to it
    assert objective_holder(state_after(events, 186), 3) == 0  # M44-DD-3: the Axis alone, its medal theirs
    final = state_after(events, 186)
    assert final.over and final.sides[final.winner or 0] == "AXIS"


def test_reinforcements_land_and_planes_fly_in_the_same_game(events):
    assert sum(isinstance(e, ReinforcementPlaced) for e in events) == 11  # M44-DD-8
    assert sum(isinstance(e, PlaneDeployed) for e in events) == 5  # M44-AIR-3


def test_an_ambush_downs_the_plane_that_marked_the_unit(events):
    assert isinstance(events[183], CardPlayed) and events[183].card == "ambush"
    assert events[183].target in state_after(events, 182).air.markers  # M44-AIR-12
    assert isinstance(events[184], AntiAircraft) and "grenade" in events[184].faces
    state = state_after(events, 184)
    assert state.air.planes[0].lost and state.air.markers == () and state.air.kills == (0, 1)
    assert isinstance(events[186], Retreated)


def test_every_event_narrates(events):
    state = state_after(events, 0)
    for event in events[1:]:
        after = RULESET.evolve(state, event)
        line = RULESET.narrate(state, event, after, Viewer.public()).text
        assert line and not line.endswith(f": {type(event).__name__}.")
        state = after
