"""`python -m bench.competitions [--smoke]`: tournament pairing and rating rebuild times (issue 16).

- a Swiss round of 200 players, paired after five rounds already played (history: who met whom, byes,
  sides), from a shuffled ranking, in a two-sided game (every constraint on);
- a multiplayer round of 120 players at tables of 3 to 5, after three rounds already played;
- the ratings derived from scratch over 10,000 finished games (two- to five-player tables, some teams),
  as the projector does after a correction.
Targets: each pairing under 1 s. Each figure is the best of `--repeat` runs (CPU-bound, one core).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from domain.ruleset import Player, PlayerResult, Result
from projections.ratings import RatedGame, rate_all
from projections.standings import Scoring
from projections.tournaments import PlayerEntered, Tournament, TournamentCreated, apply, pair


def _field(system: str, players: int, rounds: int, seed: int) -> Tournament:
    """A tournament with `rounds` rounds already paired from shuffled rankings."""
    rng = random.Random(seed)
    state = apply(
        None,
        TournamentCreated(
            tournament_id="bench",
            ruleset="bench",
            system=system,  # type: ignore[arg-type]
            scoring=Scoring(win_draw_loss=(2, 1, 0)),
            sides=system == "swiss",
        ),
    )
    for n in range(players):
        state = apply(state, PlayerEntered(player_id=f"p{n:03}", name=f"Player {n}"))
    for _ in range(rounds):
        order = state.active
        rng.shuffle(order)
        state = apply(state, pair(state, order))
    return state


def _best(repeat: int, run: Callable[[], Any]) -> tuple[float, float, Any]:
    """The best wall time and the best CPU time of `repeat` runs (the machine may be shared), and the
    last result."""
    wall, cpu, out = float("inf"), float("inf"), None
    for _ in range(repeat):
        started, used = time.perf_counter(), time.process_time()
        out = run()
        wall = min(wall, time.perf_counter() - started)
        cpu = min(cpu, time.process_time() - used)
    return wall, cpu, out


def _games(count: int, players: int, seed: int) -> list[RatedGame]:
    rng = random.Random(seed)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    games = []
    for n in range(count):
        size = rng.choice((2, 2, 3, 4, 4, 5))
        ids = rng.sample(range(players), size)
        teams = size == 4 and rng.random() < 0.3
        seated = tuple(
            Player(player_id=f"p{i:03}", name=str(i), seat=s, team=s % 2 if teams else None) for s, i in enumerate(ids)
        )
        places = list(range(1, size + 1))
        rng.shuffle(places)
        if teams:
            places = [1 if s % 2 == places[0] % 2 else 2 for s in range(size)]
        result = Result(
            finished=True,
            score_unit="vp",
            players=tuple(PlayerResult(seat=s, score=10 - p, placement=p) for s, p in enumerate(places)),
        )
        games.append(
            RatedGame(game_id=f"g{n:05}", finished_at=start + timedelta(minutes=n), players=seated, result=result)
        )
    return games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.competitions", description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="small sizes, to check the script runs")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    swiss_players, table_players, rated = (20, 15, 200) if args.smoke else (200, 120, 10_000)
    out: dict[str, Any] = {}

    swiss = _field("swiss", swiss_players, 5, seed=1)
    order = list(swiss.active)
    random.Random(2).shuffle(order)
    seconds, cpu, paired = _best(args.repeat, lambda: pair(swiss, order))
    out["swiss_round"] = {
        "players": swiss_players,
        "round": 6,
        "seconds": round(seconds, 4),
        "cpu_seconds": round(cpu, 4),
        "relaxed": list(paired.relaxed),
        "target_seconds": 1.0,
    }

    tables = _field("tables", table_players, 3, seed=3)
    order = list(tables.active)
    random.Random(4).shuffle(order)
    seconds, cpu, paired = _best(args.repeat, lambda: pair(tables, order))
    out["tables_round"] = {
        "players": table_players,
        "round": 4,
        "tables": len(paired.tables),
        "seconds": round(seconds, 4),
        "cpu_seconds": round(cpu, 4),
        "target_seconds": 1.0,
    }

    games = _games(rated, players=300 if not args.smoke else 30, seed=5)
    seconds, cpu, (ratings, history) = _best(args.repeat, lambda: rate_all(games))
    out["rating_rebuild"] = {
        "games": rated,
        "players": len(ratings),
        "history_points": len(history),
        "seconds": round(seconds, 3),
        "cpu_seconds": round(cpu, 3),
        "games_per_second_cpu": round(rated / cpu),
    }
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
