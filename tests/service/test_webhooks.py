"""Webhooks, the club export over HTTP and the change feed (issue 30 parts 3 and 4), on both databases,
with a real receiver on loopback: each event once and in order, signed as Standard Webhooks says (checked
here with nothing but `hmac`), a refusing receiver tried again with a growing back-off then turned off,
two workers never sending one message twice; URLs the server must not call refused with nothing stored."""

from __future__ import annotations

import base64
import hashlib
import hmac
import http.server
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import msgspec
import pytest
from litestar.testing import TestClient
from prometheus_client.parser import text_string_to_metric_families

from service.app import create_app
from service.settings import Settings
from service.store import open_store
from service.usecases.club_export import ClubExport, export_club
from service.usecases.webhooks import Deliverer
from testkit.waiting import answers, wait_until
from tests.service.api_support import OPERATOR, Api
from tests.service.test_projector_support import append, correction, roll
from tests.service.test_sse import served
from tests.support.rulesets import RULESETS
from tests.test_e2e import OPERATOR as E2E_OPERATOR
from tests.test_e2e import ROOT, environment, free_port


class Receiver:
    """An HTTP server on 127.0.0.1 that keeps every request it gets and answers `status`."""

    def __init__(self) -> None:
        self.requests: list[tuple[dict[str, str], bytes]] = []
        self.status = 204
        self.pause = 0.0
        self.hold: Callable[[int], object] = lambda count: None
        """Called with each request's number (from 1) before it is answered; it may wait."""
        received = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["content-length"]))
                time.sleep(received.pause)
                received.requests.append(({k.lower(): v for k, v in self.headers.items()}, body))
                received.hold(len(received.requests))
                self.send_response(received.status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def bodies(self) -> list[dict[str, Any]]:
        return [msgspec.json.decode(body) for _, body in self.requests]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    made = Receiver()
    made.thread.start()
    try:
        yield made
    finally:
        made.server.shutdown()
        made.server.server_close()


@contextmanager
def app(database_url: str, **settings: Any) -> Iterator[Api]:
    base = Settings(
        database_url=database_url,
        operator_key=OPERATOR,
        log_format="json",
        run_projector=False,
        webhook_poll_seconds=0.05,
        webhook_refuse_private_addresses=False,
    )
    with TestClient(create_app(msgspec.structs.replace(base, **settings), rulesets=RULESETS)) as client:
        yield Api(client)


def register(api: Api, token: str, url: str, kinds: list[str], webhook_id: str = "results") -> dict[str, Any]:
    made = api.client.post(
        "/clubs/c1/webhooks", json={"webhook_id": webhook_id, "url": url, "kinds": kinds}, headers=api.auth(token)
    )
    assert made.status_code == 201, made.text
    return dict(made.json())


def verified(headers: dict[str, str], body: bytes, secret: str) -> bool:
    """The receiver's check, as the guide shows it (docs/how-to/webhooks.md)."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{headers['webhook-id']}.{headers['webhook-timestamp']}.".encode() + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    given = [part.partition(",")[2] for part in headers["webhook-signature"].split()]
    return abs(time.time() - int(headers["webhook-timestamp"])) < 300 and any(
        hmac.compare_digest(expected, signature) for signature in given
    )


def delivered_attempts(api: Api) -> float:
    """What `/metrics` counts of delivered webhook attempts (this process's, since it started)."""
    scraped = api.client.get("/metrics", headers=api.auth(OPERATOR))
    assert scraped.status_code == 200, scraped.text
    return sum(
        sample.value
        for family in text_string_to_metric_families(scraped.text)
        for sample in family.samples
        if sample.name == "tablelog_webhook_attempts_total" and sample.labels.get("outcome") == "delivered"
    )


def test_a_receiver_gets_each_event_once_in_order_signed(database_url: str, receiver: Receiver) -> None:
    with app(database_url, metrics=True) as api:
        counted = delivered_attempts(api)
        token = api.club("c1")
        api.players("c1", token, "alain", "bea")
        made = register(api, token, receiver.url, ["game.event", "game.finished"])
        secret = made["secret"]
        assert secret.startswith("whsec_") and made["webhook"]["enabled"] is True
        game = api.tally_game("c1", token)
        append(api, token, game, [roll(0, 6), roll(1, 2)])
        append(api, token, game, [roll(0, 6)])
        wait_until(lambda: len(receiver.requests) >= 5, "five messages delivered", 30, interval=0.05)
        time.sleep(0.3)  # a message sent twice would come now
        bodies = receiver.bodies()
        assert [(b["type"], b["data"]["version"]) for b in bodies] == [
            ("game.event", 1),
            ("game.event", 2),
            ("game.event", 3),
            ("game.event", 4),
            ("game.finished", 4),
        ]
        assert all(verified(headers, body, secret) for headers, body in receiver.requests)
        assert not verified(receiver.requests[0][0], receiver.requests[0][1] + b" ", secret)
        assert len({headers["webhook-id"] for headers, _ in receiver.requests}) == 5
        finished = bodies[-1]
        assert finished["club_id"] == "c1" and finished["data"]["game_id"] == game
        assert finished["data"]["finished"] is True and finished["data"]["result"]["finished"] is True
        assert bodies[1]["data"]["step"]["type"] == "tally.rolled" and bodies[1]["data"]["step"]["text"]
        assert "data" not in bodies[1]["data"] or bodies[1]["data"]["data"] is None  # never the raw event
        log = api.client.get("/clubs/c1/webhooks/results/deliveries", headers=api.auth(token))
        assert log.status_code == 200, log.text
        rows = log.json()["deliveries"]
        assert len(rows) == 5 and {(r["status"], r["attempts"], r["status_code"]) for r in rows} == {
            ("delivered", 1, 204)
        }
        assert rows[0]["kind"] == "game.finished" and "position" not in rows[0]
        assert delivered_attempts(api) - counted == 5
        # Sent again by hand from the second message: it and every later one, each with its own id again.
        first_ids = [headers["webhook-id"] for headers, _ in receiver.requests]
        resent = api.client.post(
            "/clubs/c1/webhooks/results/resend", json={"delivery_id": first_ids[1]}, headers=api.auth(token)
        )
        assert resent.status_code == 200, resent.text
        wait_until(lambda: len(receiver.requests) >= 9, "four messages sent again", 30, interval=0.05)
        assert [headers["webhook-id"] for headers, _ in receiver.requests[5:]] == first_ids[1:]
        again = api.client.get("/clubs/c1/webhooks/results/deliveries", headers=api.auth(token)).json()
        assert sorted(r["attempts"] for r in again["deliveries"]) == [1, 2, 2, 2, 2]
        unknown = api.client.post(
            "/clubs/c1/webhooks/results/resend", json={"delivery_id": "msg_nothing"}, headers=api.auth(token)
        )
        assert unknown.status_code == 404 and "delivery" in unknown.json()["title"]
        listed = api.client.get("/clubs/c1/webhooks", headers=api.auth(token)).json()
        assert [w["webhook_id"] for w in listed] == ["results"] and "secret" not in listed[0]


def test_a_refusing_receiver_is_tried_again_later_and_later_then_turned_off(
    database_url: str, receiver: Receiver
) -> None:
    receiver.status = 500
    with app(database_url, run_webhooks=False) as api:
        token = api.club("c1")
        api.players("c1", token, "alain", "bea")
        register(api, token, receiver.url, ["game.event"])
        append(api, token, api.tally_game("c1", token), [roll(0, 3)])
        now = [1_000_000_000.0]
        worker = Deliverer(
            api.app.state.store, RULESETS, retry_seconds=100, max_attempts=3, refuse_private=False, clock=lambda: now[0]
        )
        try:

            def hook() -> dict[str, Any]:
                return dict(api.client.get("/clubs/c1/webhooks/results", headers=api.auth(token)).json())

            waits = []
            for attempt in (1, 2):
                worker.step()
                assert len(receiver.requests) == attempt
                state = hook()
                assert state["failures"] == attempt and state["enabled"] is True
                due = api.app.state.store.get_webhook("c1", "results").next_attempt_at
                waits.append(due - now[0])
                now[0] = due - 1
                assert worker.step() == 0 and len(receiver.requests) == attempt  # not due yet
                now[0] = due
            assert 100 <= waits[0] <= 120 and 200 <= waits[1] <= 240  # doubling
            worker.step()
            state = hook()
            assert state["enabled"] is False and "3 failed attempts" in state["disabled_reason"]
            assert "HTTP 500" in state["disabled_reason"]
            now[0] += 10_000
            worker.step()
            assert len(receiver.requests) == 3  # off: not tried again
            assert len({headers["webhook-id"] for headers, _ in receiver.requests}) == 1  # one message, retried
            rows = api.client.get("/clubs/c1/webhooks/results/deliveries", headers=api.auth(token)).json()
            (row,) = rows["deliveries"]
            assert (row["status"], row["attempts"], row["status_code"]) == ("failed", 3, 500)
            # Mended and turned on again: the same message, delivered.
            receiver.status = 200
            turned = api.client.patch("/clubs/c1/webhooks/results", json={"enabled": True}, headers=api.auth(token))
            assert turned.status_code == 200 and turned.json()["enabled"] is True and turned.json()["failures"] == 0
            worker.step()
            assert len(receiver.requests) == 5 and receiver.requests[3][0]["webhook-id"] == row["delivery_id"]
            assert [b["data"]["version"] for b in receiver.bodies()] == [1, 1, 1, 1, 2]
            rows = api.client.get("/clubs/c1/webhooks/results/deliveries", headers=api.auth(token)).json()
            assert [(r["status"], r["attempts"]) for r in rows["deliveries"]] == [("delivered", 1), ("delivered", 4)]
        finally:
            worker.close()


def test_two_workers_never_send_one_message_twice(database_url: str, receiver: Receiver) -> None:
    receiver.pause = 0.01
    with app(database_url, run_webhooks=False) as api:
        token = api.club("c1")
        api.players("c1", token, "alain", "bea")
        register(api, token, receiver.url, ["game.event"])
        games = [api.tally_game("c1", token, options={"target": 1000}) for _ in range(2)]
        for game in games:
            append(api, token, game, [roll(seat % 2, 1) for seat in range(8)])
        stores = [open_store(database_url, pool_size=2) for _ in range(2)]
        workers = [Deliverer(store, RULESETS, batch=5, refuse_private=False) for store in stores]
        done = threading.Event()

        def work(worker: Deliverer) -> None:
            while not done.is_set():
                worker.step()

        threads = [threading.Thread(target=work, args=(w,)) for w in workers]
        try:
            for thread in threads:
                thread.start()
            wait_until(lambda: len(receiver.requests) >= 18, "18 messages delivered", 60, interval=0.05)
            time.sleep(0.3)
        finally:
            done.set()
            for thread in threads:
                thread.join(30)
            for worker, store in zip(workers, stores, strict=True):
                worker.close()
                store.close()
        ids = [headers["webhook-id"] for headers, _ in receiver.requests]
        assert len(ids) == 18 and len(set(ids)) == 18
        for game in games:
            versions = [b["data"]["version"] for b in receiver.bodies() if b["data"]["game_id"] == game]
            assert versions == list(range(1, 10))


REFUSED: list[tuple[dict[str, Any], int, str]] = [
    ({"url": "ftp://example.org/hook", "kinds": ["game.event"]}, 422, "url"),
    ({"url": "http://127.0.0.1:9/hook", "kinds": ["game.event"]}, 422, "url"),
    ({"url": "http://10.1.2.3/hook", "kinds": ["game.event"]}, 422, "url"),
    ({"url": "http://[::1]/hook", "kinds": ["game.event"]}, 422, "url"),
    ({"url": "http://user:pw@example.org/hook", "kinds": ["game.event"]}, 422, "url"),
    ({"url": "https://example.org/hook", "kinds": ["game.everything"]}, 400, "kinds"),
    ({"url": "https://example.org/hook", "kinds": []}, 400, "kinds"),
    ({"url": "https://example.org/hook", "kinds": ["game.event"], "secret": "hunter2"}, 422, "secret"),
    ({"url": "x" * 2001, "kinds": ["game.event"]}, 400, "url"),
]


def test_a_webhook_the_server_must_not_call_is_refused_and_nothing_stored(database_url: str) -> None:
    # The default settings: private and loopback addresses refused.
    with app(database_url, webhook_refuse_private_addresses=True, run_webhooks=False) as api:
        token = api.club("c1")
        for body, status, field in REFUSED:
            refused = api.client.post("/clubs/c1/webhooks", json={"webhook_id": "w", **body}, headers=api.auth(token))
            assert refused.status_code == status, (body, refused.text)
            problem = refused.json()
            assert refused.headers["content-type"].startswith("application/problem+json")
            assert field in refused.text and problem["detail"], body
        assert api.client.get("/clubs/c1/webhooks", headers=api.auth(token)).json() == []


def test_the_feed_tells_the_club_s_events_a_page_at_a_time_in_public(database_url: str) -> None:
    with app(database_url, run_webhooks=False) as api:
        token = api.club("c1")
        api.players("c1", token, "alain", "bea")
        other = api.club("c2")
        api.players("c2", other, "alain", "bea")
        game = api.tally_game("c1", token)
        append(api, token, game, [roll(0, 6), roll(1, 2), roll(0, 5), correction(1, "misread"), roll(0, 6)])
        append(api, other, api.tally_game("c2", other), [roll(0, 1)], club_id="c2")

        def visible() -> int:
            return len(api.client.get("/clubs/c1/feed", headers=api.auth(token)).json()["events"])

        # On PostgreSQL a reader of the global order waits for older transactions (other tests') to end.
        wait_until(lambda: visible() == 6, "the club's six events visible", 60, interval=0.05)
        seen: list[dict[str, Any]] = []
        after: str | None = None
        pages = 0
        while True:
            params: dict[str, Any] = {"limit": 2} | ({"after": after} if after else {})
            page = api.client.get("/clubs/c1/feed", params=params, headers=api.auth(token))
            assert page.status_code == 200, page.text
            body = page.json()
            seen.extend(body["events"])
            after = body["next"]
            pages += 1
            if not body["more"]:
                break
        assert pages == 4 and [e["version"] for e in seen] == [1, 2, 3, 4, 5, 6]
        assert {e["game_id"] for e in seen} == {game} and {e["stream"] for e in seen} == {"game"}
        assert all(e["data"] is None and e["step"]["text"] for e in seen)
        corrected = seen[4]
        assert corrected["type"] == "tablelog.correction" and corrected["voided"] == [4]
        assert corrected["result"]["finished"] is False
        assert seen[5]["finished"] is True and seen[5]["result"]["finished"] is True
        # The same page as JSON Lines: one event a line, each with the point to go on from after it.
        lines = api.client.get("/clubs/c1/feed", headers=api.auth(token) | {"Accept": "application/x-ndjson"})
        assert lines.headers["content-type"].startswith("application/x-ndjson")
        rows = [json.loads(line) for line in lines.text.splitlines()]
        assert [row["event"] for row in rows] == seen
        resumed = api.client.get("/clubs/c1/feed", params={"after": rows[3]["next"]}, headers=api.auth(token)).json()
        assert resumed["events"] == seen[4:]
        # Nothing new: the same point again; a new event: only it.
        again = api.client.get("/clubs/c1/feed", params={"after": after}, headers=api.auth(token)).json()
        assert again["events"] == [] and again["more"] is False
        second = api.tally_game("c1", token)
        wait_until(lambda: visible() == 7, "the new game visible", 60, interval=0.05)
        newer = api.client.get("/clubs/c1/feed", params={"after": again["next"]}, headers=api.auth(token)).json()
        assert [(e["game_id"], e["version"]) for e in newer["events"]] == [(second, 1)]
        # Another club's token, or a made-up one, is refused by name.
        foreign = api.client.get("/clubs/c2/feed", params={"after": after}, headers=api.auth(other))
        assert foreign.status_code == 400 and foreign.json()["field"] == "after"
        made_up = api.client.get("/clubs/c1/feed", params={"after": "12"}, headers=api.auth(token))
        assert made_up.status_code == 400 and made_up.json()["field"] == "after"
        spectate = api.client.post("/clubs/c1/keys", json={"name": "tv", "scope": "spectate"}, headers=api.auth(token))
        watcher = spectate.json()["token"]
        # A spectate key reads it too: no game of this club has a spectator delay, so all of it.
        watched = api.client.get("/clubs/c1/feed", headers=api.auth(watcher))
        assert watched.status_code == 200 and watched.json()["events"][:6] == seen


def test_the_club_export_downloads_as_the_cli_writes_it(database_url: str) -> None:
    with app(database_url, run_webhooks=False) as api:
        token = api.club("c1")
        api.players("c1", token, "alain", "bea")
        for _ in range(3):
            append(api, token, api.tally_game("c1", token), [roll(0, 4), roll(1, 3)])
        created = api.client.post(
            "/clubs/c1/leagues",
            json={
                "league_id": "autumn",
                "ruleset": "tally",
                "members": ["alain", "bea"],
                "starts": "2000-01-01",
                "ends": "2999-12-31",
                "scoring": {"win_draw_loss": [3, 1, 0]},
            },
            headers=api.auth(token),
        )
        assert created.status_code == 201, created.text
        with api.client.stream("GET", "/clubs/c1/export", headers=api.auth(token)) as answer:
            assert answer.status_code == 200
            assert answer.headers["content-type"].startswith("application/json")
            assert "content-length" not in answer.headers  # streamed
            assert 'filename="c1.club.json"' in answer.headers["content-disposition"]
            body = b"".join(answer.iter_bytes())
        assert body == export_club(api.app.state.records, "c1")
        document = msgspec.json.decode(body, type=ClubExport)
        assert msgspec.json.encode(document) == body  # what the one-piece encoding gives
        assert len(document.games) == 3 and [c.collection_id for c in document.collections] == ["autumn"]
        reader = api.client.post("/clubs/c1/keys", json={"name": "r", "scope": "read"}, headers=api.auth(token))
        assert api.client.get("/clubs/c1/export", headers=api.auth(reader.json()["token"])).status_code == 403
        missing = api.client.get("/clubs/nope/export", headers=api.auth(OPERATOR))
        assert missing.status_code == 404


@pytest.mark.e2e
def test_a_server_killed_mid_delivery_loses_nothing_and_repeats_only_that_message(
    database_url: str, receiver: Receiver
) -> None:
    """`tablelog serve` is killed (SIGKILL) while the receiver holds the third message; started again, it
    sends that message again, with the same id, and every other once, in order."""
    held, release = threading.Event(), threading.Event()

    def hold_the_third(count: int) -> None:
        if count == 3:
            held.set()
            release.wait(60)

    receiver.hold = hold_the_third
    env = environment(database_url) | {
        "TABLELOG_RUN_PROJECTOR": "false",
        "TABLELOG_WEBHOOK_POLL_SECONDS": "0.1",
        "TABLELOG_WEBHOOK_TIMEOUT_SECONDS": "1",
        "TABLELOG_WEBHOOK_REFUSE_PRIVATE_ADDRESSES": "false",
    }

    @contextmanager
    def serving() -> Iterator[Api]:
        port = free_port()
        process = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "serve", "--port", str(port)],
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # killed whole, as a crash would
        )
        base = f"http://127.0.0.1:{port}"
        try:
            wait_until(answers(f"{base}/ready"), "tablelog serve", runner=process)
            with httpx.Client(base_url=base, timeout=30) as client:
                yield Api(client, app=None)
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)

    with serving() as api:
        created = api.client.post("/clubs", json={"club_id": "c1", "name": "Club"}, headers=api.auth(E2E_OPERATOR))
        assert created.status_code == 201, created.text
        key = api.client.post("/clubs/c1/keys", json={"name": "scorer"}, headers=api.auth(E2E_OPERATOR))
        token = key.json()["token"]
        api.players("c1", token, "alain", "bea")
        register(api, token, receiver.url, ["game.event"])
        game = api.tally_game("c1", token, options={"target": 1000})
        answer = api.append("c1", token, game, 1, [roll(seat % 2, 1) for seat in range(5)])
        assert answer.status_code == 201, answer.text
        wait_until(held.is_set, "the third message at the receiver", 60, interval=0.05)
    # Killed while the receiver held the third message (it has it; the server never heard so).
    release.set()
    with serving():
        wait_until(lambda: len(receiver.requests) >= 7, "every message after the restart", 60, interval=0.05)
        time.sleep(0.5)
    ids = [headers["webhook-id"] for headers, _ in receiver.requests]
    versions = [body["data"]["version"] for body in receiver.bodies()]
    assert versions == [1, 2, 3, 3, 4, 5, 6]
    assert ids[2] == ids[3] and len(set(ids)) == 6


