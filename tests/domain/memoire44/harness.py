"""The Mémoire 44 tests' harness: recorded games and the scenarios kept beside the tests. The seeded random
table, the set-ups and the test resources are in `testkit.players.memoire44` (the benches play them too)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from domain.memoire44 import RULESET
from domain.memoire44.state import State
from domain.record import GameStarted, decoder, fold, start
from domain.ruleset import ResourceRef
from testkit.players.memoire44 import (
    KIND,
    SIX,
    TEST_AIR_PACK,
    TEST_COMBAT_DECK,
    TEST_INITIATIVE,
    TEST_REINFORCEMENTS,
    RandomTable,
    check_invariants,
    expected_medals,
    figures_held,
    scenario_ref,
    setup_for,
    started,
    team_setup_for,
    with_options,
    with_resource,
)

# What the tests take from here, the random table's part named in testkit.
__all__ = [
    "SIX",
    "TEST_AIR_PACK",
    "TEST_COMBAT_DECK",
    "TEST_INITIATIVE",
    "TEST_REINFORCEMENTS",
    "RandomTable",
    "check_invariants",
    "check_record",
    "check_shipped_scenario",
    "expected_medals",
    "read_record",
    "scenario_beside_tests",
    "scenario_ref",
    "setup_for",
    "started",
    "state_after",
    "team_setup_for",
    "with_options",
    "with_resource",
]

HERE = Path(__file__).parent


def scenario_beside_tests(name: str) -> ResourceRef:
    """A scenario file kept beside these tests (`name.m44`), as a club imports it."""
    return scenario_ref(name, (HERE / f"{name}.m44").read_bytes())


FIXTURES = Path(__file__).parent / "fixtures"


def read_record(name: str) -> list[Any]:
    """A recorded game (JSON Lines under fixtures/, never edited), decoded as the service decodes it."""
    read = decoder(RULESET)
    return [read.decode(line) for line in (FIXTURES / name).read_bytes().splitlines()]


def state_after(events: list[Any], count: int) -> State:
    """The state after the first `count` game events of a record (its set-up is event 0)."""
    return fold(RULESET, events[: count + 1]).state  # type: ignore[no-any-return]


def check_record(events: list[Any]) -> None:
    """Every event of a record is accepted in turn, the invariants hold after each, and the accepted fold
    equals the plain fold."""
    folded = start(RULESET, events[0])
    figures = figures_held(folded.state)
    for event in events[1:]:
        folded = folded.accept(event)
        check_invariants(folded.state)
        assert not folded.state.reserve or figures_held(folded.state) == figures  # M44-DD-8, M44-DD-9
    assert folded.state == fold(RULESET, events).state


def check_shipped_scenario(first: Any, scenario_id: str) -> None:
    """A record starts with the set-up of a shipped scenario, embedded byte for byte."""
    assert isinstance(first, GameStarted)
    ref = first.setup.resources["scenario"]
    assert ref.resource_id == scenario_id
    assert ref.content_hash == hashlib.sha256(KIND.builtin()[scenario_id]).hexdigest()
