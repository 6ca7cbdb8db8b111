"""Hand-written league games for the standings and change-list tests (results given directly, as
the service passes them: no ruleset needed)."""

from __future__ import annotations

from datetime import UTC, date, datetime

from domain.ruleset import Player, PlayerResult, Result
from projections.standings import League, LeagueGame, Scoring

MARCH = (date(2026, 3, 1), date(2026, 3, 31))


def at(day: int, hour: int = 20, month: int = 3) -> datetime:
    """A finishing time in 2026 (UTC)."""
    return datetime(2026, month, day, hour, tzinfo=UTC)


def game(
    game_id: str,
    finished_at: datetime,
    *placed: tuple[str, int | None, int],
    void: bool = False,
    finished: bool = True,
    teams: tuple[int, ...] | None = None,
) -> LeagueGame:
    """A game from (player id, placement, score) per seat, seats in the order given."""
    players = tuple(
        Player(player_id=pid, name=pid.title(), seat=seat, team=teams[seat] if teams else None)
        for seat, (pid, _, _) in enumerate(placed)
    )
    result = Result(
        finished=finished,
        score_unit="vp",
        void=void,
        players=tuple(
            PlayerResult(seat=seat, score=score, placement=placement)
            for seat, (_, placement, score) in enumerate(placed)
        ),
    )
    return LeagueGame(game_id=game_id, finished_at=finished_at, players=players, result=result)


def duel(game_id: str, day: int, first: str, second: str, outcome: str, scores: tuple[int, int] = (0, 0)) -> LeagueGame:
    """A two-player game: `outcome` is W, D or L for `first`."""
    placed = {"W": (1, 2), "D": (1, 1), "L": (2, 1)}[outcome]
    return game(game_id, at(day), (first, placed[0], scores[0]), (second, placed[1], scores[1]))


def league(members: tuple[str, ...], scoring: Scoring, tie_breaks: tuple[str, ...]) -> League:
    """A March 2026 league of the tally ruleset."""
    return League(
        league_id="spring",
        ruleset="tally",
        members=members,
        starts=MARCH[0],
        ends=MARCH[1],
        scoring=scoring,
        tie_breaks=tie_breaks,
    )
