"""The games a process serves, by ruleset name. The only place that names the games.

Adding a game is one line: its module in `BUILTIN_MODULES`. A game kept outside this package is named in
the `extra_rulesets` setting instead. Each process builds its `Rulesets` once, with `load`, at its
composition root (`service.app.create_app` for the server, `service.cli.main` for the command line) and
hands it down to whatever reads the games; nothing here is filled or changed at run time.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator
from types import MappingProxyType

from domain.ruleset import Ruleset

# Each module exports RULESET. Adding a game is one line here.
BUILTIN_MODULES: tuple[str, ...] = (
    "domain.milles_nautiques",
    "domain.atlantic_storm",
    "domain.memoire44",
)


class UnknownRuleset(LookupError):
    """No ruleset of that name is served."""

    def __init__(self, name: str) -> None:
        super().__init__(f"Unknown ruleset {name!r}.")
        self.name = name


class Rulesets:
    """An immutable set of rulesets, looked up by name and iterated in name order."""

    __slots__ = ("_by_name",)

    def __init__(self, rulesets: Iterable[Ruleset] = ()) -> None:
        by_name: dict[str, Ruleset] = {}
        for ruleset in rulesets:
            known = by_name.setdefault(ruleset.name, ruleset)
            # The same module named twice is harmless; two games answering to one name are a mistake that
            # would otherwise leave the records of one read by the rules of the other.
            if known is not ruleset:
                raise ValueError(f"Two rulesets are called {ruleset.name!r}.")
        self._by_name = MappingProxyType(dict(sorted(by_name.items())))

    def get(self, name: str) -> Ruleset:
        """The ruleset called `name`, or UnknownRuleset."""
        try:
            return self._by_name[name]
        except KeyError:
            raise UnknownRuleset(name) from None

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __iter__(self) -> Iterator[Ruleset]:
        return iter(self._by_name.values())

    def __len__(self) -> int:
        return len(self._by_name)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._by_name)

    def __repr__(self) -> str:
        return f"Rulesets({', '.join(self._by_name)})"


def load(modules: Iterable[str] = ()) -> Rulesets:
    """The built-in games and the RULESET of each module named in `modules` (games kept outside this
    package: the `extra_rulesets` setting, a test's own game); blank names are skipped."""
    named = [*BUILTIN_MODULES, *(m.strip() for m in modules if m.strip())]
    return Rulesets(importlib.import_module(module).RULESET for module in named)
