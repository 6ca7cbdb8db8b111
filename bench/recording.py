"""Recording at the table (issue 12): how long a scorekeeper's tap takes to be acknowledged, and how long
the legal choices take to compute after each event. Target: p99 under 100 ms on these machines.

A real server (`uvicorn --factory service.app:app_factory`, one worker, SQLite, its own process) on
127.0.0.1; a signed-in page session (cookie and CSRF header, as the page sends them) records each event
of a recorded fixture game one by one through the recording page's endpoint, with an idempotency key
and the expected version. The time is the request's round trip, which includes the choices the page
shows next (computed by the server and sent with the acknowledgement), and the answer's weight. The
server's CPU per tap is put beside its CPU per API append of the same events to a game of its own (issue
32: at most twice). Then, in this process, the choices at every state of the same games: the current
state's only, and with the look-ahead under the service's bounds (and any `--policy` given, side by side
in one run): as the taps meet it (each state's choices remembered from the look-ahead before, as the
server keeps them) and from nothing, its weight (and what a compact form would weigh), and how many of
the game's own next taps it answers in the page (the next choices shown at once; two and three taps
checked offline).

    .venv/bin/python -m bench.recording [--in-process] [--policy TABLES:CHOICES:DEPTH ...]
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
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

import httpx

from bench.common import median, percentile
from bench.web import THIS_CHECKOUT, Code
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


_SERVE = """
import sys, uvicorn
from service.pages import recording
recording.LOOK_AHEAD_TABLES, recording.LOOK_AHEAD_CHOICES, recording.LOOK_AHEAD_DEPTH = map(int, sys.argv[1:4])
uvicorn.run("service.app:app_factory", factory=True, host="127.0.0.1", port=int(sys.argv[4]), log_level="warning")
"""
"""The server under given look-ahead bounds (the service's own unless `--policy` asks for others)."""


def _serve(folder: str, port: int, policy: Policy, code: Code = THIS_CHECKOUT) -> subprocess.Popen[bytes]:
    """The recording server of `code` (this checkout, or `--http-baseline`'s) under `policy`."""
    env = os.environ | {
        "PYTHONPATH": str(code.tree),
        "TABLELOG_DATABASE_URL": f"sqlite:///{Path(folder) / 'recording.db'}",
        "TABLELOG_OPERATOR_KEY": OPERATOR,
        "TABLELOG_LOG_LEVEL": "warning",
        "TABLELOG_LOG_FORMAT": "json",
    }
    command = [code.python, "-c", _SERVE, *(str(n) for n in policy), str(port)]
    return subprocess.Popen(command, env=env, cwd=code.tree, stdout=subprocess.DEVNULL)


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


def _record_round(client: httpx.Client, path: Path, server: int) -> tuple[list[float], float, list[int]]:
    """Each tap's round trip (ms), the server's CPU (ms) per tap, and each answer's weight (bytes)."""
    lines = [json.loads(line) for line in path.read_bytes().splitlines()]
    game_id = _new_game(client, lines)
    page = client.get(f"/club/bench/games/{game_id}/record")
    token = re.search(r'name="csrf-token" content="([^"]+)"', page.text)
    assert token is not None
    headers = {"x-csrftoken": token.group(1)}
    taps, weights = [], []
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
        weights.append(len(answer.content))
    return taps, (_cpu_seconds(server) - cpu) * 1000 / len(taps), weights


class Policy(NamedTuple):
    """A look-ahead's bounds (`service.pages.recording`'s LOOK_AHEAD_TABLES, _CHOICES and _DEPTH)."""

    tables: int
    choices: int
    depth: int

    @classmethod
    def parse(cls, text: str) -> Policy:
        tables, choices, depth = (int(part) for part in text.split(":"))
        return cls(tables, choices, depth)

    def __str__(self) -> str:
        return f"{self.tables}:{self.choices}:{self.depth}"


def current() -> Policy:
    from service.pages import recording

    return Policy(recording.LOOK_AHEAD_TABLES, recording.LOOK_AHEAD_CHOICES, recording.LOOK_AHEAD_DEPTH)


@contextmanager
def _bounded(policy: Policy) -> Iterator[None]:
    from service.pages import recording

    saved = current()
    recording.LOOK_AHEAD_TABLES, recording.LOOK_AHEAD_CHOICES, recording.LOOK_AHEAD_DEPTH = policy
    try:
        yield
    finally:
        recording.LOOK_AHEAD_TABLES, recording.LOOK_AHEAD_CHOICES, recording.LOOK_AHEAD_DEPTH = saved


def _reach(tables: list[Any], coming: list[Any]) -> int:
    """How many of the `coming` events (as the page sends them) the look-ahead offers in turn: the first
    in the current table, the second in the table after it (the page showed it at once, with no answer
    awaited), and so on (without a connection, each is checked in the page)."""
    at: int | None = 0
    reached = 0
    for event in coming:
        if at is None:
            break
        found = next((c for s in tables[at].seats for c in s.choices if c.event == event), None)
        if found is None:
            break
        reached, at = reached + 1, found.then
    return reached


def _pooled_size(tables: list[Any]) -> int:
    """The look-ahead's weight were it sent in a compact form (a weighed option, not what the page gets):
    each distinct event, label and group once, a choice as its indices into them."""
    import msgspec

    pools: dict[str, dict[bytes, int]] = {"events": {}, "labels": {}, "groups": {}}

    def at(pool: str, value: Any) -> int:
        return pools[pool].setdefault(msgspec.json.encode(value), len(pools[pool]))

    packed = [
        [
            [
                s.seat,
                s.enumerable,
                [[at("events", c.event), at("labels", c.label), c.then, at("groups", c.group)] for c in s.choices],
            ]
            for s in table.seats
        ]
        for table in tables
    ]
    # Each pool a JSON array of its values: their text and a comma each.
    return len(msgspec.json.encode(packed)) + sum(len(v) + 1 for pool in pools.values() for v in pool)


def _look_aheads(ruleset: Any, names: dict[int, str], states: list[Any], coming: list[list[Any]]) -> dict[str, Any]:
    """The look-ahead at each of `states` under the module's bounds: as the taps meet it (each state's
    choices remembered from the look-aheads before, as the server keeps them: the look-ahead's cost in a
    tap) and from nothing (every state worked out anew: a page opened, a check of waiting events), its
    weight, and how far it answers the game's own next taps."""
    from service.pages import recording

    warm, cold, sizes, pooled, reach = [], [], [], [], []
    recording.DESCRIBED.clear()
    for state, next_events in zip(states, coming, strict=True):
        started = time.thread_time()
        tables = recording.look_ahead(ruleset, names, state)
        warm.append((time.thread_time() - started) * 1000)
        sizes.append(len(recording.msgspec.json.encode(tables)))
        pooled.append(_pooled_size(tables))
        reach.append(_reach(tables, next_events))
    for state in states:
        recording.DESCRIBED.clear()
        started = time.thread_time()
        recording.look_ahead(ruleset, names, state)
        cold.append((time.thread_time() - started) * 1000)
    taps = [r for r, c in zip(reach, coming, strict=True) if len(c) > 1]
    return {
        "as_tapped": _times(warm),
        "from_nothing": _times(cold),
        "bytes_p50": int(median([float(s) for s in sizes])),
        "bytes_max": max(sizes),
        "bytes_max_if_pooled": max(pooled),
        # Of the game's taps: the next one offered at once (no answer awaited), and three in a row offered
        # by the page alone (a Milles Nautiques draw, the play after it, the next draw, offline).
        "next_offered": round(sum(r >= 2 for r in taps) / len(taps), 3),
        "three_offered": round(sum(r >= 3 for r in taps) / len(taps), 3),
    }


def _choices_in_process(path: Path, policies: list[Policy]) -> dict[str, Any]:
    """The choices after each event of the fixture: the current state's only, and with the look-ahead
    under each of `policies`, side by side."""
    from bench.games import bench_rulesets
    from domain.record import decoder, start
    from service.pages import recording

    lines = path.read_bytes().splitlines()
    ruleset = bench_rulesets().get(json.loads(lines[0])["ruleset"])
    read = decoder(ruleset)
    folded = start(ruleset, read.decode(lines[0]))
    names = {p.seat: p.name for p in folded.setup.players}
    events = [read.decode(line) for line in lines[1:]]
    states = []
    for event in events:
        folded = folded.apply(event)
        states.append(folded.state)
    sent = [recording.msgspec.to_builtins(e) for e in events]
    coming = [sent[i + 1 : i + 4] for i in range(len(sent))]
    now_only = []
    with _bounded(Policy(1, 1, 1)):
        for state in states:
            recording.DESCRIBED.clear()
            started = time.thread_time()
            recording.look_ahead(ruleset, names, state)
            now_only.append((time.thread_time() - started) * 1000)
    results: dict[str, Any] = {"current_state_only": _times(now_only)}
    for policy in policies:
        with _bounded(policy):
            results[f"look_ahead {policy}"] = _look_aheads(ruleset, names, states, coming)
    return results


def _hidden_hands(policies: list[Policy], events: int = 120) -> dict[str, Any]:
    """Atlantic Storm with every hand dealt and drawn face down (issue 29) on a 200-card catalogue (40
    convoys, 160 force cards with the two storms): at each state of a two-player game, the choices the
    page gets (the current state's, and with the look-ahead under each of `policies`), their weight, and
    the "+ add a card" answer for a play offered. Target: p99 under 50 ms, answers under 60 KB."""
    import random

    import msgspec

    from domain.atlantic_storm import RULESET
    from service.pages import recording
    from testkit.players.atlantic_storm import RandomGame, generated_catalogue

    game = RandomGame(random.Random(29), generated_catalogue(0, per_side=79), 2, "basic", hidden=1.0, audit=0)
    assert len(game.record.state.cards) == 200
    names = dict(enumerate(game.record.state.names))
    states, sent = [], []
    for _ in range(events):
        if game.truth.state.phase == "over":
            break
        truth, seen = game.next_events()
        sent.append(msgspec.to_builtins(seen))
        game.truth = game.truth.accept(truth)
        game.record = game.record.accept(seen)
        states.append(game.record.state)
    coming = [sent[i + 1 : i + 4] for i in range(len(sent))]
    now_only, more, more_sizes, offered = [], [], [], []
    with _bounded(Policy(1, 1, 1)):
        for state in states:
            recording.DESCRIBED.clear()
            started = time.thread_time()
            tables = recording.look_ahead(RULESET, names, state)
            now_only.append((time.thread_time() - started) * 1000)
            listed = [c for s in tables[0].seats for c in s.choices]
            offered.append(len(listed))
            play = next((c for c in listed if c.more), None)
            if play is not None:
                event = msgspec.convert(play.event, RULESET.event_type)
                started = time.thread_time()
                answer = recording.more_of(RULESET, state, event)
                more.append((time.thread_time() - started) * 1000)
                more_sizes.append(len(msgspec.json.encode(answer)))
    results: dict[str, Any] = {
        "current_state_only": _times(now_only),
        "add_a_card": _times(more) | {"bytes_max": max(more_sizes)} if more else {},
        "choices_offered_max": max(offered),
    }
    for policy in policies:
        with _bounded(policy):
            results[f"look_ahead {policy}"] = _look_aheads(RULESET, names, states, coming)
    return results


def _served(policy: Policy, code: Code) -> dict[str, dict[str, Any]]:
    """Each fixture recorded by taps and by the API on a server of `code`, its figures by fixture."""
    figures: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as folder:
        port = _port()
        server = _serve(folder, port, policy, code)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
                wait_until(
                    answers(f"http://127.0.0.1:{port}/health"), "the recording bench's server", 30, runner=server
                )
                _signed_in(client)
                for path in FIXTURES:
                    taps, tap_cpu, weights = _record_round(client, path, server.pid)
                    api_cpu = _api_round(client, path, server.pid)
                    figures[path.stem] = {
                        "tap_to_acknowledged": _times(taps),
                        "server_cpu_ms_per_tap": round(tap_cpu, 2),
                        "server_cpu_ms_per_api_append": round(api_cpu, 2),
                        "tap_over_api_append": round(tap_cpu / api_cpu, 2),
                        "answer_bytes_p50": int(median([float(w) for w in weights])),
                        "answer_bytes_max": max(weights),
                    }
        finally:
            server.terminate()
            server.wait(10)
    return figures


def run(policies: list[Policy], served: bool = True, baseline: Code | None = None) -> dict[str, Any]:
    """The served figures under each policy (and, with `baseline`, the other checkout's under the service's
    own bounds, served after this one's: each tap's CPU also over the baseline's), then the in-process ones."""
    results: dict[str, Any] = {"load_average_at_start": os.getloadavg()[0], "look_ahead_bounds": str(current())}
    for path in FIXTURES:
        results[path.stem] = {}
    for policy in policies if served else []:
        for game, figures in _served(policy, THIS_CHECKOUT).items():
            results[game][f"served {policy}"] = figures
    if served and baseline is not None:
        for game, figures in _served(policies[0], baseline).items():
            results[game][f"baseline served {policies[0]}"] = figures | {"code": baseline.label}
            mine = results[game][f"served {policies[0]}"]
            mine["tap_over_baseline"] = round(mine["server_cpu_ms_per_tap"] / figures["server_cpu_ms_per_tap"], 2)
    for path in FIXTURES:
        results[path.stem]["choices"] = _choices_in_process(path, policies)
    results["atlantic_storm_hidden_hands"] = _hidden_hands(policies)
    results["load_average_at_end"] = os.getloadavg()[0]
    return results


def main(argv: list[str]) -> None:
    """`--policy TABLES:CHOICES:DEPTH` (repeated): the in-process look-aheads under each of these bounds
    as well as the service's own, side by side; `--in-process`: those only (no server)."""
    policies = [current()]
    for index, arg in enumerate(argv):
        if arg == "--policy":
            policies.append(Policy.parse(argv[index + 1]))
    print(json.dumps(run(list(dict.fromkeys(policies)), served="--in-process" not in argv), indent=2))


if __name__ == "__main__":
    main(sys.argv[1:])
