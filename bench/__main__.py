"""`python -m bench [--smoke] [--out bench/results/run.json]`: run every section, print a table,
write JSON. See bench/README.md."""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from bench import append, floor, fold, health, keep, live, pages, rebuild, seek, tournament, web
from bench.common import FULL, ROOT, SMOKE, Sizes, database_url
from bench.games import game_rulesets, random_games
from bench.report import print_report, targets

SECTIONS = ("fold", "seek", "append", "http", "rebuild", "pages", "report")
ON_REQUEST = ("live", "health", "scale", "floor", "tournament", "recording")
"""Sections run only when named in --sections: each serves its own servers for a minute or more, and
`scale` makes a replica with pg_basebackup (root, the server's binaries)."""


def _git_commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10
        ).stdout.strip()
    except OSError:
        return "unknown"


def _progress(started: float, text: str) -> None:
    print(f"[{time.perf_counter() - started:7.1f} s] {text}", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="a tiny run that checks the harness works (seconds)")
    parser.add_argument("--out", type=Path, help="write the results as JSON here (bench/results/ is git-ignored)")
    parser.add_argument(
        "--sections", default=",".join(SECTIONS), help=f"comma-separated, of {', '.join(SECTIONS + ON_REQUEST)}"
    )
    parser.add_argument("--http-workers", type=int, default=os.cpu_count() or 2, help="server workers (default: cores)")
    parser.add_argument(
        "--http-projector",
        choices=web.PROJECTOR_LAYOUTS,
        default="process",
        help="the projector as its own process beside the server, as deployed (default), or a thread "
        "of the server, as `tablelog serve` runs alone",
    )
    parser.add_argument(
        "--http-set",
        action="append",
        default=[],
        metavar="TABLELOG_NAME=VALUE",
        help="a setting of this checkout's HTTP server only (with --http-baseline ., what the setting costs)",
    )
    parser.add_argument(
        "--http-baseline",
        type=Path,
        metavar="CHECKOUT",
        help="also serve another checkout (e.g. `git worktree add /tmp/base <commit>`, with its own "
        ".venv) and measure both at every level in turn: before / after in one run",
    )
    parser.add_argument("--rebuild-games", type=int, help="games stored for the rebuild (default 10,000; smoke 20)")
    parser.add_argument("--database-url", help="PostgreSQL (default TABLELOG_BENCH_DATABASE_URL or the local server)")
    args = parser.parse_args(argv)
    sizes: Sizes = SMOKE if args.smoke else FULL
    if args.rebuild_games:
        sizes = msgspec.structs.replace(sizes, rebuild_games=args.rebuild_games)
    wanted = [s.strip() for s in args.sections.split(",") if s.strip()]
    unknown = set(wanted) - set(SECTIONS) - set(ON_REQUEST)
    if unknown:
        parser.error(f"unknown sections: {', '.join(sorted(unknown))}")
    url = args.database_url or database_url()

    started = time.perf_counter()
    rulesets, missing = game_rulesets()
    games = {r.name: random_games(r, sizes.fold_games, seed=7) for r in rulesets}
    _progress(started, f"games played: {', '.join(f'{n} x{len(g)}' for n, g in games.items())}")
    results: dict[str, Any] = {
        "meta": {
            "mode": sizes.name,
            "command": " ".join([".venv/bin/python -m bench", *(argv if argv is not None else sys.argv[1:])]),
            "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "commit": _git_commit(),
            "python": platform.python_version(),
            "cores": os.cpu_count(),
            "load_average_at_start": list(os.getloadavg()),
            "rulesets": [r.name for r in rulesets],
            "rulesets_missing": missing,
            "games_generated_seconds": round(time.perf_counter() - started, 1),
            "note": "single run on a shared machine: compare the ratios measured side by side, not absolute times",
        }
    }
    if "fold" in wanted:
        _progress(started, "fold")
        results["fold"] = fold.run(rulesets, games, sizes)
    if "seek" in wanted:
        _progress(started, "seek")
        results["seek"] = seek.run(rulesets, games, sizes)
    if "append" in wanted:
        payloads = append.payloads_from([g for played in games.values() for g in played])
        _progress(started, "append")
        results["append"] = append.run(url, sizes, payloads, require_eventsourcing=not args.smoke)
    baseline = web.Code.of(f"baseline {args.http_baseline}", args.http_baseline) if args.http_baseline else None
    if "http" in wanted:
        _progress(started, "http")
        settings = dict(setting.split("=", 1) for setting in args.http_set)
        results["http"] = web.run(url, sizes, args.http_workers, args.http_projector, baseline, settings)
    if "live" in wanted:
        _progress(started, "live")
        results["live"] = live.run(url, sizes, baseline)
    if "health" in wanted:
        _progress(started, "health")
        results["health"] = health.run(url, sizes, args.http_workers, baseline)
    if "floor" in wanted:
        _progress(started, "floor")
        results["floor"] = floor.run(url, sizes, baseline)
    if "recording" in wanted:
        from bench import recording

        _progress(started, "recording")
        results["recording"] = recording.run([recording.current()], baseline=baseline)
    if "rebuild" in wanted:  # last: it needs the projector, which landed last
        _progress(started, "rebuild")
        results["rebuild"] = rebuild.run(url, rulesets, games, sizes.rebuild_games)
    if "pages" in wanted:
        _progress(started, "pages")
        results["pages"] = pages.run(
            sizes, lengths=(100, 1000) if args.smoke else (100, 10_000), samples=5 if args.smoke else 40
        )
    if "tournament" in wanted:
        _progress(started, "tournament")
        results["tournament"] = tournament.run(args.smoke)
        results["tournament"]["tournament_screens"] = tournament.screens(url, args.smoke)
    if "report" in wanted:
        _progress(started, "report")
        results["report"] = keep.run(sizes, samples=1 if args.smoke else 3)
    if "scale" in wanted:
        from bench import scale  # the replica's helpers live with the tests' cluster

        _progress(started, "scale")
        results["scale"] = scale.run(url, sizes)
    results["memory"] = {
        "server_during_http": results.get("http", {}).get("server_memory"),
        "rebuild_peak_rss_mib": results.get("rebuild", {}).get("peak_rss_mib"),
    }
    results["targets"] = targets(results)
    results["meta"]["seconds"] = round(time.perf_counter() - started, 1)
    print_report(results)
    if "tournament" in results:
        tournament.print_tournament(results["tournament"])
        tournament.print_screens(results["tournament"]["tournament_screens"])
    if "scale" in results:
        from bench.scale import print_scale

        print_scale(results["scale"])
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_bytes(msgspec.json.format(msgspec.json.encode(results), indent=2))
        print(f"\nwritten: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
