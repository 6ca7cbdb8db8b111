"""Profiles behind the figures that miss a target: `python -m bench.profile SECTION` (needs the
`bench` extra for pyinstrument). Sections: append (tablelog PostgreSQL, batch 1, one writer), fold
RULESET (validate + evolve), seek (a 10,000-event game, with snapshots), rebuild (in process, every
projection over stored games). Prints pyinstrument's call tree; `--html FILE` writes the full one.

`http` samples a real server's processes with py-spy (in the `bench` extra; it needs ptrace) while
16 clients append, and prints the functions holding the most samples (inclusive and self)."""

from __future__ import annotations

import argparse
import random
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

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
                for projection in projections(store, games.bench_rulesets()):
                    started = time.perf_counter()
                    rebuild(store, projection)
                    print(f"{projection.name}: {events / (time.perf_counter() - started):,.0f} events/s")

            _profile(work, html)
        finally:
            store.close()
    print(f"{events} events of {count} games")


def _frame(frame: str) -> str:
    # py-spy's folded frames read "function (path/to/file.py:line)": keep the function and the file.
    name, _, where = frame.rpartition(" (")
    path = where.split(":")[0]
    for root in ("/domain/", "/projections/", "/service/", "/site-packages/", "/lib/python3"):
        if root in path:
            path = path[path.index(root) + 1 :].removeprefix("site-packages/")
            break
    return f"{name or frame} ({path})"


def profile_http(seconds: float, workers: int, clients: int, gil: bool) -> None:
    import shutil
    import subprocess
    import sys
    import tempfile
    from collections import Counter

    from bench import web
    from bench.common import FULL

    py_spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    sizes = msgspec.structs.replace(FULL, http_seconds=seconds, http_clients=(clients,))
    with scratch_schema(database_url(), "profile") as (_, url), web.running_server(url, workers) as server:
        token, ids = web.prepare(server.base, clients)
        with tempfile.NamedTemporaryFile(suffix=".txt") as out:
            spy = subprocess.Popen(
                [
                    py_spy,
                    "record",
                    "--pid",
                    str(server.process.pid),
                    "--subprocesses",
                    "--rate",
                    "500",
                    "--duration",
                    str(int(seconds)),
                    "--format",
                    "raw",
                    "--output",
                    out.name,
                    "--nonblocking",
                    *(["--gil"] if gil else []),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
            time.sleep(1.0)  # py-spy attaches to every worker first
            row = web.load(server.port, token, ids, dict.fromkeys(ids, 1), "append", clients, sizes)
            _, errors = spy.communicate(timeout=seconds + 60)
            folded = Path(out.name).read_text()
    if not folded:
        raise SystemExit(f"py-spy recorded nothing: {errors.decode(errors='replace')[-2000:]}")
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    for line in folded.splitlines():
        stack, _, count_text = line.rpartition(" ")
        count = int(count_text)
        frames = [_frame(f) for f in stack.split(";")[1:]]  # the first frame names the process
        total += count
        for name in set(frames):
            inclusive[name] += count
        if frames:
            own[frames[-1]] += count
    print(f"load: {row}")
    print(f"{total} samples of {'threads holding the GIL' if gil else 'busy threads'} in the server's processes")
    print("\nInclusive (share of samples with the function on the stack):")
    for name, count in inclusive.most_common(45):
        print(f"  {100 * count / total:5.1f} %  {name}")
    print("\nSelf (share of samples in the function itself):")
    for name, count in own.most_common(25):
        print(f"  {100 * count / total:5.1f} %  {name}")


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.profile", description=__doc__)
    parser.add_argument("section", choices=["append", "fold", "seek", "rebuild", "http"])
    parser.add_argument("ruleset", nargs="?", default="atlantic-storm", help="for fold")
    parser.add_argument("--seconds", type=float, default=5.0, help="append: how long")
    parser.add_argument("--games", type=int, default=500, help="rebuild: games stored; fold: games played")
    parser.add_argument("--length", type=int, default=10_000, help="seek: the game's length")
    parser.add_argument("--html", type=Path, help="write pyinstrument's HTML profile here")
    parser.add_argument("--workers", type=int, default=2, help="http: server workers")
    parser.add_argument("--clients", type=int, default=16, help="http: concurrent clients")
    parser.add_argument("--gil", action="store_true", help="http: sample only threads holding the GIL (CPU work)")
    args = parser.parse_args()
    if args.section == "append":
        profile_append(args.seconds, args.html)
    elif args.section == "fold":
        profile_fold(args.ruleset, min(args.games, 60), args.html)
    elif args.section == "seek":
        profile_seek(args.length, args.html)
    elif args.section == "http":
        profile_http(args.seconds, args.workers, args.clients, args.gil)
    else:
        profile_rebuild(args.games, args.html)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
