"""Keeping the club ratings (`projections.ratings`) as a read model of the games projection.

Games are rated in the order they finished. When a batch of events finishes games after every game
already rated (the usual case), their clubs' ratings move on from the stored ones. When a game
finishes before one already rated (two tables finishing at once), or a correction changes the result
of a finished game (or reopens it), the ratings of that club and ruleset are derived again from the
earliest game concerned: the stored history gives every player's rating just before it, and every
finished game from there on is rated again in order. All is written in the projection's transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from projections.people import People
from projections.ratings import PlayerRating, RatedGame, RatingPoint, order_key, rate, rate_all
from service.store.base import (
    ClubRecords,
    GameSummary,
    PlayerRecords,
    RatingRows,
    ReadModels,
    ResultChange,
    StreamId,
)
from service.usecases.clubs import Clubs
from service.usecases.games import NotFound, Records

Key = tuple[str, str]
"""(club id, ruleset)."""
Order = tuple[datetime, str]
"""Where a game stands in the rating order: (finished at, game id)."""


def rated(summary: GameSummary, people: People | None = None) -> RatedGame:
    return RatedGame(
        game_id=summary.game_id,
        finished_at=summary.outcome.finished_at or summary.started_at,
        players=people.seated(summary.players) if people else summary.players,
        result=summary.outcome.result,
    )


class Ratings:
    """Turns a batch's newly finished and corrected games into rating rows."""

    def __init__(self, store: ReadModels) -> None:
        self.store = store

    def writes(
        self, finished: Sequence[GameSummary], changes: Sequence[ResultChange], batch: dict[StreamId, GameSummary]
    ) -> list[RatingRows]:
        """`finished`: games that finished in the batch (not by a correction); `changes`: what the batch's
        corrections changed in games' outcomes; `batch`: every summary the batch writes (newer than the
        store's), by stream."""
        fresh: dict[Key, list[RatedGame]] = {}
        for summary in finished:
            fresh.setdefault((summary.club_id, summary.ruleset), []).append(rated(summary))
        starts: dict[Key, list[Order]] = {}
        for change in changes:
            summary = batch[change.stream_id]
            orders = starts.setdefault((summary.club_id, summary.ruleset), [])
            orders.extend(
                (o.finished_at, summary.game_id)
                for o in (change.before, change.after)
                if o.finished and o.finished_at is not None
            )
        out: list[RatingRows] = []
        for key in sorted(set(fresh) | set(starts)):
            current = self.store.player_ratings(*key)
            games = sorted(fresh.get(key, []), key=order_key)
            latest = max(((r.last_finished_at, r.last_game) for r in current.values()), default=None)
            # Derived again from the earliest of what changed: a batch's own games before a corrected game's
            # place are not in the store's history yet, so they start the derivation too.
            if games and (starts.get(key) or (latest is not None and order_key(games[0]) <= latest)):
                starts.setdefault(key, []).append(order_key(games[0]))
            if starts.get(key):
                out.append(self._again(key, min(starts[key]), batch))
            elif games:
                now, history = rate(current, games)
                out.append(_rows(key, now, history, {p: r.games for p, r in current.items()}, ()))
        return out

    def _again(self, key: Key, start: Order, batch: dict[StreamId, GameSummary]) -> RatingRows:
        """The ratings of `key` derived again from the game at `start` on. Every finished game the store
        holds is rated (ratings are written with the summaries), so the games to rate again are those
        with history points from `start` on, and the batch's own."""
        base = self.store.player_ratings(*key)
        first_later: dict[str, int] = {}
        again: set[str] = set()
        for player, number, point in self.store.rating_points_since(key[0], key[1], start[0]):
            if (point.finished_at, point.game_id) >= start:
                first_later[player] = min(first_later.get(player, number), number)
                again.add(point.game_id)
        kept = {player: rating.games for player, rating in base.items()}
        for player, number in first_later.items():
            kept[player] = number - 1
            before = self.store.rating_point(key[0], key[1], player, number - 1) if number > 1 else None
            if before is None:
                base.pop(player, None)
            else:
                base[player] = PlayerRating(
                    player_id=player,
                    skill=before.skill,
                    games=number - 1,
                    last_game=before.game_id,
                    last_finished_at=before.finished_at,
                )
        summaries = self.store.game_summaries(key[0], sorted(again))
        summaries.update({s.game_id: s for s in batch.values() if (s.club_id, s.ruleset) == key})
        games = sorted((rated(s) for s in summaries.values() if s.outcome.finished), key=order_key)
        now, history = rate(base, [g for g in games if order_key(g) >= start])
        truncate = tuple((player, kept[player]) for player in sorted(first_later))
        return _rows(key, now, history, kept, truncate)


def _rows(
    key: Key,
    now: dict[str, PlayerRating],
    history: list[tuple[str, RatingPoint]],
    counts: dict[str, int],
    truncate: tuple[tuple[str, int], ...],
) -> RatingRows:
    """Rows for the players whose ratings moved: their history points numbered after the ones kept, and
    the players left with no rated game dropped."""
    numbered: list[tuple[str, int, RatingPoint]] = []
    counts = dict(counts)
    for player, point in history:
        counts[player] = counts.get(player, 0) + 1
        numbered.append((player, counts[player], point))
    moved = {player for player, _ in history} | {player for player, _ in truncate}
    return RatingRows(
        club_id=key[0],
        ruleset=key[1],
        truncate=truncate,
        drop=tuple(sorted(p for p in moved if p not in now)),
        ratings=tuple(now[p] for p in sorted(moved) if p in now),
        history=tuple(numbered),
    )


class RatingsStore(ReadModels, ClubRecords, PlayerRecords, Protocol):
    """What the club's ratings read: the ratings the projector keeps, the players' names and merges."""


class ClubRatings:
    """The club's ratings for a game, as the API reads them: best first, and a player's history."""

    def __init__(self, store: RatingsStore) -> None:
        self.store = store

    @classmethod
    def of(cls, records: Records) -> ClubRatings:
        return cls(records.store)

    def _merged(
        self, club_id: str, ruleset: str, people: People
    ) -> tuple[dict[str, PlayerRating], list[tuple[str, RatingPoint]]]:
        """The ratings with merged records counted as their person: the stored ones are kept per id by
        the projector (the record is never rewritten), so a club with merges has its games rated again
        here, every finished game in order, with each seat read through the merges."""
        return rate_all(rated(s, people) for s in self.store.finished_summaries(club_id, ruleset))

    def table(self, club_id: str, ruleset: str) -> list[tuple[PlayerRating, str]]:
        """Each rated player's rating and name, best first (equal ratings by name)."""
        people = Clubs(self.store).people(club_id)
        ratings = self._merged(club_id, ruleset, people)[0] if people else self.store.player_ratings(club_id, ruleset)
        names = Clubs(self.store).names(club_id, list(ratings))
        ordered = sorted(ratings.values(), key=lambda r: (-r.skill.rating, names.get(r.player_id, r.player_id)))
        return [(r, names.get(r.player_id, r.player_id)) for r in ordered]

    def player_name(self, club_id: str, player_id: str) -> str:
        found = self.store.get_players(club_id, [player_id])
        if not found:
            raise NotFound("player", player_id)
        return found[0].name

    def history(self, club_id: str, ruleset: str, player_id: str) -> list[RatingPoint]:
        """A player's rating after each rated game (their person's, when their record was merged)."""
        people = Clubs(self.store).people(club_id)
        if not people:
            return self.store.rating_history(club_id, ruleset, player_id)
        person = people(player_id)
        return [point for who, point in self._merged(club_id, ruleset, people)[1] if who == person]
