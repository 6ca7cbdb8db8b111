"""Two API nodes in network namespaces of their own (issue 15 part 3), each reaching the primary and the
replica over a veth pair (`testkit/cluster.py`): a game recorded through node A is replayed through
node B from the replica, a key revoked on A is refused at once on B, the replica lagging sends fresh reads
to the primary and says so on `/ready`, and killing node A mid-load loses no acknowledged event while
node B's projector takes the leases over."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import psycopg
import pytest

from testkit.cluster import ClusterUnavailable, Forwarder, Namespace, Node, Standby, with_address
from testkit.waiting import scaled
from tests.cluster.conftest import replay_paused, unavailable
from tests.conftest import fresh_schema
from tests.service.test_projector_support import roll

pytestmark = [pytest.mark.postgres, pytest.mark.e2e, pytest.mark.xdist_group("cluster")]

ROOT = Path(__file__).resolve().parents[2]
OPERATOR = "cluster-operator-key"
MAX_LAG = 2.0


@dataclass
class Cluster:
    a: Node
    b: Node
    schema_url: str

    def client(self, node: Node, token: str = OPERATOR) -> httpx.Client:
        return httpx.Client(base_url=node.base, headers={"Authorization": f"Bearer {token}"}, timeout=10)


def node_env(schema_url: str, namespace: Namespace, primary_port: int, replica_port: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLELOG_")}
    return env | {
        "PYTHONPATH": str(ROOT),
        "TABLELOG_DATABASE_URL": with_address(schema_url, namespace.host, primary_port),
        "TABLELOG_READ_DATABASE_URLS": with_address(schema_url, namespace.host, replica_port),
        "TABLELOG_OPERATOR_KEY": OPERATOR,
        "TABLELOG_EXTRA_RULESETS": "testkit.tally",
        "TABLELOG_LOG_FORMAT": "json",
        "TABLELOG_LOG_LEVEL": "warning",
        "TABLELOG_PROJECTOR_LEASE_SECONDS": "2",
        "TABLELOG_PROJECTOR_POLL_SECONDS": "0.2",
        "TABLELOG_READ_REPLICA_CHECK_SECONDS": "0.2",
        "TABLELOG_READ_REPLICA_MAX_LAG_SECONDS": str(MAX_LAG),
        "TABLELOG_READ_REPLICA_WAIT_SECONDS": "0.3",
        "TABLELOG_RATE_LIMIT_WRITES_PER_MINUTE": "0",
        "TABLELOG_RATE_LIMIT_READS_PER_MINUTE": "0",
    }


@pytest.fixture(scope="module")
def cluster(postgres_url: str, standby: Standby) -> Iterator[Cluster]:
    primary_port = urlsplit(postgres_url).port or 5432
    made: list[Any] = []
    try:
        with fresh_schema(postgres_url) as schema_url:
            try:
                spaces = [Namespace.create("a", 0), Namespace.create("b", 1)]
            except ClusterUnavailable as reason:
                unavailable(str(reason))
            made += spaces
            for space in spaces:
                made += [
                    Forwarder(space.host, primary_port, primary_port),
                    Forwarder(space.host, standby.port, standby.port),
                ]
            a, b = (Node(space, node_env(schema_url, space, primary_port, standby.port)) for space in spaces)
            made += [a, b]
            a.start()  # migrates the schema first
            b.start()
            yield Cluster(a=a, b=b, schema_url=schema_url)
    finally:
        for part in reversed(made):
            if isinstance(part, Node):
                part.stop()
            elif isinstance(part, Forwarder):
                part.close()
            else:
                part.delete()


def new_club(cluster: Cluster, club_id: str) -> str:
    """A club with players alain and bea, made through node A; its record key's token."""
    with cluster.client(cluster.a) as op:
        assert op.post("/clubs", json={"club_id": club_id, "name": club_id}).status_code == 201
        key = op.post(f"/clubs/{club_id}/keys", json={"name": "scorer"})
        assert key.status_code == 201, key.text
        token = str(key.json()["token"])
    with cluster.client(cluster.a, token) as club:
        for player in ("alain", "bea"):
            assert club.post(f"/clubs/{club_id}/players", json={"player_id": player, "name": player}).status_code == 201
    return token


def new_game(client: httpx.Client, club_id: str) -> str:
    body = {"ruleset": "tally", "players": [{"player_id": "alain"}, {"player_id": "bea"}], "options": {"target": 10**6}}
    created = client.post(f"/clubs/{club_id}/games", json=body)
    assert created.status_code == 201, created.text
    return str(created.json()["game_id"])


def replica_report(node: Node) -> dict[str, Any]:
    ready = httpx.get(f"{node.base}/ready", headers={"Authorization": f"Bearer {OPERATOR}"}, timeout=5)
    assert ready.status_code == 200, ready.text
    (report,) = ready.json()["checks"]["replicas"].values()
    return dict(report)


def wait_for(node: Node, status: str, timeout: float = 15.0) -> dict[str, Any]:
    deadline = time.monotonic() + scaled(timeout)
    while (report := replica_report(node))["status"] != status and time.monotonic() < deadline:
        time.sleep(0.1)
    return report


