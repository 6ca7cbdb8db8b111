"""Mémoire 44 (base game): scenarios as data, the base rules M44-1 to M44-6, two-game matches.

Source: seed `003_218970f70b9872f8.txt` and `shared/rules/decisions.md` (M44-n). Expansions (Air Pack,
Overlord, D-Day, nations) add terrain, cards and events to these modules later.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.memoire44 import legal, narration, rules, scoring, series, setup, views
from domain.memoire44.events import Memoire44Event
from domain.memoire44.scenario import ScenarioKind
from domain.memoire44.state import State
from domain.ruleset import Narration, ResourceKind, Result, SeriesGame, SeriesStatus, Setup, Viewer


class Memoire44:
    """The Mémoire 44 ruleset."""

    name = "memoire-44"
    version = "1.0.0"
    title = "Mémoire 44"
    event_type: Any = Memoire44Event
    state_type: type = State
    resource_kinds: Mapping[str, ResourceKind] = {"scenario": ScenarioKind()}

    def initial(self, setup_: Setup) -> State:
        """The scenario set up, opening hands still to draw."""
        return setup.initial(setup_)

    def validate(self, state: State, event: Any) -> None:
        """Raise RuleError if `event` cannot happen at `state`."""
        rules.validate(state, event)

    def evolve(self, state: State, event: Any) -> State:
        """Apply an accepted event with every consequence."""
        return rules.evolve(state, event)

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        """What `viewer` may see (G-2)."""
        return views.view(state, viewer)

    def result(self, state: State) -> Result:
        """Medals per seat, and the winner once a side reaches its count."""
        return scoring.result(state)

    def legal_events(self, state: State, seat: int) -> list[Any] | None:
        """The events (chance by form) `seat` may report now."""
        return legal.legal_events(state, seat)

    def narrate(self, before: State, event: Any, after: State) -> Narration:
        """One replay line."""
        return narration.narrate(before, event, after)

    def series_status(self, games: Sequence[SeriesGame]) -> SeriesStatus:
        """A two-game match, sides swapped, medals summed."""
        return series.series_status(games)


RULESET = Memoire44()
