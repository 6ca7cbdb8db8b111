"""Live spectating costs the server per event, not per spectator (issue 13 part 6): a game is followed once
per process, each new step is narrated once however many watch it, and a step reaches spectators because
the process heard of the append (PostgreSQL's NOTIFY, in process on SQLite), not because each stream polls
the store (the poll here is a minute, a fallback only)."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import service.usecases.live
from service.store.base import game_stream
from tests.service.api_support import Api
from tests.service.test_projector_support import append, correction, roll
from tests.service.test_sse import Spectator, check_steps, new_game, served

SLOW_POLL = {"live_poll_seconds": 60.0}


def test_each_step_is_narrated_once_for_five_spectators_and_reaches_them_without_polling(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    told: Counter[int] = Counter()
    original = service.usecases.live.tell

    def counted(*args: Any, **options: Any) -> Any:
        told[args[3]] += 1  # the version
        return original(*args, **options)

    monkeypatch.setattr(service.usecases.live, "tell", counted)
    with served(database_url, **SLOW_POLL) as site:
        token, game_id = new_game(site)
        append(site.api, token, game_id, [roll(0, 3)])
        spectators = [Spectator(site, token, game_id) for _ in range(5)]
        try:
            for spectator in spectators:
                assert [v for v, _ in spectator.take(2)] == [1, 2]
            sent = time.monotonic()
            append(site.api, token, game_id, [roll(1, 4)])
            append(site.api, token, game_id, [roll(0, 6), correction(1, "wrong die")])
            received = [spectator.take(3, timeout=5) for spectator in spectators]
            assert time.monotonic() - sent < 5  # heard, not polled (the poll is a minute)
            for steps in received:
                assert [v for v, _ in steps] == [3, 4, 5]
                assert steps[2][1]["step"]["text"] == "Correction: voids the last event (wrong die)."
                check_steps(site, game_id, steps, first=3)
            assert site.app.state.live._followers.keys() == {game_stream("c1", game_id)}  # one follower for the five
        finally:
            for spectator in spectators:
                spectator.close()
    assert told == {2: 1, 3: 1, 4: 1, 5: 1}, "a step was narrated more than once"


def test_a_step_goes_out_as_it_stood_and_a_later_joiner_sees_it_voided_by_the_correction(database_url: str) -> None:
    with served(database_url, **SLOW_POLL) as site:
        token, game_id = new_game(site)
        first = Spectator(site, token, game_id)
        try:
            assert [v for v, _ in first.take(1)] == [1]
            append(site.api, token, game_id, [roll(0, 3), roll(1, 5)])
            live = first.take(2, timeout=5)
            append(site.api, token, game_id, [correction(1)])
            live += first.take(1, timeout=5)
        finally:
            first.close()
        late = Spectator(site, token, game_id)
        try:
            joined = late.take(4, timeout=5)
        finally:
            late.close()
    # Step 3 went out before the correction came in, as it then stood; the correction is a step of its own.
    assert [data["step"]["voided"] for _, data in live] == [False, False, False]
    assert live[2][1]["step"]["type"] == "tablelog.correction"
    assert [(data["step"]["voided"], data["step"]["voided_by"]) for _, data in joined] == [
        (False, None),
        (False, None),
        (True, 4),
        (False, None),
    ]


@pytest.mark.postgres
def test_a_step_appended_through_another_process_reaches_a_spectator_by_notification(postgres_schema_url: str) -> None:
    with served(postgres_schema_url, **SLOW_POLL) as writer, served(postgres_schema_url, **SLOW_POLL) as watcher:
        token, game_id = new_game(writer)
        spectator = Spectator(watcher, token, game_id)
        try:
            assert [v for v, _ in spectator.take(1)] == [1]
            started = time.monotonic()
            append(writer.api, token, game_id, [roll(0, 2), roll(1, 2)])
            steps = spectator.take(2, timeout=5)
            assert time.monotonic() - started < 5
            check_steps(watcher, game_id, steps, first=2)
            # A spectator delay set through the writer holds the watcher's next steps back at once.
            delayed = writer.api.client.put(
                f"/clubs/c1/games/{game_id}/spectator-delay", json={"events": 1}, headers=Api.auth(token)
            )
            assert delayed.status_code == 200
            time.sleep(0.3)  # the watcher hears the delay before the next append
            append(writer.api, token, game_id, [roll(0, 1)])
            assert spectator.nothing_within(0.5), "a step came out though the delay holds it back"
            append(writer.api, token, game_id, [roll(1, 1)])
            assert [v for v, _ in spectator.take(1, timeout=5)] == [4]
        finally:
            spectator.close()


def test_an_append_nobody_announced_reaches_spectators_by_the_slow_poll(sqlite_path: Path) -> None:
    # Two workers on one SQLite file: the writer's process tells only its own streams; the watcher's finds
    # the steps when its follower looks at the store (once per game per poll, not once per stream).
    url = f"sqlite:///{sqlite_path}"
    with served(url, live_poll_seconds=0.3) as writer, served(url, live_poll_seconds=0.3) as watcher:
        token, game_id = new_game(writer)
        spectators = [Spectator(watcher, token, game_id) for _ in range(3)]
        try:
            for spectator in spectators:
                assert [v for v, _ in spectator.take(1)] == [1]
            reads = _count_reads(watcher, game_id)
            append(writer.api, token, game_id, [roll(0, 2)])
            for spectator in spectators:
                check_steps(watcher, game_id, spectator.take(1, timeout=5), first=2)
            time.sleep(1.0)
            # About one read per 0.3 s for the game, whatever the number of streams (three polling streams
            # would read about ten times a second).
            assert reads["count"] <= 8, reads
        finally:
            for spectator in spectators:
                spectator.close()


def _count_reads(site: Any, game_id: str) -> dict[str, int]:
    store = site.store
    original = store.read_stream
    reads = {"count": 0}

    def counted(stream_id: str, **options: Any) -> Any:
        if stream_id == game_id:
            reads["count"] += 1
        return original(stream_id, **options)

    store.read_stream = counted
    return reads


def test_waiting_streams_share_one_alarm_and_each_wakes_by_its_time_out_plus_the_grid() -> None:
    """A stream's time-out (keep-alive, poll, key check) is rounded up onto `WAKE_GRID` and the game's
    streams share the alarm there (a timer per stream cost a third of a delivery's CPU at 1,000 streams)."""
    import asyncio

    from service.usecases.live import WAKE_GRID, Follower
    from testkit.waiting import scaled

    async def scenario() -> tuple[int, float]:
        loop = asyncio.get_running_loop()
        follower = Follower(None, None, game_stream("c1", "g"), None, poll_seconds=60.0)  # type: ignore[arg-type]
        follower._read_at = time.monotonic()  # read just now: the poller's own poll is not due
        started = loop.time()
        waits = [asyncio.create_task(follower.wait(object(), 0.3)) for _ in range(200)]
        await asyncio.sleep(0)  # every stream has set its alarm
        alarms = len(follower._alarms)
        await asyncio.wait_for(asyncio.gather(*waits), timeout=10)
        return alarms, loop.time() - started

    alarms, waited = asyncio.run(scenario())
    assert 1 <= alarms <= 2  # one grid point (two if the 200 waits straddled one)
    assert 0.3 <= waited < 0.3 + WAKE_GRID + scaled(0.5), waited
