"""`python -m bench.tournament [--smoke]`, or `python -m bench --sections tournament`: a club's largest
evening (issue 28), pure CPU work, no database.

- a Swiss of 1,000 entries in a two-sided game (every constraint on: no repeat, one bye, sides), played
  for nine rounds, each paired from the standings after the one before, each table given a game (a
  seeded win or draw);
- the tenth round paired from the standings after nine (target under 1 s), and the second round after
  one (the search is widest when most players are level);
- the standings after nine rounds: 4,500 games through the league's tie-break chain (points, Buchholz,
  Sonneborn-Berger, score) with every separation explained (target under 200 ms).
Each figure is the best of `--repeat` runs, wall and CPU time (the machine may be shared).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec

from domain.ruleset import Player, PlayerResult, Result
from projections.standings import LeagueGame, Scoring
from projections.tournaments import (
    PlayerEntered,
    RoundPaired,
    Tournament,
    TournamentCreated,
    apply,
    pair,
    ranking,
    tournament_standings,
)

TIE_BREAKS = ("points", "buchholz", "sonneborn_berger", "score")


def _best(repeat: int, run: Callable[[], Any]) -> tuple[float, float, Any]:
    wall, cpu, out = float("inf"), float("inf"), None
    for _ in range(repeat):
        started, used = time.perf_counter(), time.process_time()
        out = run()
        wall = min(wall, time.perf_counter() - started)
        cpu = min(cpu, time.process_time() - used)
    return wall, cpu, out


def _played(state: Tournament, paired: RoundPaired, rng: random.Random, games: dict[str, LeagueGame]) -> RoundPaired:
    """The round with a game at each table: the first seat wins, the second, or they draw."""
    names = state.names()
    start = datetime(2026, 11, 28, 19, tzinfo=UTC)
    tables = []
    for table in paired.tables:
        game_id = f"r{paired.round}t{table.table}"
        first = rng.choice((1, 1, 2, 2, 1))
        second = 1 if first == 2 else rng.choice((1, 2))
        games[game_id] = LeagueGame(
            game_id=game_id,
            finished_at=start + timedelta(hours=paired.round, seconds=table.table),
            players=tuple(Player(player_id=p, name=names[p], seat=s) for s, p in enumerate(table.seats)),
            result=Result(
                finished=True,
                score_unit="points",
                winners=() if first == second else (0,) if first == 1 else (1,),
                players=(
                    PlayerResult(seat=0, score=rng.randint(0, 30), placement=first),
                    PlayerResult(seat=1, score=rng.randint(0, 30), placement=second),
                ),
            ),
        )
        tables.append(msgspec.structs.replace(table, game_id=game_id))
    return msgspec.structs.replace(paired, tables=tuple(tables))


def evening(players: int, rounds: int, seed: int) -> tuple[Tournament, dict[str, LeagueGame], list[str]]:
    """The Swiss after `rounds` rounds, its games, and the order the next round is paired in."""
    rng = random.Random(seed)
    state = apply(
        None,
        TournamentCreated(
            tournament_id="bench",
            ruleset="bench",
            system="swiss",
            scoring=Scoring(win_draw_loss=(2, 1, 0)),
            tie_breaks=TIE_BREAKS,
            sides=True,
            bye_points=2,
            seed=seed,
        ),
    )
    for n in range(players):
        state = apply(state, PlayerEntered(player_id=f"p{n:04}", name=f"Player {n}"))
    games: dict[str, LeagueGame] = {}
    order = ranking(state.active, None, seed)
    for _ in range(rounds):
        state = apply(state, _played(state, pair(state, order), rng, games))
        order = ranking(state.active, tournament_standings(state, games), seed)
    return state, games, order


def run(smoke: bool = False, repeat: int = 3) -> dict[str, Any]:
    players = 40 if smoke else 1000
    out: dict[str, Any] = {"players": players}
    built = time.perf_counter()
    state, games, order = evening(players, 9, seed=28)
    out["evening_built_seconds"] = round(time.perf_counter() - built, 2)

    seconds, cpu, paired = _best(repeat, lambda: pair(state, order))
    out["swiss_round_10"] = {
        "seconds": round(seconds, 4),
        "cpu_seconds": round(cpu, 4),
        "tables": len(paired.tables),
        "relaxed": list(paired.relaxed),
        "target_seconds": 1.0,
    }
    first, _games, first_order = evening(players, 1, seed=29)
    seconds, cpu, paired = _best(repeat, lambda: pair(first, first_order))
    out["swiss_round_2"] = {
        "seconds": round(seconds, 4),
        "cpu_seconds": round(cpu, 4),
        "tables": len(paired.tables),
        "relaxed": list(paired.relaxed),
        "target_seconds": 1.0,
    }
    seconds, cpu, table = _best(repeat, lambda: tournament_standings(state, games))
    out["standings_after_9"] = {
        "games": len(games),
        "rows": len(table.rows),
        "separations": len(table.separations),
        "seconds": round(seconds, 4),
        "cpu_seconds": round(cpu, 4),
        "target_seconds": 0.2,
    }
    return out


def print_tournament(results: dict[str, Any]) -> None:
    print(f"\nTournament (issue 28): a Swiss of {results['players']} entries, best of runs, wall / CPU")
    for name, label in (
        ("swiss_round_2", "pair round 2 (after 1)"),
        ("swiss_round_10", "pair round 10 (after 9)"),
        ("standings_after_9", "standings after 9 rounds"),
    ):
        row = results[name]
        # Judged on CPU time: on the shared machine the wall clock measures the other work as much as this.
        met = "met" if row["cpu_seconds"] < row["target_seconds"] else "MISSED"
        print(
            f"  {label:<28} {row['seconds'] * 1000:9.1f} ms / {row['cpu_seconds'] * 1000:9.1f} ms"
            f"   target < {row['target_seconds'] * 1000:.0f} ms (CPU): {met}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.tournament", description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="40 entries, to check the script runs")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    results = run(args.smoke, args.repeat)
    print(json.dumps(results, indent=2))
    print_tournament(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
