"""Ruleset names to rulesets. The only place that names the games."""

from __future__ import annotations

import importlib
from collections.abc import Iterable

from domain.ruleset import Ruleset

# Each module exports RULESET. Adding a game is one line here.
BUILTIN_MODULES: tuple[str, ...] = (
    "domain.milles_nautiques",
    "domain.atlantic_storm",
    "domain.memoire44",
)

_rulesets: dict[str, Ruleset] = {}


class UnknownRuleset(LookupError):
    """No ruleset of that name is registered."""

    def __init__(self, name: str) -> None:
        super().__init__(f"Unknown ruleset {name!r}.")
        self.name = name


def load_modules(modules: Iterable[str]) -> None:
    """Register the RULESET of each named module (games kept outside this package)."""
    for module in modules:
        register(importlib.import_module(module.strip()).RULESET)


def register(ruleset: Ruleset) -> None:
    """Make a ruleset available by its name (tests register their own)."""
    _rulesets[ruleset.name] = ruleset


def get(name: str) -> Ruleset:
    """The ruleset called `name`, or UnknownRuleset."""
    try:
        return _rulesets[name]
    except KeyError:
        raise UnknownRuleset(name) from None


def all_rulesets() -> list[Ruleset]:
    """Every registered ruleset, by name."""
    return [_rulesets[name] for name in sorted(_rulesets)]


# Loaded when this module is first imported: Python's import lock makes that safe for every thread
# (a lazy first-use load let a second thread see a half-filled registry).
load_modules(BUILTIN_MODULES)
