"""The projector on both backends: every event applied exactly once (across rival runners, a killed
process and a restart), read models equal to a rebuild from zero and to a plain fold, lag on /ready."""

from __future__ import annotations

import dataclasses
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from litestar.testing import TestClient

from domain.record import decoder, fold
from domain.registry import Rulesets
from domain.ruleset import Viewer
from service.app import create_app
from service.logs import configure_logging
from service.projector import Games, Runner, projections, rebuild
from service.settings import Settings
from service.store import open_store
from service.store.base import GameFilter, Recorder, Store, game_stream
from service.usecases.games import GameRecords, NewGame, SeatSpec
from testkit import tally
from testkit.waiting import scaled
from tests.service.api_support import OPERATOR
from tests.service.test_projector_support import free_port
from tests.support.rulesets import RULESETS

OPERATOR_KEY = {"Authorization": f"Bearer {OPERATOR}"}

ROOT = Path(__file__).resolve().parents[2]
BY = Recorder(club_id="c1")
PLAYERS = ("alain", "bea", "cleo")


@pytest.fixture(autouse=True)
def logs() -> None:
    """Logs to this test's stderr: the logging set-up keeps the stream it was given, which may be an
    earlier test's captured stream, closed since."""
    configure_logging("json")


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    opened = open_store(database_url)
    opened.migrate()
    try:
        yield opened
    finally:
        opened.close()


def record_games(store: Store, games: int, *, seed: int, target: int = 30) -> int:
    """Play `games` tally games in batches of 1 to 6 events, with corrections along the way (some after
    a game finished, which reopens it): all to the end but the last, left in progress. Returns the
    last global position written."""
    records = GameRecords(store, RULESETS)
    if store.get_club("c1") is None:
        store.create_club("c1", "Club")
        for player in PLAYERS:
            store.create_player("c1", player, player.capitalize())
    rng = random.Random(seed)
    last = 0
    for number in range(games):
        seated = PLAYERS[: rng.choice((2, 3))]
        record, result = records.create_game(
            "c1",
            NewGame(
                ruleset="tally",
                players=[SeatSpec(player_id=p) for p in seated],
                options={"target": target},
                game_id=f"g{seed}-{number:03d}",
            ),
            BY,
        )
        reopened = False
        for batches in range(10_000):
            if number == games - 1 and batches == 3:
                break
            folded = records.folded(record)
            finished = tally.RULESET.result(folded.state, Viewer.public()).finished
            if finished and (reopened or rng.random() < 0.3):
                break
            batch: list[dict[str, Any]] = []
            if finished or (rng.random() < 0.05 and folded.effective_count >= 2):
                reopened = reopened or finished
                batch.append({"type": "tablelog.correction", "voids": rng.randint(1, 2), "reason": "misread die"})
            else:
                state = folded.state
                for _ in range(rng.randint(1, 6)):
                    if state.winner is not None:
                        break
                    event = tally.Rolled(seat=state.to_play, face=rng.randint(1, 6))
                    state = tally.RULESET.evolve(state, event)
                    batch.append(msgspec.to_builtins(event))
            result = records.append("c1", record.game_id, batch, folded.version, BY)
        last = max(last, *result.positions)
    return last


def drain(
    store: Store,
    *,
    until: int,
    runners: list[Runner] | None = None,
    rulesets: Rulesets = RULESETS,
    timeout: float = 60,
) -> None:
    """Run the projections (of the games in `rulesets`) until each has applied position `until` (PostgreSQL
    readers may wait for other tests' open transactions, so we wait for our own last position, not for an
    empty batch)."""
    runners = runners or [Runner(store, p, batch=200) for p in projections(store, rulesets, snapshot_every=5)]
    deadline = time.monotonic() + scaled(timeout)
    while any(store.checkpoint(r.name) < until for r in runners):
        assert time.monotonic() < deadline, "the projector did not catch up"
        if not any(r.step() for r in runners):
            time.sleep(0.05)
    for runner in runners:
        runner.release()


