"""What projections read from the ruleset contract's optional members (`domain.ruleset.Ruleset`: its
defaults fit a game that does not state them), and the points people read from exact score units."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from domain.i18n import Arg
from domain.ruleset import Ruleset, SeriesGame, Setup
from projections.errors import ProjectionError
from projections.words import _

Points = int | float
"""A score as people read it: 54, 26.5 (exact sums stay integers in the ruleset's unit)."""


def player_counts(ruleset: Ruleset) -> tuple[int, ...]:
    """How many players the game takes (empty: not stated)."""
    return ruleset.player_counts


def score_scale(ruleset: Ruleset) -> int:
    """Score units in one point (2 where scores are kept in half-points)."""
    return ruleset.score_scale


def series_next(ruleset: Ruleset) -> Callable[[Sequence[SeriesGame], Setup], None] | None:
    """The ruleset's check of the next game of a series, if it has one."""
    return ruleset.series_next


def seat_sides(ruleset: Ruleset) -> Callable[[Setup], tuple[str, ...]] | None:
    """In a two-sided game, the side each seat commands (None where seats are not sides)."""
    return ruleset.seat_sides


def as_points(units: int, scale: int) -> Points:
    """Exact units as points: an integer where whole (54), else a half (26.5)."""
    return units // scale if units % scale == 0 else units / scale


def points_of(totals: Mapping[str, int], scale: int) -> dict[str, Points]:
    """Each total in points."""
    return {key: as_points(value, scale) for key, value in totals.items()}


def check_player_count(ruleset: Ruleset, count: int) -> None:
    """ProjectionError `player_count` when the game is not played by `count` players."""
    allowed = player_counts(ruleset)
    if not allowed or count in allowed:
        return
    said: Arg
    if len(allowed) == 1:
        said = allowed[0]
    elif list(allowed) == list(range(allowed[0], allowed[-1] + 1)):
        said = _("{low} to {high}", low=allowed[0], high=allowed[-1])
    else:
        said = _("{some} or {last}", some=", ".join(map(str, allowed[:-1])), last=allowed[-1])
    raise ProjectionError(
        "player_count",
        _("{game} is played by {allowed} players, not {count}.", game=ruleset.title, allowed=said, count=count),
        players=count,
        allowed=list(allowed),
    )
