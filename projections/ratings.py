"""Club ratings: one rating per player and game (ruleset) from OpenSkill's Plackett–Luce model (the
`openskill` package), which rates any number of sides by their placements, teams included.

A rating is a skill estimate `mu` with its uncertainty `sigma` (a new player starts at 25 and 25/3);
the number people read is `rating = mu - 3 sigma` (low while few games are known, rising as they
accumulate). Games are rated in the order they finished (then by game id), each side ranked by its
placement in the game's result (equal placements share a rank); partners of one team (`Player.team`)
form one side. A void game, an unfinished one, or one with a single side is not rated.

This is a pure fold: the same games in give the same ratings out (no clock, no randomness). The
service keeps the result as a read model, re-derived from the game summaries when a correction
changes a rated game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime

import msgspec
from openskill.models import PlackettLuce, PlackettLuceRating

from domain.ruleset import Player, Result
from projections.standings import placements

MODEL = PlackettLuce()


class RatedGame(msgspec.Struct, frozen=True, kw_only=True):
    """A finished game as the ratings read it."""

    game_id: str
    finished_at: datetime
    players: tuple[Player, ...]
    result: Result


class Skill(msgspec.Struct, frozen=True, kw_only=True):
    """A player's rating after a game: `mu`, `sigma` and the rating people read (mu - 3 sigma)."""

    mu: float
    sigma: float
    rating: float


class RatingPoint(msgspec.Struct, frozen=True, kw_only=True):
    """One game in a player's history: the rating after it, and how much it moved."""

    game_id: str
    finished_at: datetime
    placement: int
    skill: Skill
    change: float


class PlayerRating(msgspec.Struct, frozen=True, kw_only=True):
    """A player's current rating for one game, after `games` rated games, the last one `last_game`."""

    player_id: str
    skill: Skill
    games: int
    last_game: str
    last_finished_at: datetime


def order_key(game: RatedGame) -> tuple[datetime, str]:
    return (game.finished_at, game.game_id)


def _skill(rating: PlackettLuceRating) -> Skill:
    return Skill(mu=rating.mu, sigma=rating.sigma, rating=rating.mu - 3 * rating.sigma)


def rate(
    current: Mapping[str, PlayerRating], games: Iterable[RatedGame]
) -> tuple[dict[str, PlayerRating], list[tuple[str, RatingPoint]]]:
    """The ratings after `games` (in the order given), starting from `current`: every player's new
    rating, and one history point per player and game rated."""
    now = dict(current)
    history: list[tuple[str, RatingPoint]] = []
    for game in games:
        if not game.result.finished or game.result.void:
            continue
        placed = placements(game.result)
        sides: dict[tuple[str, int], list[Player]] = {}
        for player in game.players:
            key = ("team", player.team) if player.team is not None else ("seat", player.seat)
            sides.setdefault(key, []).append(player)
        if len(sides) < 2 or any(p.seat not in placed for p in game.players):
            continue
        teams = [sorted(members, key=lambda p: p.seat) for _, members in sorted(sides.items())]
        before = [[_model_rating(now.get(p.player_id)) for p in team] for team in teams]
        ranks: list[float] = [float(min(placed[p.seat] for p in team)) for team in teams]
        after = MODEL.rate(before, ranks=ranks)
        for team, old_team, new_team in zip(teams, before, after, strict=True):
            for player, old, new in zip(team, old_team, new_team, strict=True):
                skill = _skill(new)
                known = now.get(player.player_id)
                now[player.player_id] = PlayerRating(
                    player_id=player.player_id,
                    skill=skill,
                    games=(known.games if known else 0) + 1,
                    last_game=game.game_id,
                    last_finished_at=game.finished_at,
                )
                history.append(
                    (
                        player.player_id,
                        RatingPoint(
                            game_id=game.game_id,
                            finished_at=game.finished_at,
                            placement=placed[player.seat],
                            skill=skill,
                            change=skill.rating - (old.mu - 3 * old.sigma),
                        ),
                    )
                )
    return now, history


def _model_rating(known: PlayerRating | None) -> PlackettLuceRating:
    if known is None:
        return MODEL.rating()
    return MODEL.rating(mu=known.skill.mu, sigma=known.skill.sigma)


def rate_all(games: Iterable[RatedGame]) -> tuple[dict[str, PlayerRating], list[tuple[str, RatingPoint]]]:
    """The ratings from scratch over every game, in the order they finished."""
    return rate({}, sorted(games, key=order_key))
