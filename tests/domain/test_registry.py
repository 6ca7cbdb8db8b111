"""The games a process serves: an immutable `Rulesets`, built once by `load` from the built-in modules and
the ones a deployment adds."""

from __future__ import annotations

import dataclasses

import pytest

from domain import registry
from domain.registry import Rulesets, UnknownRuleset
from service.settings import Settings
from testkit import tally


def test_the_builtin_games_are_served_by_name_and_iterated_in_name_order() -> None:
    rulesets = registry.load()
    assert rulesets.names == ("atlantic-storm", "memoire-44", "milles-nautiques")
    assert [r.name for r in rulesets] == list(rulesets.names) and len(rulesets) == 3
    assert rulesets.get("memoire-44").title and "memoire-44" in rulesets and "tally" not in rulesets


def test_an_unknown_name_is_an_unknown_ruleset() -> None:
    with pytest.raises(UnknownRuleset) as raised:
        registry.load().get("tally")
    assert raised.value.name == "tally" and isinstance(raised.value, LookupError)


def test_a_module_named_beside_the_builtins_is_served_and_blank_names_are_skipped() -> None:
    rulesets = registry.load([" testkit.tally", "", "  "])
    assert rulesets.get("tally") is tally.RULESET and len(rulesets) == 4


def test_the_settings_rulesets_are_the_builtins_and_the_extra_ones() -> None:
    assert Settings().rulesets().names == registry.load().names
    extra = Settings(extra_rulesets="testkit.tally,").rulesets()
    assert extra.get("tally") is tally.RULESET


def test_loading_does_not_change_what_another_load_serves() -> None:
    with_tally = registry.load(["testkit.tally"])
    assert "tally" in with_tally and "tally" not in registry.load()


def test_a_module_named_twice_is_served_once_but_two_games_of_one_name_are_refused() -> None:
    assert len(registry.load(["testkit.tally", "testkit.tally", "domain.memoire44"])) == 4
    impostor = dataclasses.replace(tally.RULESET, title="Another Tally")
    with pytest.raises(ValueError, match="'tally'"):
        Rulesets([tally.RULESET, impostor])


def test_a_rulesets_value_cannot_be_changed() -> None:
    rulesets = Rulesets([tally.RULESET])
    assert not hasattr(rulesets, "register")
    with pytest.raises(AttributeError):
        rulesets.extra = 1  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        rulesets._by_name["other"] = tally.RULESET  # type: ignore[index]
