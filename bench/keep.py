"""A report to keep (issue 31): the one-file HTML replay of a 300-event game of each game, built as
`tablelog report` builds it (the CLI on SQLite, public view, English), its size and its build time.
Targets: under 2 MB and under 2 s.

Each game's seeded random player gives the record: the first game of `length` events or more, cut to
`length` (a record's first events are a record), else the longest one played (a Milles Nautiques game
ends before 300 events). The time is CPU time of this process around the command (the machine is shared)
with the wall time beside it, the median of `samples` runs; the first run (imports, the store's
migrations) is left out."""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path
from typing import Any

import msgspec

from bench.common import Sizes, median
from bench.games import PLAYERS, Game, bench_rulesets, game_rulesets
from domain.ruleset import Ruleset

LENGTH = 300
SMOKE_LENGTH = 40
"""A smoke run's games: it checks the harness, not the figures."""
SEEDS = 30


def long_game(ruleset: Ruleset, length: int) -> Game:
    """The first seeded game of `length` events or more, cut to `length`; else the longest of `SEEDS`."""
    longest: Game = []
    for seed in range(SEEDS):
        game = PLAYERS[ruleset.name](random.Random(seed))
        if len(game) >= length:
            return game[:length]
        longest = max(longest, game, key=len)
    return longest


def _cli(argv: list[str]) -> None:
    from service.cli import main

    assert main(argv, rulesets=bench_rulesets()) == 0, argv


def run(sizes: Sizes, samples: int = 3) -> dict[str, Any]:
    length = SMOKE_LENGTH if sizes.name == "smoke" else LENGTH
    rulesets, _missing = game_rulesets()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        db = ["--database-url", f"sqlite:///{Path(folder) / 'report.db'}"]
        _cli(["club", "create", "bench", "Bench", *db])
        for ruleset in rulesets:
            game = long_game(ruleset, length)
            source, out = Path(folder) / f"{ruleset.name}.jsonl", Path(folder) / f"{ruleset.name}.html"
            source.write_bytes(b"".join(msgspec.json.encode(event) + b"\n" for event in game))
            _cli(["import", str(source), "--club", "bench", "--game-id", ruleset.name, *db])
            command = ["report", ruleset.name, "--club", "bench", "--view", "public", "-o", str(out), *db]
            cpu, wall = [], []
            for run_number in range(samples + 1):
                started_cpu, started = time.process_time(), time.perf_counter()
                _cli(command)
                if run_number:
                    cpu.append(time.process_time() - started_cpu)
                    wall.append(time.perf_counter() - started)
            size = out.stat().st_size
            rows.append(
                {
                    "ruleset": ruleset.name,
                    "events": len(game),
                    "bytes": size,
                    "cpu_s": round(median(cpu), 3),
                    "wall_s": round(median(wall), 3),
                    "bytes_per_step": size // len(game),
                }
            )
    return {"rows": rows, "length": length, "samples": samples}
