"""Replay seek: the time to the state at a random step of games of growing length, with and without
snapshots (`projections.replay.seek`), so how it grows with the game's length shows.

Tally (the test ruleset) plays games of any length; the real games are measured at the length their
random players reach. Snapshots are taken every `snapshot_every` events, as the service does.
"""

from __future__ import annotations

import random
import time
from typing import Any

import msgspec

from bench.common import Sizes, median, percentile
from bench.games import Game, tally_game, tally_ruleset
from domain.ruleset import Ruleset
from projections.errors import ProjectionError
from projections.replay import seek, snapshots_for


def _seek_times(ruleset: Ruleset, game: Game, snapshots: Any, steps: list[int]) -> dict[str, float]:
    seek(ruleset, game, steps[0], snapshots)  # warm up
    times = []
    for step in steps:
        started = time.perf_counter()
        seek(ruleset, game, step, snapshots)
        times.append((time.perf_counter() - started) * 1000)
    return {
        "median_ms": round(median(times), 4),
        "p99_ms": round(percentile(times, 0.99), 4),
        "max_ms": round(max(times), 4),
    }


def _row(ruleset: Ruleset, game: Game, sizes: Sizes, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    steps = [rng.randint(1, len(game)) for _ in range(sizes.seek_samples)]
    row: dict[str, Any] = {"ruleset": ruleset.name, "events": len(game)}
    row["without_snapshots"] = _seek_times(ruleset, game, (), steps)
    try:
        snapshots = snapshots_for(ruleset, game, every=sizes.snapshot_every)
    except (ProjectionError, TypeError, msgspec.EncodeError) as error:
        # A state the snapshot cannot encode is a finding for the ruleset's owner, not a crash here.
        row["with_snapshots"] = None
        row["snapshots"] = f"not possible: {type(error).__name__}: {error}"
        return row
    row["with_snapshots"] = _seek_times(ruleset, game, snapshots, steps)
    row["snapshots"] = len(snapshots)
    return row


def run(rulesets: list[Ruleset], games: dict[str, list[Game]], sizes: Sizes) -> dict[str, Any]:
    """The seek section: Tally at each length, then one longest recorded game per real ruleset."""
    tally = tally_ruleset()
    rows = [_row(tally, tally_game(length, seed=length), sizes, seed=length) for length in sizes.seek_lengths]
    for ruleset in rulesets:
        longest = max(games[ruleset.name], key=len)
        rows.append(_row(ruleset, longest, sizes, seed=len(longest)))
    return {"rows": rows, "snapshot_every": sizes.snapshot_every, "samples": sizes.seek_samples}
