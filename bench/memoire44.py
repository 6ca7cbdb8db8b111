"""Mémoire 44 validate + evolve per core, side by side: the base game (two players, the scenarios as
shipped), the expansions (night, weather, nations, commissar, D-Day settings on top of them), the D-Day
reinforcements (the D-Day scenario, alone and with those expansions), the air rules (with the test air
pack), and Overlord team tables of six. The five sets are measured in turns, several rounds interleaved,
so a shared machine's load falls on all of them alike. Run: `python -m bench.memoire44 [--games N]`.

Target (issue 14): above 50,000 events/s per core (CPU time) with the expansions on.
"""

from __future__ import annotations

import argparse
import random
import statistics

from bench.fold import _measure, _validate_and_evolve
from bench.games import Game
from domain.memoire44 import RULESET
from testkit.players.memoire44 import (
    AIR_VARIANTS,
    TEAM_SCENARIOS,
    TEAM_VARIANTS,
    TEST_INITIATIVE,
    VARIANTS,
    RandomTable,
    setup_for,
    team_setup_for,
)

SCENARIOS = sorted(RULESET.resource_kinds["scenario"].builtin())


def _games(kind: str, count: int, seed: int) -> list[Game]:
    games = []
    for number in range(count):
        rng = random.Random(seed + number)
        scenario = SCENARIOS[number % len(SCENARIOS)]
        if kind == "base":
            setup = setup_for(scenario)
        elif kind == "expansions":
            setup = setup_for(scenario, options=VARIANTS[number % len(VARIANTS)])
        elif kind == "d-day":  # the D-Day reinforcements (M44-DD-6 to M44-DD-9), alone and with the others
            setup = setup_for("pointe_du_verrier", options=({}, *VARIANTS)[number % (len(VARIANTS) + 1)])
        elif kind == "air rules":
            setup = setup_for(scenario, options=AIR_VARIANTS[number % len(AIR_VARIANTS)])
        else:
            setup = team_setup_for(
                TEAM_SCENARIOS[number % len(TEAM_SCENARIOS)],
                options=TEAM_VARIANTS[number % len(TEAM_VARIANTS)],
                initiative=TEST_INITIATIVE,
            )
        table = RandomTable(rng, setup)
        table.play()
        games.append(list(table.events))
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    kinds = ("base", "expansions", "d-day", "air rules", "teams of six")
    sets = {kind: _games(kind, args.games, 50_000) for kind in kinds}
    rates: dict[str, list[float]] = {kind: [] for kind in sets}
    for _ in range(args.rounds):
        for kind, games in sets.items():
            rates[kind].append(_measure(_validate_and_evolve, RULESET, games, args.seconds)["events_per_cpu_s"])
    print("| games | events/game | validate + evolve, events per CPU second (median of rounds) |")
    print("|---|---:|---:|")
    for kind, games in sets.items():
        per_game = sum(len(g) - 1 for g in games) / len(games)
        print(f"| {kind} | {per_game:.0f} | {statistics.median(rates[kind]):,.0f} |")


if __name__ == "__main__":
    main()