def read_models(store: Store) -> dict[str, Any]:
    """Every read-model row of the recorded games, comparable with ==."""
    games = store.list_games("c1", _all())
    summaries = store.game_summaries("c1", [g.game_id for g in games])
    return {
        "summaries": {g.game_id: msgspec.to_builtins(summaries.get(g.game_id)) for g in games},
        "changes": {g.game_id: msgspec.to_builtins(store.result_changes(g.stream_id)) for g in games},
        "snapshots": {
            g.game_id: [(s.version, s.ruleset_version, s.data) for s in store.snapshots(g.stream_id)] for g in games
        },
    }


def _all() -> GameFilter:
    return GameFilter(limit=500)


def test_every_event_is_applied_once_and_summaries_equal_a_plain_fold(store: Store) -> None:
    last = record_games(store, 6, seed=1)
    drain(store, until=last)
    games = store.list_games("c1", _all())
    summaries = store.game_summaries("c1", [g.game_id for g in games])
    assert len(summaries) == len(games) == 6
    assert any(g.finished for g in games) and not all(g.finished for g in games)
    for game in games:
        events = [decoder(tally.RULESET).decode(e.data) for e in store.read_stream(game.stream_id)]
        folded = fold(tally.RULESET, events)
        summary = summaries[game.game_id]
        assert summary.version == len(events)
        assert summary.applied == len(events), "an event was applied more or less than once"
        assert summary.outcome.result == tally.RULESET.result(folded.state, Viewer.public())
        assert summary.outcome.finished == game.finished
        # Finished when the finishing event was recorded, as the game's listing says too.
        assert summary.outcome.finished_at == game.finished_at
        if game.finished:
            assert summary.outcome.finished_at == store.read_stream(game.stream_id)[-1].recorded_at
        assert [p.player_id for p in summary.players] == list(game.player_ids)
        # A snapshot after every 5th event, each one the plain fold of the events before it.
        snapshots = store.snapshots(game.stream_id)
        assert [s.version for s in snapshots] == list(range(5, len(events) + 1, 5))


def test_a_correction_of_a_finished_game_is_recorded_with_the_outcome_before_and_after(store: Store) -> None:
    last = record_games(store, 8, seed=2)
    drain(store, until=last)
    changed = 0
    for game in store.list_games("c1", _all()):
        events = [decoder(tally.RULESET).decode(e.data) for e in store.read_stream(game.stream_id)]
        for change in store.result_changes(game.stream_id):
            changed += 1
            before = fold(tally.RULESET, events[: change.version - 1])
            after = fold(tally.RULESET, events[: change.version])
            assert change.before.result == tally.RULESET.result(before.state, Viewer.public())
            assert change.after.result == tally.RULESET.result(after.state, Viewer.public())
            assert change.before.finished and not change.after.finished  # the correction reopened it
            assert change.before.finished_at is not None and change.after.finished_at is None
    assert changed >= 2, "the seed should correct some finished games"


def test_a_rebuild_from_zero_gives_the_same_read_models(store: Store) -> None:
    last = record_games(store, 5, seed=3)
    drain(store, until=last)
    kept = read_models(store)
    seen: list[tuple[int, int]] = []
    for projection in projections(store, RULESETS, snapshot_every=5):
        reached = rebuild(store, projection, batch=50, progress=lambda done, total: seen.append((done, total)))
        assert reached >= last
    assert read_models(store) == kept
    assert seen and seen[-1][0] == seen[-1][1] == store.count_events()


def test_two_runners_started_at_once_do_not_both_run_a_projection(database_url: str, store: Store) -> None:
    last = record_games(store, 4, seed=4)
    other = open_store(database_url)
    try:
        first = Runner(store, Games(store, RULESETS), owner="first", batch=10)
        second = Runner(other, Games(other, RULESETS), owner="second", batch=10)
        assert first.step() is not None
        assert second.step() is None, "the second runner ran while the first held the lease"
        assert other.lease_owner("games") == "first"
        first.release()
        assert second.step() is not None, "a released lease is taken over at once"
        second.release()
    finally:
        other.close()
    drain(store, until=last)


