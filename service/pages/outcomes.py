"""What the club pages say of finished games and of the players in them (issue 27): who won each game
(`projections.verdict`, from the games projection's summaries), whom a player played with and against,
and the club ratings as people read them — a ladder per game and a player's rating over time.

A rating is read on a scale where a newcomer stands at 1,500 ± 500 (OpenSkill's 25 ± 25/3 times
`RATING_SCALE`): the number is the skill estimate (mu), the ± its uncertainty (one sigma). The ladder is
the API's (`GET /clubs/{club}/ratings/{ruleset}`): best first by mu - 3 sigma, the cautious rating, so a
player known from few games climbs as the club gets to know them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import msgspec
from babel.dates import format_skeleton

from domain.i18n import Catalogue, Message
from projections.ratings import RatingPoint, Skill
from projections.verdict import Verdict, verdict
from service.i18n import ENGLISH, Translator
from service.pages.render import RatingMark, rating_plot
from service.usecases.clubs import Clubs
from service.usecases.collections import ClubCollections
from service.usecases.games import NotFound, Records
from service.usecases.ratings import ClubRatings
from service.usecases.types import GameRecord

_ = Catalogue("service.pages")
RATING_SCALE = 60
"""Rating points people read per OpenSkill unit: a newcomer's 25 ± 8.3 reads 1,500 ± 500."""


class Shown(msgspec.Struct, frozen=True, kw_only=True):
    """A rating as people read it: the estimate and its uncertainty, whole numbers on the 1,500 scale."""

    rating: int
    spread: int

    @classmethod
    def of(cls, skill: Skill) -> Shown:
        return cls(rating=round(skill.mu * RATING_SCALE), spread=round(skill.sigma * RATING_SCALE))


def verdicts(records: Records, club_id: str, games: Sequence[GameRecord]) -> dict[str, Verdict]:
    """Who won each finished game of `games`, by game id (a game the projector has not caught up with yet
    is left out: the page then says only that it finished). Players are named as the club's lists name
    them, so that two of one name are told apart ("Alain (Tuesdays) wins")."""
    finished = [g.game_id for g in games if g.finished]
    names = Clubs.of(records).names(club_id)
    said: dict[str, Verdict] = {}
    for game_id, summary in ClubCollections.of(records).summaries(club_id, finished).items():
        players = [msgspec.structs.replace(p, name=names.get(p.player_id, p.name)) for p in summary.players]
        told = verdict(players, summary.outcome.result, _scale(records, summary.ruleset))
        if told is not None:
            said[game_id] = told
    return said


def _scale(records: Records, ruleset: str) -> int:
    return records.rulesets.get(ruleset).score_scale if ruleset in records.rulesets else 1


class PlayedGame(msgspec.Struct, frozen=True, kw_only=True):
    """One game on a player's page: with whom (partners of a team) and against whom they played, and
    their rating after it where the game was rated."""

    game_id: str
    partners: tuple[str, ...]
    opponents: tuple[str, ...]
    rating: Shown | None = None
    change: int | None = None


def played_games(records: Records, club_id: str, player_id: str, games: Sequence[GameRecord]) -> dict[str, PlayedGame]:
    """For each of the player's games (by game id): partners, opponents and the rating after it."""
    summaries = ClubCollections.of(records).summaries(club_id, [g.game_id for g in games])
    after: dict[str, tuple[Shown, int]] = {}
    ratings = ClubRatings.of(records)
    for ruleset in sorted({g.ruleset for g in games}):
        for point, change in _with_changes(ratings.history(club_id, ruleset, player_id)):
            after[point.game_id] = (Shown.of(point.skill), change)
    played = {}
    for game_id, summary in summaries.items():
        me = next((p for p in summary.players if p.player_id == player_id), None)
        team = me.team if me is not None else None
        others = [p for p in summary.players if p.player_id != player_id]
        rated = after.get(game_id)
        played[game_id] = PlayedGame(
            game_id=game_id,
            partners=tuple(p.name for p in others if team is not None and p.team == team),
            opponents=tuple(p.name for p in others if team is None or p.team != team),
            rating=rated[0] if rated else None,
            change=rated[1] if rated else None,
        )
    return played


def _with_changes(history: Sequence[RatingPoint]) -> list[tuple[RatingPoint, int]]:
    """Each point of a history with how much the estimate people read moved in that game."""
    before = Shown.of(Skill(mu=25.0, sigma=25 / 3, rating=0.0)).rating  # a newcomer's
    moved = []
    for point in history:
        now = Shown.of(point.skill).rating
        moved.append((point, now - before))
        before = now
    return moved


def player_ratings(records: Records, club_id: str, player_id: str) -> list[tuple[str, str, Shown, int]]:
    """The player's current rating in each game they are rated in: (ruleset, title, rating, rank)."""
    ratings, found = ClubRatings.of(records), []
    for ruleset in records.rulesets:
        for rank, (rating, _name) in enumerate(ratings.table(club_id, ruleset.name), start=1):
            if rating.player_id == player_id:
                found.append((ruleset.name, ruleset.title, Shown.of(rating.skill), rank))
    return found


def rated_games(records: Records, club_id: str) -> list[tuple[str, str]]:
    """The games (rulesets) the club has ratings in: (name, title)."""
    ratings = ClubRatings.of(records)
    return [(r.name, r.title) for r in records.rulesets if ratings.table(club_id, r.name)]


class LadderRow(msgspec.Struct, frozen=True, kw_only=True):
    rank: int
    player_id: str
    name: str
    shown: Shown
    games: int
    last_played: datetime


def ratings_page(
    records: Records, club_id: str, ruleset: str, player_id: str | None, words: Translator = ENGLISH
) -> dict[str, Any]:
    """The club's ladder for one game, and the rating over time of `player_id` (the leader's when None)."""
    if ruleset not in records.rulesets:
        raise NotFound("game", ruleset)
    ratings = ClubRatings.of(records)
    ladder = [
        LadderRow(
            rank=rank,
            player_id=rating.player_id,
            name=name,
            shown=Shown.of(rating.skill),
            games=rating.games,
            last_played=rating.last_finished_at,
        )
        for rank, (rating, name) in enumerate(ratings.table(club_id, ruleset), start=1)
    ]
    chosen = player_id or (ladder[0].player_id if ladder else None)
    name = ratings.player_name(club_id, chosen) if chosen is not None else ""
    history = ratings.history(club_id, ruleset, chosen) if chosen is not None else []
    marks = [
        RatingMark(
            when=format_skeleton("MMMd", point.finished_at, locale=words.language),
            rating=shown.rating,
            spread=shown.spread,
            said=words(_rating_point(name, shown, point, change, words)),
        )
        for point, change in _with_changes(history)
        for shown in (Shown.of(point.skill),)
    ]
    return {
        "ruleset": records.rulesets.get(ruleset),
        "ladder": ladder,
        "chosen": chosen,
        "chosen_name": name,
        "history": [(point, Shown.of(point.skill), change) for point, change in _with_changes(history)],
        "plot": rating_plot(marks, name, words) if marks else None,
        "games": [(r.name, r.title) for r in records.rulesets],
    }


def _rating_point(name: str, shown: Shown, point: RatingPoint, change: int, words: Translator) -> Message:
    return _(
        "{player}: {rating} ± {spread} after game {game} ({change})",
        player=name,
        rating=shown.rating,
        spread=shown.spread,
        game=point.game_id,
        change=f"{change:+d}",
    )
