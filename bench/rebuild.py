"""Projection rebuild: events per second when `tablelog rebuild` starts every projection again from
zero over many recorded games, and the peak resident memory of each rebuild process.

The games (the rulesets' random games, each stored many times under new game ids) are written
straight through the store, not through the HTTP API, so loading them is fast and is not measured.
Each projection is rebuilt by its own `tablelog rebuild NAME` process; the figure counts the whole
process, and also without its start-up (the time of `tablelog migrate` on the same database).
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

import msgspec

from bench.common import ROOT, scratch_schema
from bench.games import GAME_MODULES, Game
from domain.record import event_tag, schema_version
from domain.ruleset import Ruleset
from projections.replay import snapshots_for
from service.store.base import MAX_BATCH, AppendRequest, GameProgress, GameRecord, NewEvent, Recorder, game_stream

CLUB = "bench"
LOADERS = 4


def not_available() -> str | None:
    """None when the projector and its rebuild have landed, else why not."""
    try:
        projector = importlib.import_module("service.projector")
    except ImportError as error:
        return f"not yet available (service.projector: {error})"
    if not hasattr(projector, "rebuild") or not hasattr(projector, "PROJECTION_NAMES"):
        return "not yet available (service.projector has no rebuild or PROJECTION_NAMES)"
    return None


def _environment(url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLELOG_")}
    env |= {
        "PYTHONPATH": str(ROOT),
        "TABLELOG_DATABASE_URL": url,
        # The games may not be built-ins yet; naming a built-in again is harmless (it is served once).
        "TABLELOG_EXTRA_RULESETS": ",".join(GAME_MODULES.values()),
        "TABLELOG_LOG_FORMAT": "json",
    }
    return env


def _timed_process(args: list[str], env: dict[str, str]) -> tuple[float, int, int, str]:
    """Run `python -m service.cli ARGS`: wall seconds, peak resident KiB, exit code, stderr's tail."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "service.cli", *args],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert process.stderr is not None
    errors = process.stderr.read()  # read before waiting, so a chatty process never blocks
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    elapsed = time.perf_counter() - started
    return elapsed, int(usage.ru_maxrss), process.returncode, errors.decode(errors="replace")[-2000:]


def _load(url: str, games: list[Game], count: int) -> tuple[int, float]:
    """Store `count` games (cycling through `games` under new ids); the events stored and the seconds."""
    from service.store.postgres import PostgresStore

    store = PostgresStore(url, max_size=LOADERS)
    try:
        store.migrate()
        store.create_club(CLUB, "Bench club")
        recorder = Recorder(club_id=CLUB)
        encoded = [
            [NewEvent(type=event_tag(e), schema_version=schema_version(e), data=msgspec.json.encode(e)) for e in game]
            for game in games
        ]

        def store_game(number: int) -> int:
            game = games[number % len(games)]
            events = encoded[number % len(games)]
            game_id = f"g{number:06d}-{uuid.uuid4().hex[:6]}"
            head = game[0]
            record = GameRecord(
                game_id=game_id,
                club_id=CLUB,
                ruleset=head.ruleset,
                ruleset_version=head.ruleset_version,
                player_ids=tuple(p.player_id for p in head.setup.players),
                created_at=datetime.now(UTC),
            )
            for offset in range(0, len(events), MAX_BATCH):
                chunk = events[offset : offset + MAX_BATCH]
                last = offset + len(chunk) == len(events)
                store.append(
                    AppendRequest(
                        game_stream(CLUB, game_id),
                        chunk,
                        offset,
                        recorded_by=recorder,
                        game=record if offset == 0 else None,
                        progress=GameProgress(finished=True) if last else None,
                    )
                )
            return len(events)

        started = time.perf_counter()
        with ThreadPoolExecutor(LOADERS) as pool:
            stored = sum(pool.map(store_game, range(count)))
        return stored, time.perf_counter() - started
    finally:
        store.close()


def snapshot_problems(rulesets: list[Ruleset], games: dict[str, list[Game]]) -> dict[str, str]:
    """The rulesets whose states cannot be snapshotted (the replay-snapshot projection would stop on
    their games), with the reason: a finding for the ruleset's owner, reported rather than measured."""
    problems: dict[str, str] = {}
    for ruleset in rulesets:
        game = games[ruleset.name][0]
        try:
            snapshots_for(ruleset, game, every=max(1, len(game) - 1))
        except Exception as error:  # any failure to snapshot is the finding itself
            problems[ruleset.name] = f"{type(error).__name__}: {error}"
    return problems


def run(database_url: str, rulesets: list[Ruleset], games: dict[str, list[Game]], count: int) -> dict[str, Any]:
    """The rebuild section: every projection rebuilt over `count` stored games of the rulesets whose
    states can be snapshotted."""
    reason = not_available()
    if reason is not None:
        return {"status": reason, "rows": []}
    excluded = snapshot_problems(rulesets, games)
    chosen = [g for r in rulesets if r.name not in excluded for g in games[r.name]]
    if not chosen:
        return {"status": "no ruleset's games can be snapshotted", "rows": [], "excluded_rulesets": excluded}
    projector = importlib.import_module("service.projector")
    names: tuple[str, ...] = tuple(projector.PROJECTION_NAMES)
    rows: list[dict[str, Any]] = []
    with scratch_schema(database_url, "rebuild") as (_, url):
        events, load_seconds = _load(url, chosen, count)
        env = _environment(url)
        start_up, _, code, errors = _timed_process(["migrate"], env)
        if code != 0:
            return {"status": f"failed: tablelog migrate exited {code}: {errors}", "rows": []}
        for name in names:
            seconds, peak_kib, code, errors = _timed_process(["rebuild", name], env)
            row: dict[str, Any] = {
                "projection": name,
                "events": events,
                "seconds": round(seconds, 2),
                "peak_rss_mib": round(peak_kib / 1024, 1),
                "exit_code": code,
            }
            if code == 0:
                row["events_per_s"] = round(events / seconds, 1)
                row["events_per_s_without_start_up"] = round(events / max(seconds - start_up, 1e-6), 1)
            else:
                row["error"] = errors
            rows.append(row)
    ok = [r for r in rows if r["exit_code"] == 0]
    total_seconds = sum(r["seconds"] for r in rows)
    return {
        "status": "measured" if len(ok) == len(rows) else "some rebuilds failed",
        "games": count,
        "distinct_games": len(chosen),
        "rulesets": sorted({g[0].ruleset for g in chosen}),
        "excluded_rulesets": excluded,
        "events": events,
        "load_seconds": round(load_seconds, 1),
        "start_up_seconds": round(start_up, 2),
        "rows": rows,
        "all_projections_events_per_s": round(events / total_seconds, 1) if ok and len(ok) == len(rows) else None,
        "peak_rss_mib": max((r["peak_rss_mib"] for r in rows), default=0.0),
    }
