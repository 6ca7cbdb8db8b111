"""Milles Nautiques, the French naval card game (seed 004_051710297af61dca.txt; readings MN-1 to MN-19).

A recorded game is one round (manche); `series_status` carries rounds to 200 points (MN-17).
Scores are in half-points.

Readings chosen where decisions.md is silent (each has a test in tests/domain/milles_nautiques/):
- Hidden tonnages and the 40-point check: the record scores the convoys it knows; one it does not know
  counts 0 until revealed. The table may report a `ConvoysRevealed` at any time (a player showing his
  convoys to claim 40 points): the 40 check runs after it. A round that ends with convoys the record does
  not know waits in phase "reveal" for them before it is scored (a void round needs no reveal).
- When the last card is played the round ends at once: battles and mines still pending are not decided.
- An arrived convoy keeps its miles and its radar; an alert, storm, neutral flag, lone plane or mine on
  it goes to the discard. A destroyed convoy goes to its captor; everything on it goes to the discard.
- One mine at a time on a convoy (MN-8).
- When the cards run out, the round winner is the best convoy + capture score among the sides with a
  convoy in port (MN-15's score, as in the 40 check); the MN-16 bonuses follow the result, they do not
  decide it. Sides level at the top share the win: each gets the +10 bonus.
- A turn passes over a player with no card once the stock is empty; his battles and mines still come due.
- The deal is recorded with the dealer and, optionally, the cards the record knows; seats and teams are
  the set-up's. The dealer of a round may be fixed in the set-up options (`dealer`), as the series
  needs it to say who deals next (MN-19); `round` numbers the round in the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.milles_nautiques import narration, rules, series, views
from domain.milles_nautiques.events import MillesNautiquesEvent
from domain.milles_nautiques.scoring import round_winners, side_scores
from domain.milles_nautiques.state import State
from domain.ruleset import (
    Narration,
    PlayerResult,
    ResourceKind,
    Result,
    SeriesGame,
    SeriesStatus,
    Setup,
    Viewer,
)


class MillesNautiques:
    """The Milles Nautiques ruleset (the `Ruleset` protocol)."""

    name = "milles-nautiques"
    version = "1.0.0"
    title = "Milles Nautiques"
    score_unit = "half_point"
    event_type = MillesNautiquesEvent
    state_type = State
    resource_kinds: Mapping[str, ResourceKind] = {}

    def initial(self, setup: Setup) -> State:
        """The table before the deal."""
        return rules.initial(setup)

    def validate(self, state: State, event: Any) -> None:
        """Raise RuleError if the event cannot have happened."""
        rules.validate(state, event)

    def evolve(self, state: State, event: Any) -> State:
        """Apply an accepted event with every automatic consequence."""
        return rules.evolve(state, event)

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        """What the viewer may see (G-2)."""
        return views.view(state, viewer)

    def result(self, state: State) -> Result:
        """Scores per seat (a team's score for each partner), with the split in `breakdown`."""
        scores = side_scores(state)
        totals = [score.total for score in scores]
        finished = state.phase == "over"
        winners = set(round_winners(state))
        players = tuple(
            PlayerResult(
                seat=seat,
                score=totals[side],
                placement=1 + sum(1 for total in totals if total > totals[side]),
                breakdown={"convoy": scores[side].convoy, "capture": scores[side].capture,
                           "round_bonus": scores[side].round_bonus,
                           "slowness_bonus": scores[side].slowness_bonus},
            )
            for seat, side in enumerate(state.side_of)
        )
        return Result(
            finished=finished,
            score_unit=self.score_unit,
            players=players,
            winners=tuple(seat for seat, side in enumerate(state.side_of) if side in winners),
            void=finished and not winners,
        )

    def legal_events(self, state: State, seat: int) -> list[Any]:
        """The events the seat may report now."""
        return rules.legal_events(state, seat)

    def narrate(self, before: State, event: Any, after: State) -> Narration:
        """One replay line."""
        return narration.narrate(before, event, after)

    def series_status(self, games: Sequence[SeriesGame]) -> SeriesStatus:
        """The game of rounds to 200 points (MN-17)."""
        return series.series_status(games)


RULESET = MillesNautiques()
