"""Profiles behind the figures that miss a target: `python -m bench.profile SECTION` (needs the
`bench` extra for pyinstrument). Sections: append (tablelog PostgreSQL, batch 1, one writer), fold
RULESET (validate + evolve), seek (a 10,000-event game, with snapshots), rebuild (in process, every
projection over stored games). Prints pyinstrument's call tree; `--html FILE` writes the full one."""

from __future__ import annotations

import argparse
import random
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import append, games
from bench.common import database_url, scratch_schema


def _profile(work: Callable[[], Any], html: Path | None) -> None:
    from pyinstrument import Profiler

    profiler = Profiler(interval=0.0005)
    profiler.start()
    try:
        work()
    finally:
        profiler.stop()
    print(profiler.output_text(unicode=False, color=False, show_all=False))
    if html is not None:
        html.write_text(profiler.output_html())


def profile_append(seconds: float, html: Path | None) -> None:
    rulesets, _ = games.game_rulesets()
    payloads = append.payloads_from(games.random_games(rulesets[0], 2, seed=7))
    with scratch_schema(database_url(), "profile") as (_, url):
        backend = append.TablelogPostgres(url, 1)
        stream = f"profile-{uuid.uuid4().hex[:8]}"
        version = 0

        def work() -> None:
            nonlocal version
            deadline = time.perf_counter() + seconds
            while time.perf_counter() < deadline:
                backend.append(backend.store, stream, version, [payloads[version % len(payloads)]])
                version += 1

        try:
            _profile(work, html)
        finally:
            backend.close()
    print(f"{version} appends in {seconds} s")


def profile_fold(name: str, count: int, html: Path | None) -> None:
    rulesets, _ = games.game_rulesets()
    ruleset = next(r for r in rulesets if r.name == name)
    played = games.random_games(ruleset, count, seed=7)

    def work() -> None:
        for _ in range(5):
            for game in played:
                state = ruleset.initial(game[0].setup)
                for event in game[1:]:
                    ruleset.validate(state, event)
                    state = ruleset.evolve(state, event)

    _profile(work, html)
    print(f"{5 * sum(len(g) - 1 for g in played)} events")


def profile_seek(length: int, html: Path | None) -> None:
    from projections.replay import seek, snapshots_for

    tally = games.tally_ruleset()
    game = games.tally_game(length, seed=length)
    snapshots = snapshots_for(tally, game, every=100)
    rng = random.Random(1)
    steps = [rng.randint(1, length) for _ in range(200)]
    _profile(lambda: [seek(tally, game, step, snapshots) for step in steps], html)


def profile_rebuild(count: int, html: Path | None) -> None:
    from bench.rebuild import _load, snapshot_problems
    from service.projector import projections, rebuild
    from service.store.postgres import PostgresStore

    rulesets, _ = games.game_rulesets()
    played = {r.name: games.random_games(r, 20, seed=7) for r in rulesets}
    excluded = snapshot_problems(rulesets, played)
    chosen = [g for r in rulesets if r.name not in excluded for g in played[r.name]]
    with scratch_schema(database_url(), "profile") as (_, url):
        events, _ = _load(url, chosen, count)
        store = PostgresStore(url)
        try:
            def work() -> None:
                for projection in projections(store):
                    started = time.perf_counter()
                    rebuild(store, projection)
                    print(f"{projection.name}: {events / (time.perf_counter() - started):,.0f} events/s")

            _profile(work, html)
        finally:
            store.close()
    print(f"{events} events of {count} games")


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.profile", description=__doc__)
    parser.add_argument("section", choices=["append", "fold", "seek", "rebuild"])
    parser.add_argument("ruleset", nargs="?", default="atlantic-storm", help="for fold")
    parser.add_argument("--seconds", type=float, default=5.0, help="append: how long")
    parser.add_argument("--games", type=int, default=500, help="rebuild: games stored; fold: games played")
    parser.add_argument("--length", type=int, default=10_000, help="seek: the game's length")
    parser.add_argument("--html", type=Path, help="write pyinstrument's HTML profile here")
    args = parser.parse_args()
    if args.section == "append":
        profile_append(args.seconds, args.html)
    elif args.section == "fold":
        profile_fold(args.ruleset, min(args.games, 60), args.html)
    elif args.section == "seek":
        profile_seek(args.length, args.html)
    else:
        profile_rebuild(args.games, args.html)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
