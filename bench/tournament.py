"""`python -m bench.tournament [--smoke] [--database-url URL]`, or `python -m bench --sections tournament`: a
club's largest evening (issue 28), pure CPU work, no database, but for the screens part.

- a Swiss of 1,000 entries in a two-sided game (every constraint on: no repeat, one bye, sides), played
  for nine rounds, each paired from the standings after the one before, each table given a game (a
  seeded win or draw);
- the tenth round paired from the standings after nine (target under 1 s), and the second round after
  one (the search is widest when most players are level);
- the standings after nine rounds: 4,500 games through the league's tie-break chain (points, Buchholz,
  Sonneborn-Berger, score) with every separation explained (target under 200 ms).
Each figure is the best of `--repeat` runs, wall and CPU time (the machine may be shared).
- `tournament_screens` (with a database; `screens`): 10, 100 and 1,000 screens open on a served tournament
  (one worker, raw asyncio SSE clients as `bench.live`'s), a table's result sent; the time until each screen
  receives its `update` (target p99 under 1 s at 1,000).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import msgspec

from bench.common import cpu_seconds, percentile, process_tree, scratch_schema
from bench.live import Stream
from bench.web import CLUB, Connection, prepare, running_server
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


def print_screens(results: dict[str, Any]) -> None:
    print(f"\nTournament screens (issue 28): a result reaching N open screens, {results['workers']} worker")
    for row in results["rows"]:
        met = "met" if row["p99_ms"] is not None and row["p99_ms"] < results["target_p99_ms"] else "MISSED"
        print(
            f"  {row['screens']:>5} screens: p50 {row['p50_ms']} ms, p99 {row['p99_ms']} ms"
            f" (target < {results['target_p99_ms']} ms: {met}), {row['missing']} missing,"
            f" server CPU {row['server_cpu_ms']} ms"
        )


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
    parser.add_argument("--database-url", help="PostgreSQL for the screens part (a served tournament); none: skipped")
    args = parser.parse_args(argv)
    results = run(args.smoke, args.repeat)
    if args.database_url:
        results["tournament_screens"] = screens(args.database_url, args.smoke)
    print(json.dumps(results, indent=2))
    print_tournament(results)
    if "tournament_screens" in results:
        print_screens(results["tournament_screens"])
    return 0


# -- the screens: a result reaching every open screen ---------------------------------------------------------
SCREENS_FULL = (10, 100, 1000)
SCREENS_SMOKE = (2, 5)
SCREENS_PER_LINK = 50
"""Screens opened on each share link (under its stream cap, 64 by default), as a hall's screens would be."""
ONE_ADDRESS = {"TABLELOG_MAX_STREAMS_PER_ADDRESS": "0", "TABLELOG_RATE_LIMIT_STREAMS_PER_MINUTE": "0"}
"""Every screen is opened from this one address: its own limits are lifted (0: off)."""


class ScreenStream(Stream):
    """One screen's stream (`LiveTournament`): opened at its first comment, each `update` timed."""

    def __init__(self, opened: asyncio.Future[None]) -> None:
        super().__init__({}, opened)
        self.updates: list[float] = []

    def line(self, line: bytes, now: float) -> None:
        if line.startswith(b": tablelog tournament") and not self.opened.done():
            self.opened.set_result(None)
        elif line == b"event: update":
            self.updates.append(now)


async def _screen(port: int, share: str) -> ScreenStream:
    loop = asyncio.get_running_loop()
    opened: asyncio.Future[None] = loop.create_future()
    _, stream = await loop.create_connection(lambda: ScreenStream(opened), "127.0.0.1", port)
    stream.transport.write(
        f"GET /share/{share}/screen/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    async with asyncio.timeout(60):
        await opened
    return stream


async def _screens_watch(server_pid: int, port: int, token: str, shares: list[str], screens: int) -> dict[str, Any]:
    streams: list[ScreenStream] = []
    for start in range(0, screens, 50):  # opened in groups, as the screens are switched on
        streams += await asyncio.gather(
            *(_screen(port, shares[i // SCREENS_PER_LINK]) for i in range(start, min(screens, start + 50)))
        )
    await asyncio.sleep(2.0)  # each screen's first update (what it shows at once) is past
    writer = await Connection.open(port, token)
    table = {"scores": [{"player_id": "alain", "score": 9}, {"player_id": "bea", "score": 3}]}
    cpu_before = cpu_seconds(process_tree(server_pid))
    sent = time.perf_counter()
    status, answer = await writer.request(
        "POST", f"/clubs/{CLUB}/tournaments/screens/rounds/1/tables/1/result", msgspec.json.encode(table)
    )
    if status != 201:
        raise RuntimeError(f"the result answered {status}: {answer[:200]!r}")
    deadline = sent + 30
    while any(not [t for t in s.updates if t > sent] for s in streams) and time.perf_counter() < deadline:
        await asyncio.sleep(0.02)
    cpu_used = cpu_seconds(process_tree(server_pid)) - cpu_before
    writer.close()
    latencies = [min(t for t in s.updates if t > sent) - sent for s in streams if any(t > sent for t in s.updates)]
    for stream in streams:
        stream.close()
    return {
        "screens": screens,
        "delivered": len(latencies),
        "missing": screens - len(latencies),
        "p50_ms": round(percentile(latencies, 0.5) * 1000, 1) if latencies else None,
        "p99_ms": round(percentile(latencies, 0.99) * 1000, 1) if latencies else None,
        "server_cpu_ms": round(cpu_used * 1000, 1),
    }


def screens(database_url: str, smoke: bool = False) -> dict[str, Any]:
    """A published round of two entries on one worker; for N open screens (share links), the time from
    sending a table's result to each screen receiving its `update` (p50, p99; target p99 under 1 s at
    1,000), and the server's CPU until the last one had it."""
    rows = []
    for count in SCREENS_SMOKE if smoke else SCREENS_FULL:
        with (
            scratch_schema(database_url, "screens") as (_, url),
            running_server(url, 1, "process", settings=ONE_ADDRESS) as server,
        ):
            token, _games = prepare(server.base, 0)
            auth = {"Authorization": f"Bearer {token}"}
            with httpx.Client(base_url=server.base, timeout=30, headers=auth) as http:
                body = {
                    "tournament_id": "screens",
                    "ruleset": "tally",
                    "system": "swiss",
                    "scoring": {"win_draw_loss": [2, 1, 0]},
                }
                http.post(f"/clubs/{CLUB}/tournaments", json=body).raise_for_status()
                for player in ("alain", "bea"):
                    http.post(
                        f"/clubs/{CLUB}/tournaments/screens/players", json={"player_id": player}
                    ).raise_for_status()
                http.post(f"/clubs/{CLUB}/tournaments/screens/rounds").raise_for_status()
                shares = [
                    http.post(
                        f"/clubs/{CLUB}/shares",
                        json={"kind": "tournament", "target_id": "screens", "name": f"hall {i}"},
                    ).json()["token"]
                    for i in range(-(-count // SCREENS_PER_LINK))
                ]
            rows.append(asyncio.run(_screens_watch(server.process.pid, server.port, token, shares, count)))
    return {"workers": 1, "rows": rows, "target_p99_ms": 1000}


if __name__ == "__main__":
    raise SystemExit(main())
