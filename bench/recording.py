"""Recording at the table (issue 12): how long a scorekeeper's tap takes to be acknowledged, and how long
the legal choices take to compute after each event. Target: p99 under 100 ms on these machines.

A real server (`uvicorn --factory service.app:app_factory`, one worker, SQLite, its own process) on
127.0.0.1; a signed-in page session (cookie and CSRF header, as the page sends them) records each event
of a recorded fixture game one by one through the recording page's endpoint, with an idempotency key
and the expected version. The time is the request's round trip, which includes the choices the page
shows next (computed by the server and sent with the acknowledgement). The server's CPU per tap is put
beside its CPU per API append of the same events to a game of its own (issue 32: at most twice). Then, in
this process, the
choices themselves are computed at every state of the same games with the look-ahead and with the
current state's choices only, side by side, so the look-ahead's share is a ratio of one run.

    .venv/bin/python -m bench.recording
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

from bench.common import median, percentile
from testkit.waiting import answers, wait_until

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = (
    ROOT / "tests/domain/milles_nautiques/fixtures/cards_run_out.jsonl",
    ROOT / "tests/domain/memoire44/fixtures/hedgerow_lane_axis_medal_victory.jsonl",
)
OPERATOR = "bench-operator"


def _times(samples: list[float]) -> dict[str, float]:
    return {
        "n": len(samples),
        "p50_ms": round(median(samples), 2),
        "p99_ms": round(percentile(samples, 0.99), 2),
        "max_ms": round(max(samples), 2),
    }


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(folder: str, port: int) -> subprocess.Popen[bytes]:
    env = os.environ | {
        "TABLELOG_DATABASE_URL": f"sqlite:///{Path(folder) / 'recording.db'}",
        "TABLELOG_OPERATOR_KEY": OPERATOR,
        "TABLELOG_LOG_LEVEL": "warning",
        "TABLELOG_LOG_FORMAT": "json",
    }
    command = [sys.executable, "-m", "uvicorn", "--factory", "service.app:app_factory", "--port", str(port)]
    return subprocess.Popen(
        [*command, "--host", "127.0.0.1", "--log-level", "warning"], env=env, stdout=subprocess.DEVNULL
    )


def _signed_in(client: httpx.Client) -> None:
    auth = {"Authorization": f"Bearer {OPERATOR}"}
    client.post("/clubs", json={"club_id": "bench", "name": "Bench"}, headers=auth).raise_for_status()
    made = client.post("/clubs/bench/keys", json={"name": "scorer", "scope": "record"}, headers=auth)
    token = made.json()["token"]
    client.headers["Authorization"] = f"Bearer {token}"
    form = client.get("/sign-in").text
    csrf = re.search(r'name="_csrf_token" value="([^"]+)"', form)
    assert csrf is not None
    signed = client.post("/sign-in", data={"key": token, "next": "", "_csrf_token": csrf.group(1)})
    assert signed.status_code in (200, 303), signed.text


def _cpu_seconds(pid: int) -> float:
    """The CPU time a process has used (Linux: user and system, from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _new_game(client: httpx.Client, lines: list[dict[str, Any]]) -> str:
    setup = lines[0]["setup"]
    for player in setup["players"]:
        client.post("/clubs/bench/players", json={"player_id": player["player_id"], "name": player["name"]})
    resources = {kind: {"resource_id": ref["resource_id"]} for kind, ref in setup["resources"].items()}
    created = client.post(
        "/clubs/bench/games",
        json={
            "ruleset": lines[0]["ruleset"],
            "players": [{"player_id": p["player_id"], "seat": p["seat"]} for p in setup["players"]],
            "variant": setup["variant"],
            "options": setup["options"],
            "resources": resources,
        },
    )
    assert created.status_code == 201, created.text
    return str(created.json()["game_id"])


def _api_round(client: httpx.Client, path: Path, server: int) -> float:
    """The server's CPU (ms) per API append of the fixture's events, one by one with a key, as the page
    sends them."""
    lines = [json.loads(line) for line in path.read_bytes().splitlines()]
    game_id = _new_game(client, lines)
    cpu = _cpu_seconds(server)
    for version, event in enumerate(lines[1:], start=1):
        answer = client.post(
            f"/clubs/bench/games/{game_id}/events",
            json={"expected_version": version, "events": [event]},
            headers={"Idempotency-Key": uuid.uuid4().hex},
        )
        assert answer.status_code == 201, answer.text
    return (_cpu_seconds(server) - cpu) * 1000 / (len(lines) - 1)


def _record_round(client: httpx.Client, path: Path, server: int) -> tuple[list[float], float]:
    """Each tap's round trip (ms), and the server's CPU (ms) per tap."""
    lines = [json.loads(line) for line in path.read_bytes().splitlines()]
    game_id = _new_game(client, lines)
    page = client.get(f"/club/bench/games/{game_id}/record")
    token = re.search(r'name="csrf-token" content="([^"]+)"', page.text)
    assert token is not None
    headers = {"x-csrftoken": token.group(1)}
    taps = []
    cpu = _cpu_seconds(server)
    for version, event in enumerate(lines[1:], start=1):
        started = time.perf_counter()
        answer = client.post(
            f"/club/bench/games/{game_id}/record/events",
            json={"expected_version": version, "events": [event]},
            headers=headers | {"Idempotency-Key": uuid.uuid4().hex},
        )
        taps.append((time.perf_counter() - started) * 1000)
        assert answer.status_code == 201, answer.text
    return taps, (_cpu_seconds(server) - cpu) * 1000 / len(taps)


def _choices_in_process(path: Path) -> dict[str, Any]:
    """The choices after each event, computed with the look-ahead and without, side by side."""
    from bench.games import bench_rulesets
    from domain.record import decoder, start
    from service.pages import recording

    lines = path.read_bytes().splitlines()
    ruleset = bench_rulesets().get(json.loads(lines[0])["ruleset"])
    read = decoder(ruleset)
    folded = start(ruleset, read.decode(lines[0]))
    names = {p.seat: p.name for p in folded.setup.players}
    ahead, now_only, sizes = [], [], []
    for line in lines[1:]:
        folded = folded.apply(read.decode(line))
        recording.DESCRIBED.clear()  # each state worked out anew: the look-ahead's own cost
        started = time.perf_counter()
        tables = recording.look_ahead(ruleset, names, folded.state)
        ahead.append((time.perf_counter() - started) * 1000)
        sizes.append(len(json.dumps([recording.msgspec.to_builtins(t) for t in tables])))
        saved = recording.LOOK_AHEAD_TABLES
        recording.LOOK_AHEAD_TABLES = 1
        try:
            recording.DESCRIBED.clear()
            started = time.perf_counter()
            recording.look_ahead(ruleset, names, folded.state)
            now_only.append((time.perf_counter() - started) * 1000)
        finally:
            recording.LOOK_AHEAD_TABLES = saved
    return {
        "with_look_ahead": _times(ahead),
        "current_state_only": _times(now_only),
        "ratio_p50": round(median(ahead) / median(now_only), 2),
        "bytes_p50": int(median([float(s) for s in sizes])),
        "bytes_max": max(sizes),
    }


def _hidden_hands(events: int = 120) -> dict[str, Any]:
    """Atlantic Storm with every hand dealt and drawn face down (issue 29) on a 200-card catalogue (40
    convoys, 160 force cards with the two storms): at each state of a two-player game, the choices the
    page gets (the current state's, and with the look-ahead), their weight, and the "+ add a card" answer
    for a play offered. Target: p99 under 50 ms, answers under 60 KB."""
    import random

    import msgspec

    from domain.atlantic_storm import RULESET
    from service.pages import recording
    from testkit.players.atlantic_storm import RandomGame, generated_catalogue

    game = RandomGame(random.Random(29), generated_catalogue(0, per_side=79), 2, "basic", hidden=1.0, audit=0)
    assert len(game.record.state.cards) == 200
    names = dict(enumerate(game.record.state.names))
    taps, now_only, more, sizes, offered = [], [], [], [], []
    for _ in range(events):
        if game.truth.state.phase == "over":
            break
        truth, seen = game.next_events()
        game.truth = game.truth.accept(truth)
        game.record = game.record.accept(seen)
        state = game.record.state
        recording.DESCRIBED.clear()  # each state worked out anew: the look-ahead's own cost
        started = time.perf_counter()
        tables = recording.look_ahead(RULESET, names, state)
        taps.append((time.perf_counter() - started) * 1000)
        sizes.append(len(msgspec.json.encode(tables)))
        saved = recording.LOOK_AHEAD_TABLES
        recording.LOOK_AHEAD_TABLES = 1
        try:
            recording.DESCRIBED.clear()
            started = time.perf_counter()
            recording.look_ahead(RULESET, names, state)
            now_only.append((time.perf_counter() - started) * 1000)
        finally:
            recording.LOOK_AHEAD_TABLES = saved
        listed = [c for s in tables[0].seats for c in s.choices]
        offered.append(len(listed))
        play = next((c for c in listed if c.more), None)
        if play is not None:
            event = msgspec.convert(play.event, RULESET.event_type)
            started = time.perf_counter()
            answer = recording.more_of(RULESET, state, event)
            more.append((time.perf_counter() - started) * 1000)
            sizes.append(len(msgspec.json.encode(answer)))
    return {
        "choices_per_tap": _times(taps),
        "current_state_only": _times(now_only),
        "add_a_card": _times(more) if more else {},
        "choices_offered_max": max(offered),
        "bytes_p50": int(median([float(s) for s in sizes])),
        "bytes_max": max(sizes),
    }


def run() -> dict[str, Any]:
    results: dict[str, Any] = {"load_average_at_start": os.getloadavg()[0]}
    with tempfile.TemporaryDirectory() as folder:
        port = _port()
        server = _serve(folder, port)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
                wait_until(
                    answers(f"http://127.0.0.1:{port}/health"), "the recording bench's server", 30, runner=server
                )
                _signed_in(client)
                for path in FIXTURES:
                    taps, tap_cpu = _record_round(client, path, server.pid)
                    api_cpu = _api_round(client, path, server.pid)
                    results[path.stem] = {
                        "tap_to_acknowledged": _times(taps),
                        "server_cpu_ms_per_tap": round(tap_cpu, 2),
                        "server_cpu_ms_per_api_append": round(api_cpu, 2),
                        "tap_over_api_append": round(tap_cpu / api_cpu, 2),
                    }
        finally:
            server.terminate()
            server.wait(10)
    for path in FIXTURES:
        results[path.stem]["choices"] = _choices_in_process(path)
    results["atlantic_storm_hidden_hands"] = _hidden_hands()
    return results


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
