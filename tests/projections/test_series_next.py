"""What the series rules allow next, through the ruleset contract, as a campaign asks it: the Mémoire 44
match's second game (same scenario, sides swapped, M44-MT-1) and an Atlantic Storm series played under
one set of rules (AS-16)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.atlantic_storm import RULESET as ATLANTIC_STORM
from domain.memoire44 import RULESET as MEMOIRE44
from domain.ruleset import Player, PlayerResult, ResourceRef, Result, Setup
from projections.campaigns import Campaign, CampaignGame, admit, campaign_status
from projections.errors import ProjectionError

NAMES = {"p1": "Alain", "p2": "Bea", "p3": "Cleo"}


def scenario(name: str) -> ResourceRef:
    kind = MEMOIRE44.resource_kinds["scenario"]
    content = kind.parse(kind.builtin()[name])
    return ResourceRef(kind="scenario", resource_id=name, version=1, content_hash=f"sha256:{name}", content=content)


def played(game_id: str, seats: tuple[str, ...], scores: tuple[int, ...], **setup: Any) -> CampaignGame:
    players = tuple(Player(player_id=p, name=NAMES[p], seat=n) for n, p in enumerate(seats))
    result = Result(
        finished=True, score_unit="medal", players=tuple(PlayerResult(seat=n, score=s) for n, s in enumerate(scores))
    )
    return CampaignGame(game_id=game_id, setup=Setup(players=players, **setup), result=result)


MATCH = Campaign(campaign_id="match", ruleset=MEMOIRE44.name, players=("p1", "p2"))


def test_the_second_game_of_a_match_must_swap_sides_on_the_same_scenario():
    lane = {"resources": {"scenario": scenario("hedgerow_lane")}}
    first = played("m1", ("p1", "p2"), (4, 2), **lane)
    with pytest.raises(ProjectionError) as error:
        admit(MEMOIRE44, MATCH, [first], played("m2", ("p1", "p2"), (1, 4), **lane))
    assert (error.value.code, error.value.details["rule_id"]) == ("sides_not_swapped", "M44-MT-1")
    assert "Alain and Bea would command the same side again" in error.value.message
    with pytest.raises(ProjectionError) as error:
        admit(
            MEMOIRE44,
            MATCH,
            [first],
            played("m2", ("p2", "p1"), (1, 4), resources={"scenario": scenario("vernay_crossroads")}),
        )
    assert error.value.code == "different_scenario"
    swapped = played("m2", ("p2", "p1"), (1, 4), **lane)
    admit(MEMOIRE44, MATCH, [first], swapped)
    # Bea commanded the second side in the first game and the first side in the second: 2 + 1, Alain 4 + 4.
    assert campaign_status(MEMOIRE44, MATCH, [first, swapped]).status.totals == {"p1": 8, "p2": 3}
    with pytest.raises(ProjectionError) as error:
        admit(MEMOIRE44, MATCH, [first, swapped], played("m3", ("p1", "p2"), (1, 1), **lane))
    assert error.value.code == "match_over"


def test_an_atlantic_storm_series_keeps_the_first_games_variant_and_convoy_pile():
    series = Campaign(campaign_id="storm", ruleset=ATLANTIC_STORM.name, players=("p1", "p2", "p3"))
    first = played("s1", ("p1", "p2", "p3"), (20, 10, 5), variant="basic", options={"pile_size": 12})
    with pytest.raises(ProjectionError) as error:
        admit(
            ATLANTIC_STORM,
            series,
            [first],
            played("s2", ("p2", "p3", "p1"), (0, 0, 0), variant="advanced", options={"pile_size": 12}),
        )
    assert (error.value.code, error.value.details["rule_id"]) == ("different_rules", "AS-16")
    assert "same variant as the first (basic, not advanced)" in error.value.message
    with pytest.raises(ProjectionError) as error:
        admit(ATLANTIC_STORM, series, [first], played("s2", ("p2", "p3", "p1"), (0, 0, 0), variant="basic"))
    assert "convoy pile" in error.value.message
    admit(
        ATLANTIC_STORM,
        series,
        [first],
        played("s2", ("p2", "p3", "p1"), (0, 0, 0), variant="basic", options={"pile_size": 12}),
    )