def test_a_discord_webhook_gets_one_line_in_the_club_s_language(database_url: str, receiver: Receiver) -> None:
    with app(database_url) as api:
        token = api.club("c1")
        api.players("c1", token, "alain", "bea")
        french = api.client.put("/clubs/c1/settings", json={"language": "fr"}, headers=api.auth(token))
        assert french.status_code == 200, french.text
        made = api.client.post(
            "/clubs/c1/webhooks",
            json={"webhook_id": "salon", "url": receiver.url, "kinds": ["game.finished"], "format": "discord"},
            headers=api.auth(token),
        )
        assert made.status_code == 201 and made.json()["webhook"]["format"] == "discord", made.text
        game = api.tally_game("c1", token)
        append(api, token, game, [roll(0, 6), roll(1, 2), roll(0, 6)])
        wait_until(lambda: len(receiver.requests) >= 1, "the end of the game told", 30, interval=0.05)
        assert receiver.bodies() == [
            {"content": f"Partie {game} terminée : victoire de Alain.", "allowed_mentions": {"parse": []}}
        ]


def test_a_published_round_and_a_decided_campaign_are_told_once_each(database_url: str, receiver: Receiver) -> None:
    """`round.published`: a round paired straight away, or a draft once published (never the draft itself);
    `campaign.decided`: the game whose finish reaches the campaign's target, told after the projector has
    folded it (the webhook waits for it), once, with the winners' names."""
    with app(database_url, run_projector=True, projector_poll_seconds=0.05) as api:
        token = api.club("c1")
        api.players("c1", token, "alain", "bea", "cleo", "dan")
        register(api, token, receiver.url, ["round.published", "campaign.decided"])
        for tournament in ("open", "cup"):
            body = {
                "tournament_id": tournament,
                "ruleset": "tally",
                "system": "swiss",
                "scoring": {"win_draw_loss": [2, 1, 0]},
                "tie_breaks": ["points", "score"],
            }
            made = api.client.post("/clubs/c1/tournaments", json=body, headers=api.auth(token))
            assert made.status_code == 201, made.text
            for player in ("alain", "bea", "cleo", "dan"):
                entered = api.client.post(
                    f"/clubs/c1/tournaments/{tournament}/players", json={"player_id": player}, headers=api.auth(token)
                )
                assert entered.status_code == 201, entered.text
        drafted = api.client.post(
            "/clubs/c1/tournaments/open/rounds", params={"draft": "true"}, json={}, headers=api.auth(token)
        )
        assert drafted.status_code == 201, drafted.text
        paired = api.client.post("/clubs/c1/tournaments/cup/rounds", json={}, headers=api.auth(token))
        assert paired.status_code == 201, paired.text
        published = api.client.post("/clubs/c1/tournaments/open/rounds/1/publication", json={}, headers=api.auth(token))
        assert published.status_code in (200, 201), published.text
        made = api.client.post(
            "/clubs/c1/campaigns",
            json={"campaign_id": "winter", "ruleset": "tally", "players": ["alain", "bea"]},
            headers=api.auth(token),
        )
        assert made.status_code == 201, made.text
        games = []
        for _ in range(3):  # Alain 12 a game: the third reaches the target, 36
            game = api.tally_game("c1", token)
            added = api.client.post("/clubs/c1/campaigns/winter/games", json={"game_id": game}, headers=api.auth(token))
            assert added.status_code == 201, added.text
            append(api, token, game, [roll(0, 6), roll(1, 6), roll(0, 6)])
            games.append(game)
        wait_until(lambda: len(receiver.requests) >= 3, "two rounds and a campaign told", 60, interval=0.05)
        time.sleep(0.5)  # a message sent twice, or a campaign told at the wrong game, would come now
        bodies = receiver.bodies()
        rounds = [(b["data"]["tournament_id"], b["data"]["type"], b["data"]["data"]["round"]) for b in bodies[:2]]
        assert rounds == [("cup", "tournament.round_paired", 1), ("open", "tournament.round_published", 1)]
        assert [b["type"] for b in bodies] == ["round.published", "round.published", "campaign.decided"]
        # The draft's pairing was never told: its publication carries the pairings, as the paired round does.
        assert bodies[1]["data"]["data"]["tables"] == drafted.json()["tournament"]["rounds"][0]["tables"]
        assert len(bodies[0]["data"]["data"]["tables"]) == 2
        feed = api.client.get("/clubs/c1/feed", params={"limit": 1000}, headers=api.auth(token)).json()["events"]
        told = [e["type"] for e in feed if e["tournament_id"] == "open"]
        assert "tournament.round_published" in told and "tournament.round_paired" not in told
        decided = bodies[2]
        assert decided["campaigns"] == ["winter"] and decided["winners"] == ["Alain"]
        assert decided["data"]["game_id"] == games[2] and decided["data"]["finished"] is True
        log = api.client.get("/clubs/c1/webhooks/results/deliveries", headers=api.auth(token)).json()
        assert [r["kind"] for r in log["deliveries"]] == ["campaign.decided", "round.published", "round.published"]


