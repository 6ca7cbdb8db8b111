"""`/health` on a port of its own (service.http.liveness): answered from a thread while the event loop is
busy, 503 once the loop has not run for the setting's seconds, and served by `tablelog serve` beside the
main port (issue 25 part 1: a flood on the main port kept the probe waiting behind it)."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from service import __version__
from service.http.liveness import BEAT_SECONDS, HealthListener
from testkit.waiting import answers, scaled, wait_until
from tests.test_e2e import ROOT, environment, free_port


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    """An event loop running in a thread of its own, as a worker's runs beside the listener."""
    running = asyncio.new_event_loop()
    thread = threading.Thread(target=running.run_forever, daemon=True)
    thread.start()
    yield running
    running.call_soon_threadsafe(running.stop)
    thread.join(timeout=10)
    running.close()


def _listener(loop: asyncio.AbstractEventLoop, stalled_after: float) -> HealthListener:
    # The heartbeat is scheduled on the loop it beats with, as the lifespan does.
    made = asyncio.run_coroutine_threadsafe(_make(loop, stalled_after), loop)
    return made.result(timeout=scaled(10)).start()


async def _make(loop: asyncio.AbstractEventLoop, stalled_after: float) -> HealthListener:
    return HealthListener("127.0.0.1", 0, loop, stalled_after)


def test_the_health_port_answers_while_the_loop_is_busy_and_503_once_it_has_stalled(
    loop: asyncio.AbstractEventLoop,
) -> None:
    stalled_after = 4 * BEAT_SECONDS
    listener = _listener(loop, stalled_after)
    base = f"http://127.0.0.1:{listener.port}"
    try:
        ok = httpx.get(f"{base}/health", timeout=scaled(5))
        assert ok.status_code == 200 and ok.json() == {"status": "ok", "version": __version__, "checks": {}}
        assert ok.headers["content-type"] == "application/json"
        blocked = threading.Event()

        def block() -> None:  # a handler that never gives the loop back, for a while
            blocked.set()
            time.sleep(stalled_after + scaled(1))

        loop.call_soon_threadsafe(block)
        assert blocked.wait(timeout=scaled(5))
        started = time.monotonic()
        busy = httpx.get(f"{base}/health", timeout=scaled(5))
        assert busy.status_code == 200, busy.text  # busy is not dead: answered while the loop is held
        assert time.monotonic() - started < stalled_after
        wait_until(answers(f"{base}/health", 503), "the stalled loop reported", seconds=stalled_after + 5)
        stalled = httpx.get(f"{base}/health", timeout=scaled(5))
        if stalled.status_code == 503:  # else the loop came back between the two looks
            body = stalled.json()
            # Past the bound when answered, told to a tenth of a second (2.04 s reads 2.0).
            assert body["status"] == "stalled" and body["checks"]["loop_idle_s"] >= round(stalled_after, 1)
        wait_until(answers(f"{base}/health"), "the loop beating again", seconds=stalled_after + 10)
        other = httpx.get(f"{base}/ready", timeout=scaled(5))
        assert other.status_code == 404 and "/health only" in other.json()["detail"]
    finally:
        listener.stop()
    with pytest.raises(httpx.TransportError):
        httpx.get(f"{base}/health", timeout=2)


def test_a_half_sent_request_does_not_hold_the_health_port(loop: asyncio.AbstractEventLoop) -> None:
    listener = _listener(loop, 10.0)
    try:
        with socket.create_connection(("127.0.0.1", listener.port)) as idle:
            idle.sendall(b"GET /health HTTP/1.1\r\n")  # and never the rest
            started = time.monotonic()
            answered = httpx.get(f"http://127.0.0.1:{listener.port}/health", timeout=scaled(10))
            assert answered.status_code == 200
            # A thread per connection: the half-sent one holds only its own.
            assert time.monotonic() - started < scaled(1)
    finally:
        listener.stop()


def test_serve_answers_health_on_its_health_port_from_every_worker_and_says_when_the_port_is_taken(
    tmp_path: Path,
) -> None:
    port, health_port = free_port(), free_port()
    env = environment(f"sqlite:///{tmp_path / 'tablelog.db'}")
    serve = [sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--health-port", str(health_port)]
    log = tmp_path / "serve.log"
    with log.open("wb") as written:
        process = subprocess.Popen([*serve, "--workers", "2"], env=env, cwd=ROOT, stderr=written)
    try:
        wait_until(answers(f"http://127.0.0.1:{port}/ready"), "tablelog serve --health-port", runner=process)
        wait_until(answers(f"http://127.0.0.1:{health_port}/health"), "the health port", runner=process)
        # Each probe on a connection of its own: the kernel hands them to either worker.
        for _ in range(6):
            probe = httpx.get(f"http://127.0.0.1:{health_port}/health", timeout=scaled(5))
            assert probe.json() == {"status": "ok", "version": __version__, "checks": {}}
        taken = subprocess.run(
            [*serve[:4], "--port", str(free_port()), "--health-port", str(health_port)],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=scaled(60),
        )
        assert taken.returncode == 1
        assert f"127.0.0.1:{health_port} is already in use" in taken.stderr and "--health-port" in taken.stderr
    finally:
        process.terminate()
        process.wait(timeout=scaled(30))
    logged = log.read_text()
    assert logged.count('"event":"health.listening"') == 2, logged[-3000:]  # one listener per worker
