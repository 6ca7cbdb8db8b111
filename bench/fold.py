"""Fold throughput per ruleset: events per second through `evolve` alone (reading a record) and
through `validate` + `evolve` (the append path), over games the rulesets' random players recorded.

Single-threaded, so the figure is per core. Both wall-clock and CPU-time rates are given: on a
shared machine the CPU-time rate is the steadier of the two.
"""

from __future__ import annotations

import time
from typing import Any

from bench.common import Sizes
from bench.games import Game
from domain.ruleset import Ruleset


def _evolve_only(ruleset: Ruleset, games: list[Game]) -> int:
    count = 0
    for game in games:
        state = ruleset.initial(game[0].setup)
        for event in game[1:]:
            state = ruleset.evolve(state, event)
        count += len(game) - 1
    return count


def _validate_and_evolve(ruleset: Ruleset, games: list[Game]) -> int:
    count = 0
    for game in games:
        state = ruleset.initial(game[0].setup)
        for event in game[1:]:
            ruleset.validate(state, event)
            state = ruleset.evolve(state, event)
        count += len(game) - 1
    return count


def _measure(work: Any, ruleset: Ruleset, games: list[Game], min_seconds: float) -> dict[str, float]:
    work(ruleset, games[:1])  # warm caches (catalogues, decoders) before timing
    done = 0
    wall_started, cpu_started = time.perf_counter(), time.process_time()
    while True:
        done += work(ruleset, games)
        wall = time.perf_counter() - wall_started
        if wall >= min_seconds:
            break
    cpu = time.process_time() - cpu_started
    return {
        "events": done,
        "events_per_s": round(done / wall, 1),
        "events_per_cpu_s": round(done / cpu, 1) if cpu > 0 else 0.0,
    }


def run(rulesets: list[Ruleset], games: dict[str, list[Game]], sizes: Sizes) -> dict[str, Any]:
    """The fold section: one row per ruleset."""
    rows = []
    for ruleset in rulesets:
        played = games[ruleset.name]
        events = sum(len(g) - 1 for g in played)
        rows.append(
            {
                "ruleset": ruleset.name,
                "games": len(played),
                "events_per_game": round(events / len(played), 1),
                "evolve": _measure(_evolve_only, ruleset, played, sizes.fold_min_seconds),
                "validate_evolve": _measure(_validate_and_evolve, ruleset, played, sizes.fold_min_seconds),
            }
        )
    return {"rows": rows}