class FeedReader:
    """Reads the club feed as server-sent events from a real server, event after event."""

    def __init__(self, base: str, token: str, last_event_id: str | None = None) -> None:
        headers = Api.auth(token) | {"Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        self.client = httpx.Client(base_url=base, timeout=httpx.Timeout(10, read=15))
        self.response = self.client.send(
            self.client.build_request("GET", "/clubs/c1/feed", headers=headers), stream=True
        )
        self.lines = self.response.iter_lines()

    def take(self, count: int) -> list[tuple[str, dict[str, Any]]]:
        """The next `count` events, each with its id."""
        taken: list[tuple[str, dict[str, Any]]] = []
        fields: dict[str, str] = {}
        while len(taken) < count:
            line = next(self.lines)
            if not line:
                if fields.get("event") == "event":
                    taken.append((fields["id"], json.loads(fields["data"])))
                fields = {}
            elif not line.startswith(":"):
                name, _, value = line.partition(":")
                fields[name] = value.removeprefix(" ")
        return taken

    def close(self) -> None:
        self.response.close()
        self.client.close()


def test_the_feed_streams_as_server_sent_events_and_resumes_from_the_last_event_id(database_url: str) -> None:
    with served(database_url, run_webhooks=False) as site:
        api = site.api
        token = api.club("c1")
        api.players("c1", token, "alain", "bea")
        game = api.tally_game("c1", token)
        append(api, token, game, [roll(0, 3), roll(1, 4)])
        reader = FeedReader(site.base, token)
        try:
            assert reader.response.headers["content-type"].startswith("text/event-stream")
            first = reader.take(3)
            assert [e["version"] for _, e in first] == [1, 2, 3] and {e["game_id"] for _, e in first} == {game}
            append(api, token, game, [roll(0, 5), roll(1, 1)])  # while the stream is open
            later = reader.take(2)
            assert [e["version"] for _, e in later] == [4, 5] and later[1][1]["step"]["text"]
        finally:
            reader.close()
        resumed = FeedReader(site.base, token, last_event_id=first[2][0])
        try:
            assert [e for _, e in resumed.take(2)] == [e for _, e in later]  # ids are sealed anew each time
        finally:
            resumed.close()
        bad = api.client.get(
            "/clubs/c1/feed", headers=api.auth(token) | {"Accept": "text/event-stream", "Last-Event-ID": "7"}
        )
        assert bad.status_code == 400 and bad.json()["field"] == "Last-Event-ID"


def test_a_spectate_key_s_feed_runs_behind_the_spectator_delay(database_url: str) -> None:
    with served(database_url, run_webhooks=False) as site:
        api = site.api
        token = api.club("c1")
        api.players("c1", token, "alain", "bea")
        held = api.tally_game("c1", token, options={"target": 1000})
        delayed = api.client.put(f"/clubs/c1/games/{held}/spectator-delay", json={"events": 2}, headers=api.auth(token))
        assert delayed.status_code == 200, delayed.text
        append(api, token, held, [roll(0, 3), roll(1, 4), roll(0, 6)])  # steps 1-2 released, 3-4 held back
        other = api.tally_game("c1", token)  # recorded after the held-back steps
        made = api.client.post("/clubs/c1/keys", json={"name": "tv", "scope": "spectate"}, headers=api.auth(token))
        watcher = made.json()["token"]

        def seen(key: str) -> list[tuple[str | None, int]]:
            page = api.client.get("/clubs/c1/feed", headers=api.auth(key))
            assert page.status_code == 200, page.text
            return [(e["game_id"], e["version"]) for e in page.json()["events"]]

        wait_until(lambda: len(seen(token)) == 5, "the club's five events", 60, interval=0.05)
        assert seen(token) == [(held, 1), (held, 2), (held, 3), (held, 4), (other, 1)]
        # The spectator stops before the first step held back: the other game's comes after it, in its place.
        assert seen(watcher) == [(held, 1), (held, 2)]
        reader = FeedReader(site.base, watcher)
        try:
            assert [(e["game_id"], e["version"]) for _, e in reader.take(2)] == [(held, 1), (held, 2)]
            append(api, token, held, [roll(1, 2), roll(0, 1)])  # releases steps 3 and 4
            told = reader.take(3)
            assert [(e["game_id"], e["version"]) for _, e in told] == [(held, 3), (held, 4), (other, 1)]
        finally:
            reader.close()
        assert seen(watcher) == [(held, 1), (held, 2), (held, 3), (held, 4), (other, 1)]