def test_a_game_recorded_on_node_a_is_replayed_on_node_b_from_the_replica_and_fresh_reads_skip_a_lagging_one(
    cluster: Cluster, standby: Standby
) -> None:
    token = new_club(cluster, "north")
    with cluster.client(cluster.a, token) as a, cluster.client(cluster.b, token) as b:
        game = new_game(a, "north")
        replay_path = f"/clubs/north/games/{game}/replay"
        for version in range(1, 6):
            appended = a.post(
                f"/clubs/north/games/{game}/events",
                json={"expected_version": version, "events": [roll((version - 1) % 2, version)]},
            )
            assert appended.status_code == 201, appended.text
        position = {"Tablelog-Position": appended.headers["Tablelog-Position"]}
        on_b = b.get(replay_path, headers=position)
        assert on_b.status_code == 200, on_b.text
        assert [step["version"] for step in on_b.json()["steps"]] == [1, 2, 3, 4, 5, 6]
        assert on_b.json() == a.get(replay_path, headers=position).json()
        assert wait_for(cluster.b, "in rotation")["status"] == "in rotation"

        with replay_paused(standby):
            appended = a.post(f"/clubs/north/games/{game}/events", json={"expected_version": 6, "events": [roll(1, 6)]})
            assert appended.status_code == 201, appended.text
            fresh = {"Tablelog-Position": appended.headers["Tablelog-Position"]}
            # Node B reads the replica, which has not replayed the last append: six steps, not seven ...
            assert len(b.get(replay_path).json()["steps"]) == 6
            # ... unless the client names the append's position: then the primary answers.
            assert len(b.get(replay_path, headers=fresh).json()["steps"]) == 7
            assert len(b.get(replay_path, params={"position": fresh["Tablelog-Position"]}).json()["steps"]) == 7
            # Past the lag allowed, node B takes the replica out of its rotation and says so.
            behind = wait_for(cluster.b, "behind")
            assert behind["status"] == "behind" and behind["replay_paused"] is True, behind
            assert behind["lag_seconds"] > MAX_LAG
            assert len(b.get(replay_path).json()["steps"]) == 7
        assert wait_for(cluster.b, "in rotation")["status"] == "in rotation"
        assert len(b.get(replay_path).json()["steps"]) == 7


def test_a_key_revoked_on_node_a_is_refused_at_once_on_node_b(cluster: Cluster) -> None:
    new_club(cluster, "south")
    with cluster.client(cluster.a) as op:
        key = op.post("/clubs/south/keys", json={"name": "reader", "scope": "read"}).json()
    with cluster.client(cluster.b, key["token"]) as reader:
        assert reader.get("/clubs/south/games").status_code == 200
        with cluster.client(cluster.a) as op:
            assert op.post(f"/clubs/south/keys/{key['key_id']}/revoke").status_code in (200, 201)
        refused = reader.get("/clubs/south/games")
        assert refused.status_code == 401, refused.text
        assert refused.headers["content-type"].startswith("application/problem+json")


def test_killing_node_a_mid_load_loses_no_acknowledged_event_and_node_b_takes_the_projector_over(
    cluster: Cluster,
) -> None:
    token = new_club(cluster, "east")
    with cluster.client(cluster.a, token) as a:
        games = [new_game(a, "east") for _ in range(4)]
    acknowledged: dict[str, dict[int, int]] = {game: {} for game in games}
    # Each game's last read-your-writes token (tokens are opaque, not ordered: a game's last one is its newest).
    latest: dict[str, str] = {}
    started = threading.Barrier(len(games) + 1)

    def write(game: str) -> None:
        with cluster.client(cluster.a, token) as client:
            started.wait()
            version = 1
            while True:
                face = 1 + version % 6
                try:
                    answer = client.post(
                        f"/clubs/east/games/{game}/events",
                        json={"expected_version": version, "events": [roll((version - 1) % 2, face)]},
                    )
                except httpx.HTTPError:
                    return  # the node is gone: whatever was not acknowledged may or may not be stored
                assert answer.status_code == 201, answer.text
                version += 1
                acknowledged[game][version] = face
                latest[game] = answer.headers["Tablelog-Position"]

    writers = [threading.Thread(target=write, args=(game,)) for game in games]
    for writer in writers:
        writer.start()
    started.wait()
    time.sleep(1.5)
    a_pid = cluster.a.process.pid if cluster.a.process else 0
    cluster.a.kill()
    for writer in writers:
        writer.join(timeout=30)
    assert sum(map(len, acknowledged.values())) > 20, "too little load reached node A before it was killed"

    with cluster.client(cluster.b, token) as b:
        for game in games:
            newest = {"Tablelog-Position": latest[game]} if game in latest else {}
            stored = b.get(f"/clubs/east/games/{game}/events", params={"limit": 1000}, headers=newest).json()["events"]
            versions = [event["version"] for event in stored]
            assert versions == list(range(1, len(versions) + 1)), "a gap or a duplicate in the record"
            faces = {event["version"]: event["data"].get("face") for event in stored}
            for version, face in acknowledged[game].items():
                assert faces.get(version) == face, f"acknowledged event {version} of {game} lost or changed"
            # At most the one append in flight when the node died may be stored unacknowledged.
            assert len(versions) - 1 <= len(acknowledged[game]) + 1
            again = b.post(
                f"/clubs/east/games/{game}/events",
                json={"expected_version": len(versions), "events": [roll((len(versions) - 1) % 2, 1)]},
            )
            assert again.status_code == 201, again.text

    # The projector ran under one lease per projection; A's leases lapse and node B's projector takes them.
    deadline = time.monotonic() + scaled(30)
    with psycopg.connect(cluster.schema_url, autocommit=True) as conn:
        while True:
            owners = dict(conn.execute("SELECT name, owner FROM projection_leases").fetchall())
            b_pid = str(cluster.b.process.pid if cluster.b.process else 0)
            if owners and all(owner.split(":")[1] == b_pid for owner in owners.values()):
                break
            assert time.monotonic() < deadline, f"node B never took the leases: {owners}"
            time.sleep(0.2)
    assert str(a_pid) != b_pid
    ready = httpx.get(f"{cluster.b.base}/ready", headers={"Authorization": f"Bearer {OPERATOR}"}, timeout=5).json()
    assert set(ready["checks"]["projections"]) == set(owners)
