"""Atlantic Storm (Avalon Hill, 1997): the rules core.

Sources: seed 002_849554c9cd2d9e36.txt (the Spanish rulebook, which wins, AS-1) and seed
000_9c26c0cb8d2e2bb3.txt (the French summary); readings AS-1..AS-17 in shared/rules/decisions.md.
The cards come from a club's catalogue (`catalogue` resource kind, see catalogues/README.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.atlantic_storm import legal, narration, rules, scoring, series, views
from domain.atlantic_storm.catalogue import CatalogueKind
from domain.atlantic_storm.events import AtlanticStormEvent
from domain.atlantic_storm.state import State
from domain.ruleset import Narration, ResourceKind, Result, SeriesGame, SeriesStatus, Setup, Viewer


class AtlanticStorm:
    """The Atlantic Storm ruleset (basic and advanced variants, two to six players)."""

    name = "atlantic-storm"
    version = "1.0.0"
    title = "Atlantic Storm"
    event_type = AtlanticStormEvent
    resource_kinds: Mapping[str, ResourceKind] = {"catalogue": CatalogueKind()}

    def initial(self, setup: Setup) -> State:
        """The table before the dealer's cut (AS-2)."""
        return rules.initial(setup)

    def validate(self, state: State, event: Any) -> None:
        """Raise RuleError naming the AS-n reading if `event` cannot happen now."""
        rules.check(state, event)

    def evolve(self, state: State, event: Any) -> State:
        """Apply an accepted event with every automatic consequence."""
        return rules.evolve(state, event)

    def view(self, state: State, viewer: Viewer) -> Any:
        """Public, one seat's, or the full view (G-2)."""
        return views.view(state, viewer)

    def result(self, state: State) -> Result:
        """VP split into convoy and card VP, placements by AS-13."""
        return scoring.result(state)

    def legal_events(self, state: State, seat: int) -> list[Any] | None:
        """What `seat` may report now."""
        return legal.legal_events(state, seat)

    def narrate(self, before: State, event: Any, after: State) -> Narration:
        """One plain-English replay line."""
        return narration.narrate(before, event, after)

    def series_status(self, games: Sequence[SeriesGame]) -> SeriesStatus:
        """The 75 VP series (AS-16)."""
        return series.series_status(games)


RULESET = AtlanticStorm()

__all__ = ["RULESET", "AtlanticStorm"]
