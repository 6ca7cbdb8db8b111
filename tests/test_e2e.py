"""End to end: the real `tablelog` command, as a club would run it."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import httpx
import pytest

from service import __version__
from testkit.waiting import answers, wait_until

ROOT = Path(__file__).resolve().parents[1]
OPERATOR = "e2e-operator-key"
pytestmark = pytest.mark.e2e


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def environment(database_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLELOG_")}
    env |= {
        "PYTHONPATH": str(ROOT),
        "TABLELOG_DATABASE_URL": database_url,
        "TABLELOG_OPERATOR_KEY": OPERATOR,
        "TABLELOG_EXTRA_RULESETS": "testkit.tally",
        "TABLELOG_LOG_FORMAT": "json",
    }
    return env


def tablelog(*args: str, env: dict[str, str], check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "service.cli", *args], env=env, cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    if check:
        assert done.returncode == 0, done.stderr
    return done


class Server(NamedTuple):
    base: str
    env: dict[str, str]
    process: subprocess.Popen[bytes]


@pytest.fixture
def server(database_url: str) -> Iterator[Server]:
    env = environment(database_url)
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--workers", "2"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,  # a pipe nobody reads would fill up and stop the workers
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until(answers(f"{base}/ready"), "tablelog serve --workers 2", runner=process)
        yield Server(base, env, process)
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_a_real_server_records_a_game_over_http_and_the_cli_exports_and_reimports_it(
    server: Server, tmp_path: Path
) -> None:
    base, env, _ = server
    op = {"Authorization": f"Bearer {OPERATOR}"}
    with httpx.Client(base_url=base, timeout=10) as http:
        assert http.get("/health").json() == {"status": "ok", "version": __version__, "checks": {}}
        assert http.post("/clubs", json={"club_id": "e2e", "name": "End to end"}, headers=op).status_code == 201
        token = http.post("/clubs/e2e/keys", json={"name": "scorer"}, headers=op).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        for player in ("alain", "bea"):
            http.post("/clubs/e2e/players", json={"player_id": player, "name": player.title()}, headers=auth)
        game = http.post(
            "/clubs/e2e/games",
            headers=auth,
            json={
                "ruleset": "tally",
                "players": [{"player_id": "alain"}, {"player_id": "bea"}],
                "options": {"target": 6},
            },
        ).json()
        game_id = game["game_id"]
        # Several appends, each served by whichever worker takes it.
        version = game["version"]
        for seat, face in [(0, 2), (1, 3), (0, 4)]:
            response = http.post(
                f"/clubs/e2e/games/{game_id}/events",
                headers=auth,
                json={"expected_version": version, "events": [{"type": "tally.rolled", "seat": seat, "face": face}]},
            )
            assert response.status_code == 201, response.text
            version = response.json()["last_version"]
        refused = http.post(
            f"/clubs/e2e/games/{game_id}/events",
            headers=auth,
            json={"expected_version": version, "events": [{"type": "tally.rolled", "seat": 1, "face": 1}]},
        )
        assert refused.status_code == 422 and refused.json()["rule_id"] == "T-3"
        result = http.get(f"/clubs/e2e/games/{game_id}/result", headers=auth).json()["result"]
        assert result["finished"] and result["winners"] == [0]

    exported = tmp_path / "game.jsonl"
    tablelog("export", game_id, "--club", "e2e", "-o", str(exported), env=env)
    lines = exported.read_text().splitlines()
    assert len(lines) == 4 and json.loads(lines[0])["type"] == "tablelog.game_started"
    imported = tablelog("import", str(exported), "--club", "e2e", "--game-id", "copy", env=env)
    assert "4 events" in imported.stdout
    with httpx.Client(base_url=base, timeout=10) as http:
        copy = http.get("/clubs/e2e/games/copy/result", headers=auth).json()["result"]
    assert copy == result

    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join([*lines[:2], lines[1]]) + "\n")  # the same roll twice: out of turn
    refused_import = tablelog("import", str(tampered), "--club", "e2e", env=env, check=False)
    assert refused_import.returncode == 1 and "T-1" in refused_import.stderr


def test_migrate_reports_what_it_applied(tmp_path: Path) -> None:
    env = environment(f"sqlite:///{tmp_path / 'club.db'}")
    assert "applied: 001_record" in tablelog("migrate", env=env).stdout
    assert "up to date" in tablelog("migrate", env=env).stdout


def _sockets_on(port: int, state: str) -> set[int]:
    """Inodes of the TCP sockets in `state` (a /proc/net/tcp code: 0A listening, 01 established) whose
    local port is `port`."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == state:
                    inodes.add(int(fields[9]))
    return inodes


def _socket_inodes_of(pid: int) -> set[int]:
    inodes: set[int] = set()
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except FileNotFoundError:  # the process ended between being listed and being read
        return inodes
    for fd in fds:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(int(target[8:-1]))
    return inodes


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's /proc")
def test_each_worker_listens_on_a_socket_of_its_own_so_connections_spread_over_the_workers(server: Server) -> None:
    """With one shared socket, the worker that wakes first accepted every waiting connection (14 of 16
    in bench/); SO_REUSEPORT sockets, one per worker, let the kernel spread them."""
    port = int(server.base.rsplit(":", 1)[1])

    def listening_workers() -> tuple[list[int], set[int]]:
        with open(f"/proc/{server.process.pid}/task/{server.process.pid}/children") as children:
            pids = [int(pid) for pid in children.read().split()]
        listening = _sockets_on(port, "0A")
        return [pid for pid in pids if _socket_inodes_of(pid) & listening], listening

    # The server answers as soon as one worker is up; the other may still be starting.
    wait_until(lambda: len(listening_workers()[0]) == 2, "the second worker's socket", runner=server.process)
    workers, listening = listening_workers()
    assert len(workers) == 2 and len(listening) == 2
    assert [len(_socket_inodes_of(pid) & listening) for pid in workers] == [1, 1]
    # 32 clients connecting at once, each answered: every worker holds some of the connections (with
    # a fair split the chance that one worker gets none is 2 in 4 billion).
    clients = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(32)]
    try:
        for client in clients:
            client.sendall(b"GET /health HTTP/1.1\r\nHost: test\r\n\r\n")
        for client in clients:
            assert client.recv(1024).startswith(b"HTTP/1.1 200")
        established = _sockets_on(port, "01")
        held = [len(_socket_inodes_of(pid) & established) for pid in workers]
        assert sum(held) == 32 and min(held) > 0, held
    finally:
        for client in clients:
            client.close()
