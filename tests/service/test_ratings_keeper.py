"""The ratings keeper (`service.usecases.ratings`) over batches arriving in any order, games finishing before
ones already rated and corrections changing or reopening rated games: after every batch, the ratings
and every history point equal the ratings derived from scratch over the games finished so far. The
store is an in-memory stand-in applying the rows as the SQL does."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import msgspec
from hypothesis import example, given, settings
from hypothesis import strategies as st

from domain.ruleset import Player, PlayerResult, Result
from projections.ratings import PlayerRating, RatingPoint, rate_all
from service.store.base import GameSummary, Outcome, RatingRows, ResultChange
from service.usecases.ratings import Ratings, rated

KEY = ("c1", "tally")
START = datetime(2026, 3, 1, tzinfo=UTC)


class MemoryStore:
    def __init__(self) -> None:
        self.summaries: dict[str, GameSummary] = {}
        self.ratings: dict[str, PlayerRating] = {}
        self.points: dict[tuple[str, int], RatingPoint] = {}

    def player_ratings(self, club_id: str, ruleset: str) -> dict[str, PlayerRating]:
        return dict(self.ratings)

    def rating_points_since(self, club_id: str, ruleset: str, since: datetime) -> list[tuple[str, int, RatingPoint]]:
        return [
            (player, number, point) for (player, number), point in self.points.items() if point.finished_at >= since
        ]

    def rating_point(self, club_id: str, ruleset: str, player_id: str, number: int) -> RatingPoint | None:
        return self.points.get((player_id, number))

    def game_summaries(self, club_id: str, game_ids: list[str]) -> dict[str, GameSummary]:
        return {g: self.summaries[g] for g in game_ids if g in self.summaries}

    def apply(self, rows: RatingRows) -> None:
        for player, number in rows.truncate:
            self.points = {k: v for k, v in self.points.items() if k[0] != player or k[1] <= number}
        for player in rows.drop:
            self.ratings.pop(player, None)
        self.ratings.update({r.player_id: r for r in rows.ratings})
        for player, number, point in rows.history:
            assert (player, number) not in self.points
            self.points[(player, number)] = point


def summary(game_id: str, minute: int, seats: tuple[str, ...], places: tuple[int, ...], finished: bool) -> GameSummary:
    players = tuple(Player(player_id=p, name=p, seat=n) for n, p in enumerate(seats))
    result = Result(
        finished=finished,
        score_unit="pip",
        players=tuple(PlayerResult(seat=n, score=9 - p, placement=p) for n, p in enumerate(places)),
    )
    at = START + timedelta(minutes=minute)
    return GameSummary(
        game_id=game_id,
        club_id=KEY[0],
        ruleset=KEY[1],
        ruleset_version="1",
        version=1,
        applied=1,
        started_at=START,
        players=players,
        outcome=Outcome(finished=finished, finished_at=at if finished else None, result=result),
    )


GAME = st.tuples(st.integers(0, 50), st.lists(st.sampled_from("abcde"), min_size=2, max_size=4, unique=True))


@settings(max_examples=60, deadline=None)
@given(
    games=st.lists(GAME, min_size=1, max_size=14),
    batches=st.lists(st.integers(1, 3), max_size=14),
    corrections=st.lists(st.tuples(st.integers(0, 13), st.booleans(), st.integers(0, 50)), max_size=5),
    places=st.randoms(use_true_random=False),
)
# Found by hypothesis: a game corrected in the batch it finished in, beside another game of the batch that
# finished before it (the batch's own earlier game was left out when the ratings were derived again).
@example(games=[(0, ["a", "b"]), (0, ["a", "b"])], batches=[3], corrections=[(1, False, 0)], places=random.Random(0))
def test_kept_ratings_equal_ratings_from_scratch_after_every_batch(
    games: list[tuple[int, list[str]]],
    batches: list[int],
    corrections: list[tuple[int, bool, int]],
    places: random.Random,
) -> None:
    store = MemoryStore()
    keeper = Ratings(store)  # type: ignore[arg-type]
    arriving = [
        summary(f"g{n:02}", minute, tuple(seats), tuple(places.sample(range(1, len(seats) + 1), len(seats))), True)
        for n, (minute, seats) in enumerate(games)
    ]
    steps: list[list[GameSummary | tuple[int, bool, int]]] = []
    queue: list[GameSummary | tuple[int, bool, int]] = [*arriving, *corrections]
    sizes = iter(batches)
    while queue:
        size = next(sizes, 2)
        steps.append(queue[:size])
        queue = queue[size:]
    for step in steps:
        finished: list[GameSummary] = []
        changes: list[ResultChange] = []
        batch: dict[str, GameSummary] = {}
        for item in step:
            if isinstance(item, GameSummary):
                finished.append(item)
                batch[item.game_id] = item
                continue
            index, reopen, minute = item
            if index >= len(arriving) or arriving[index].game_id not in store.summaries | batch:
                continue
            before = (store.summaries | batch)[arriving[index].game_id]
            places = tuple(reversed([p.placement or 0 for p in before.outcome.result.players]))
            after = summary(before.game_id, minute, tuple(p.player_id for p in before.players), places, not reopen)
            if before.outcome != after.outcome:
                changes.append(
                    ResultChange(stream_id=before.game_id, version=2, before=before.outcome, after=after.outcome)
                )
            batch[before.game_id] = after
            finished = [f for f in finished if f.game_id != before.game_id]
        for rows in keeper.writes(finished, changes, batch):
            store.apply(rows)
        store.summaries.update(batch)
        now, history = rate_all(rated(s) for s in store.summaries.values() if s.outcome.finished)
        assert msgspec.to_builtins(store.ratings) == msgspec.to_builtins(now)
        expected: dict[tuple[str, int], RatingPoint] = {}
        for player, point in history:
            expected[(player, sum(1 for k in expected if k[0] == player) + 1)] = point
        assert store.points == expected
