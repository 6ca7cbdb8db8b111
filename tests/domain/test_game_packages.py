"""Every game package has the same shape: the same modules for the same ideas, and a RULESET that takes
each member of the contract from the module named for it, so a reader who knows one game finds their way
in the others (and a new game knows where each piece goes)."""

from __future__ import annotations

import importlib
from importlib import resources
from importlib.util import find_spec
from types import ModuleType
from typing import Any

import pytest

from domain import registry
from domain.ruleset import Ruleset

GAMES = registry.BUILTIN_MODULES

MODULES = (
    "catalogue",  # the cards (or units) the game is played with
    "events",  # the event structs and their tagged union
    "state",  # `State`
    "setup",  # `Options` and `initial`
    "rules",  # `validate` and `evolve`, by the dispatch tables `_VALIDATORS` and `_EVOLVERS`
    "legal",  # `legal_events`
    "scoring",  # `result`
    "views",  # `view`
    "narration",  # `narrate`
    "series",  # `series_status`, `series_next`
    "picture",  # `picture`
    "changes",  # `what_changed`
)

# Contract member -> the module of the game package it comes from, where the game has the member.
MEMBER_MODULES = {
    "initial": "setup",
    "options_type": "setup",
    "seat_sides": "setup",
    "validate": "rules",
    "evolve": "rules",
    "legal_events": "legal",
    "field_names": "legal",
    "result": "scoring",
    "view": "views",
    "narrate": "narration",
    "series_status": "series",
    "series_next": "series",
    "picture": "picture",
    "what_changed": "changes",
    "state_type": "state",
}


def _ruleset(game: str) -> Ruleset:
    ruleset = importlib.import_module(game).RULESET
    assert isinstance(ruleset, Ruleset)
    return ruleset


def _union(ruleset: Ruleset) -> set[type]:
    return set(getattr(ruleset.event_type, "__args__", (ruleset.event_type,)))


@pytest.mark.parametrize("game", GAMES)
def test_a_game_package_has_every_module_and_its_rules_reference(game: str) -> None:
    missing = [name for name in MODULES if find_spec(f"{game}.{name}") is None]
    assert not missing, f"{game} lacks {missing}"
    assert resources.files(game).joinpath("RULES.md").is_file()


@pytest.mark.parametrize("game", GAMES)
def test_the_ruleset_takes_each_member_from_the_module_named_for_it(game: str) -> None:
    ruleset = _ruleset(game)
    for member, module in MEMBER_MODULES.items():
        value: Any = getattr(ruleset, member)
        if value is None:
            continue
        assert value.__module__ == f"{game}.{module}", f"{game}: {member} comes from {value.__module__}"
        assert getattr(importlib.import_module(value.__module__), value.__name__) is value
    assert ruleset.state_type.__name__ == "State"
    events: ModuleType = importlib.import_module(f"{game}.events")
    assert {t.__module__ for t in _union(ruleset)} == {events.__name__}
    assert ruleset.event_type in vars(events).values(), f"{game}: the union is not named in events.py"


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_dispatch_every_event_through_the_same_two_tables(game: str) -> None:
    rules = importlib.import_module(f"{game}.rules")
    union = _union(_ruleset(game))
    assert set(rules._VALIDATORS) == union
    assert set(rules._EVOLVERS) == union


@pytest.mark.parametrize("game", GAMES)
def test_the_package_exports_its_ruleset_alone(game: str) -> None:
    assert importlib.import_module(game).__all__ == ["RULESET"]


@pytest.mark.parametrize("game", GAMES)
def test_validate_and_initial_live_in_one_place_each(game: str) -> None:
    # A second `validate` or `initial` beside the ones the ruleset uses is dead or a rival entry point.
    ruleset = _ruleset(game)
    for name in MODULES:
        module = importlib.import_module(f"{game}.{name}")
        for member in ("validate", "initial", "legal_events", "check"):
            found = vars(module).get(member)
            if callable(found) and getattr(found, "__module__", None) == module.__name__:
                assert found is getattr(ruleset, member, None), f"{module.__name__}.{member} is not the ruleset's"
