"""Keeping the club ratings (`projections.ratings`) as a read model of the games projection.

When a batch of events finishes games, their clubs' ratings for those rulesets move on from the stored
ones (the usual case: games finish in order, so each is rated after the ones already rated). When a
correction changes the result of a game that finished (or reopens it), or a game finishes before one
already rated, the ratings of that club and ruleset are derived again from all its finished game
summaries, and replace the stored ones. Both are written in the projection's own transaction.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from projections.ratings import PlayerRating, RatedGame, RatingPoint, order_key, rate, rate_all
from service.readmodels import GameSummary, RatingRows
from service.store.base import Store

Key = tuple[str, str]
"""(club id, ruleset)."""


def rated(summary: GameSummary) -> RatedGame:
    return RatedGame(
        game_id=summary.game_id,
        finished_at=summary.outcome.finished_at or summary.started_at,
        players=summary.players,
        result=summary.outcome.result,
    )


class Ratings:
    """Turns a batch's newly finished and corrected games into rating rows."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def writes(
        self, finished: Sequence[GameSummary], corrected: Iterable[Key], batch: dict[str, GameSummary]
    ) -> list[RatingRows]:
        """`finished`: games that finished in the batch; `corrected`: clubs and rulesets whose rated
        games a correction changed; `batch`: every summary the batch writes (newer than the store's)."""
        redo = set(corrected)
        fresh: dict[Key, list[RatedGame]] = {}
        for summary in finished:
            key = (summary.club_id, summary.ruleset)
            if key not in redo:
                fresh.setdefault(key, []).append(rated(summary))
        out: list[RatingRows] = []
        for key, games in sorted(fresh.items()):
            current = self.store.player_ratings(*key)
            latest = max(((r.last_finished_at, r.last_game) for r in current.values()), default=None)
            games.sort(key=order_key)
            if latest is not None and order_key(games[0]) <= latest:
                redo.add(key)  # finished before a game already rated: derive them all again in order
                continue
            now, history = rate(current, games)
            out.append(self._rows(key, False, now, history, current))
        for key in sorted(redo):
            stored = {s.game_id: s for s in self.store.finished_summaries(*key)}
            stored.update({g: s for g, s in batch.items() if (s.club_id, s.ruleset) == key})
            now, history = rate_all(rated(s) for s in stored.values() if s.outcome.finished)
            out.append(self._rows(key, True, now, history, {}))
        return out

    @staticmethod
    def _rows(
        key: Key,
        replace: bool,
        now: dict[str, PlayerRating],
        history: list[tuple[str, RatingPoint]],
        before: dict[str, PlayerRating],
    ) -> RatingRows:
        counts = {player: rating.games for player, rating in before.items()}
        numbered: list[tuple[str, int, RatingPoint]] = []
        for player, point in history:
            counts[player] = counts.get(player, 0) + 1
            numbered.append((player, counts[player], point))
        moved = {player for player, _ in history}
        changed = tuple(rating for player, rating in sorted(now.items()) if replace or player in moved)
        return RatingRows(club_id=key[0], ruleset=key[1], replace=replace, ratings=changed, history=tuple(numbered))