def test_rival_runners_racing_without_leases_apply_each_event_exactly_once(database_url: str, store: Store) -> None:
    last = record_games(store, 6, seed=5)
    total = store.count_events()
    others = [open_store(database_url) for _ in range(2)]
    # A lease of 0 seconds runs out at once: both runners work on every batch, and only the
    # checkpoint's compare-and-set stops the slower one from applying it a second time.
    runners = [Runner(s, Games(s, RULESETS), owner=f"r{i}", batch=7, lease_seconds=0) for i, s in enumerate(others)]
    applied = [0, 0]
    errors: list[BaseException] = []

    def work(index: int) -> None:
        try:
            deadline = time.monotonic() + scaled(60)
            while others[index].checkpoint("games") < last and time.monotonic() < deadline:
                applied[index] += runners[index].step() or 0
        except BaseException as error:  # surfaced below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for other in others:
        other.close()
    assert not errors
    assert sum(applied) == total, f"applied {applied} of {total} events"
    summaries = store.game_summaries("c1", [g.game_id for g in store.list_games("c1", _all())])
    assert all(s.applied == s.version for s in summaries.values())


def _cli_env(database_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLELOG_")}
    return env | {
        "PYTHONPATH": str(ROOT),
        "TABLELOG_DATABASE_URL": database_url,
        "TABLELOG_OPERATOR_KEY": OPERATOR,
        "TABLELOG_EXTRA_RULESETS": "testkit.tally",
        "TABLELOG_LOG_FORMAT": "json",
        "TABLELOG_SNAPSHOT_EVERY": "5",
        "TABLELOG_PROJECTOR_LEASE_SECONDS": "1",
        "TABLELOG_PROJECTOR_POLL_SECONDS": "0.1",
    }


def _project(database_url: str, batch: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "service.cli", "project", "--batch", str(batch)],
        env=_cli_env(database_url),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def test_a_project_process_killed_mid_run_and_restarted_equals_a_rebuild(database_url: str, store: Store) -> None:
    last = record_games(store, 24, seed=6, target=60)
    killed = _project(database_url, batch=3)
    try:
        deadline = time.monotonic() + scaled(60)
        while store.checkpoint("games") == 0:
            assert killed.poll() is None, killed.stderr.read().decode() if killed.stderr else "died"
            assert time.monotonic() < deadline
            time.sleep(0.02)
    finally:
        killed.send_signal(signal.SIGKILL)
        killed.wait(10)
    halfway = store.checkpoints()
    assert min(halfway.values()) > 0 and max(halfway.values()) < last, "killed too late to test anything"
    restarted = _project(database_url, batch=50)
    try:
        deadline = time.monotonic() + scaled(90)
        while min(store.checkpoints().values()) < last:
            assert restarted.poll() is None, restarted.stderr.read().decode() if restarted.stderr else "died"
            assert time.monotonic() < deadline, "the restarted projector did not catch up"
            time.sleep(0.1)
    finally:
        restarted.send_signal(signal.SIGTERM)
        assert restarted.wait(20) == 0
    after_restart = read_models(store)
    summaries = store.game_summaries("c1", [g.game_id for g in store.list_games("c1", _all())])
    assert all(s.applied == s.version for s in summaries.values())
    done = subprocess.run(
        [sys.executable, "-m", "service.cli", "rebuild", "games"],
        env=_cli_env(database_url),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "100%" in done.stderr and "rebuilt" in done.stderr
    assert read_models(store) == after_restart


# Tally whose declared state type cannot hold its state: its snapshots cannot be made.
OPAQUE = dataclasses.replace(tally.RULESET, name="opaque-tally", state_type=dict)


def test_a_ruleset_whose_state_cannot_be_snapshotted_does_not_stall_the_snapshots_of_other_games(
    store: Store,
) -> None:
    rulesets = Rulesets([*RULESETS, OPAQUE])
    last = record_games(store, 1, seed=8)
    records = GameRecords(store, rulesets)
    records.create_game(
        "c1",
        NewGame(
            ruleset="opaque-tally", players=[SeatSpec(player_id="alain")], options={"target": 100}, game_id="opaque"
        ),
        BY,
    )
    for version in range(1, 12):
        last = max(
            last,
            *records.append("c1", "opaque", [msgspec.to_builtins(tally.Rolled(seat=0, face=1))], version, BY).positions,
        )
    drain(store, until=last, rulesets=rulesets)
    assert store.snapshots(game_stream("c1", "opaque")) == []
    assert store.snapshots(game_stream("c1", "g8-000")), "the tally game's snapshots were held up"
    assert store.game_summaries("c1", ["opaque"])["opaque"].version == 12


def test_ready_reports_each_projections_lag(database_url: str) -> None:
    settings = Settings(database_url=database_url, run_projector=False, log_format="json", operator_key=OPERATOR)
    with TestClient(create_app(settings, rulesets=RULESETS)) as client:
        store: Store = client.app.state.store
        last = record_games(store, 1, seed=7)
        deadline = time.monotonic() + scaled(30)
        while True:  # on PostgreSQL the head shows our events once older open transactions end
            checks = client.get("/ready", headers=OPERATOR_KEY).json()["checks"]["projections"]
            assert set(checks) == {"games"}
            assert all(p["checkpoint"] == 0 for p in checks.values())
            if all(p["lag"] > 0 for p in checks.values()):
                break
            assert time.monotonic() < deadline, checks
            time.sleep(0.05)
        drain(store, until=last)
        checks = client.get("/ready", headers=OPERATOR_KEY).json()["checks"]["projections"]
        assert all(p["checkpoint"] >= last and p["lag"] == 0 for p in checks.values())


def test_project_until_caught_up_stops_once_every_projection_has_applied_the_log(tmp_path: Path) -> None:
    # SQLite only: on PostgreSQL "caught up" means with what the read gate shows, which other tests'
    # open transactions may hold back.
    url = f"sqlite:///{tmp_path / 'tablelog.db'}"
    opened = open_store(url)
    opened.migrate()
    try:
        last = record_games(opened, 2, seed=9)
        done = subprocess.run(
            [sys.executable, "-m", "service.cli", "project", "--until-caught-up"],
            env=_cli_env(url),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert set(opened.checkpoints()) == {"games"}
        assert all(position == last for position in opened.checkpoints().values())
        unknown = subprocess.run(
            [sys.executable, "-m", "service.cli", "rebuild", "standings"],
            env=_cli_env(url),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert unknown.returncode == 2 and "the projections are games" in unknown.stderr
    finally:
        opened.close()


def test_a_server_with_two_workers_applies_each_event_once(database_url: str, store: Store) -> None:
    # Both worker processes start a projector on events already recorded: the lease lets one work
    # at a time, and every event is applied once.
    last = record_games(store, 8, seed=10)
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--workers", "2"],
        env=_cli_env(database_url),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + scaled(60)
        while True:
            assert server.poll() is None, "the server died"
            assert time.monotonic() < deadline, "the server's projector did not catch up"
            try:
                checks = httpx.get(f"http://127.0.0.1:{port}/ready", headers=OPERATOR_KEY, timeout=2).json()["checks"][
                    "projections"
                ]
                if all(p["checkpoint"] >= last for p in checks.values()):
                    break
            except (httpx.TransportError, KeyError):
                pass
            time.sleep(0.1)
        owner = store.lease_owner("games")
        assert owner is not None and owner.split(":")[1] != str(server.pid), "a worker, not the supervisor"
    finally:
        server.terminate()
        server.wait(30)
    summaries = store.game_summaries("c1", [g.game_id for g in store.list_games("c1", _all())])
    assert len(summaries) == 8 and all(s.applied == s.version for s in summaries.values())
