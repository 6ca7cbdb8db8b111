"""What an operator turns on to watch the service (service.telemetry): metrics, traces, CORS; each off by
default."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from litestar.testing import TestClient
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.parser import text_string_to_metric_families

from service import telemetry
from service.app import create_app
from service.settings import Settings
from testkit.waiting import answers, wait_until
from tests.service.api_support import OPERATOR as API_OPERATOR
from tests.service.api_support import Api
from tests.test_e2e import OPERATOR, ROOT, environment, free_port

OP = {"Authorization": f"Bearer {OPERATOR}"}


def _settings(tmp_path: Path, **changes: Any) -> Settings:
    return Settings(
        database_url=f"sqlite:///{tmp_path / 'tablelog.db'}", operator_key=OPERATOR, log_format="json", **changes
    )


def test_metrics_are_not_served_unless_turned_on(tmp_path: Path) -> None:
    with TestClient(create_app(_settings(tmp_path))) as http:
        response = http.get("/metrics", headers=OP)
    assert response.status_code == 404


def test_metrics_are_shown_to_the_operator_key_only_unless_the_setting_opens_them(tmp_path: Path) -> None:
    with TestClient(create_app(_settings(tmp_path, metrics=True))) as http:
        refused = http.get("/metrics")
        shown = http.get("/metrics", headers=OP)
    assert refused.status_code == 401 and refused.json()["status"] == 401
    assert shown.status_code == 200 and "# TYPE tablelog_appends_total counter" in shown.text
    with TestClient(create_app(_settings(tmp_path, metrics=True, metrics_public=True))) as http:
        public = http.get("/metrics")
    assert public.status_code == 200 and "tablelog_append_seconds" in public.text


def test_each_route_is_counted_and_timed_by_status_under_its_template_and_the_scrape_is_not(tmp_path: Path) -> None:
    """The plugin's request metrics, kept by the logging middleware (`service.http.metrics`), under the
    plugin's names and labels: a series per route template and status, none per club or game; a request a
    rate limit refuses before its handler counted under its 429."""
    route = {"method": "GET", "path": "/clubs/{club_id}/games", "app_name": "tablelog"}
    with TestClient(create_app(_settings(tmp_path, metrics=True, rate_limit_reads_per_minute=8))) as http:
        before = _families(http.get("/metrics", headers=OP).text)
        for club in ("nowhere", "elsewhere", "nowhere"):
            assert http.get(f"/clubs/{club}/games", headers=OP).json()["status"] == 404
        assert http.post("/clubs", json={"club_id": "limited", "name": "Limited"}, headers=OP).status_code == 201
        key = http.post("/clubs/limited/keys", json={"name": "reader"}, headers=OP).json()["token"]
        limited = [http.get("/clubs/limited/games", headers=Api.auth(key)).status_code for _ in range(12)]
        after = _families(http.get("/metrics", headers=OP).text)
    assert limited.count(429) >= 1, limited

    def grew(name: str, sample: str, **labels: str) -> float:
        return _sample(after, name, sample, **labels) - (
            _sample(before, name, sample, **labels) if name in before else 0
        )

    total = "tablelog_http_requests"
    assert grew(total, f"{total}_total", **route, status_code="404") == 3
    assert grew(total, f"{total}_total", **route, status_code="200") == limited.count(200)
    seconds = "tablelog_http_request_duration_seconds"
    assert grew(seconds, f"{seconds}_count", **route, status_code="404") == 3
    assert grew(seconds, f"{seconds}_sum", **route, status_code="404") > 0
    assert grew(total, f"{total}_total", **route, status_code="429") == limited.count(429)
    assert grew("tablelog_rate_limited", "tablelog_rate_limited_total", method="GET") == limited.count(429)
    # The read latencies are the same requests' (every GET but the scrape), bucket by bucket.
    reads = "tablelog_read_seconds"
    assert grew(reads, f"{reads}_count") == 3 + len(limited)
    assert grew(reads, f"{reads}_bucket", le="+Inf") == 3 + len(limited)
    assert grew(reads, f"{reads}_bucket", le="10.0") == 3 + len(limited)
    in_progress = "tablelog_http_requests_in_progress"
    assert _sample(after, in_progress, in_progress, **route) == 0
    assert not [s for s in after[total].samples if "nowhere" in s.labels["path"] or s.labels["path"] == "/metrics"]


def _families(text: str) -> dict[str, Any]:
    return {family.name: family for family in text_string_to_metric_families(text)}


def _sample(families: dict[str, Any], name: str, sample: str, **labels: str) -> float:
    return sum(
        s.value
        for s in families[name].samples
        if s.name == sample and all(s.labels.get(k) == v for k, v in labels.items())
    )


def _appends_by_worker(directory: Path) -> dict[str, float]:
    """Each worker's own count of appends, from its file in the multi-process directory."""
    counts = {}
    for file in directory.glob("counter_*.db"):
        merged = MultiProcessCollector.merge([str(file)], accumulate=True)
        counts[file.stem] = sum(
            s.value for metric in merged if metric.name == "tablelog_appends" for s in metric.samples
        )
    return {worker: count for worker, count in counts.items() if count}


@pytest.mark.e2e
def test_two_workers_metrics_sum_the_appends_of_both_and_count_a_refusal_by_its_rule(
    postgres_schema_url: str, tmp_path: Path
) -> None:
    figures = tmp_path / "metrics"
    figures.mkdir()
    env = environment(postgres_schema_url) | {
        "TABLELOG_METRICS": "true",
        "PROMETHEUS_MULTIPROC_DIR": str(figures),
        "TABLELOG_OPERATOR_KEY": API_OPERATOR,
    }
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--workers", "2"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until(answers(f"{base}/ready"), "tablelog serve --workers 2", runner=process)
        with httpx.Client(base_url=base, timeout=10) as http:
            api = Api(http)
            token = api.club("metrics")
            api.players("metrics", token, "alain", "bea")
            game_id = api.tally_game("metrics", token, options={"target": 1000})
        version, appended = 1, 0
        # Each append on a connection of its own: the kernel hands new connections to either worker.
        while len(_appends_by_worker(figures)) < 2 and appended < 40:
            with httpx.Client(base_url=base, timeout=10) as fresh:
                rolled = [{"type": "tally.rolled", "seat": appended % 2, "face": 1}]
                response = Api(fresh).append("metrics", token, game_id, version, rolled)
            assert response.status_code == 201, response.text
            version, appended = response.json()["last_version"], appended + 1
        # Each worker writes its counts to its file at most half a second late (service.http.metrics).
        wait_until(lambda: sum(_appends_by_worker(figures).values()) == appended, "the counts written", 10)
        by_worker = _appends_by_worker(figures)
        assert len(by_worker) == 2 and sum(by_worker.values()) == appended
        with httpx.Client(base_url=base, timeout=10) as http:
            out_of_turn = [{"type": "tally.rolled", "seat": (appended + 1) % 2, "face": 1}]
            refused = Api(http).append("metrics", token, game_id, version, out_of_turn)
            assert refused.json()["rule_id"] == "T-1"
            scrapes = [_families(http.get("/metrics", headers=Api.auth(API_OPERATOR)).text) for _ in range(2)]
    finally:
        process.terminate()
        process.wait(timeout=30)
    for families in scrapes:  # whichever worker answers, it sums both
        assert _sample(families, "tablelog_appends", "tablelog_appends_total", ruleset="tally") == appended
        assert _sample(families, "tablelog_refusals", "tablelog_refusals_total", ruleset="tally", rule_id="T-1") == 1
        assert _sample(families, "tablelog_append_seconds", "tablelog_append_seconds_count") == appended + 1
        assert _sample(families, "tablelog_append_seconds", "tablelog_append_seconds_bucket", le="+Inf") == appended + 1
        assert (
            _sample(families, "tablelog_projector_lag_events", "tablelog_projector_lag_events", projection="games") >= 0
        )


@pytest.fixture
def spans() -> Iterator[InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    telemetry.tracer_provider().add_span_processor(SimpleSpanProcessor(exporter))
    yield exporter
    exporter.shutdown()


@pytest.mark.postgres
def test_a_traced_request_has_a_child_span_per_database_call_and_its_log_line_the_trace_id(
    postgres_schema_url: str,
    tmp_path: Path,
    spans: InMemorySpanExporter,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OTEL_TRACES_EXPORTER", "none")
    settings = msgspec.structs.replace(_settings(tmp_path, tracing=True), database_url=postgres_schema_url)
    with TestClient(create_app(settings)) as http:
        spans.clear()
        created = http.post("/clubs", json={"club_id": "traced", "name": "Traced"}, headers=OP)
    assert created.status_code == 201
    finished = spans.get_finished_spans()
    server = [s for s in finished if s.parent is None and s.attributes and s.attributes.get("http.method") == "POST"]
    assert len(server) == 1
    trace_id = server[0].context.trace_id
    database = [s for s in finished if s.context.trace_id == trace_id and s.attributes.get("db.system") == "postgresql"]
    assert database and all(s.parent is not None for s in database)
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line.startswith("{")]
    finished_line = [line for line in lines if line["event"] == "request.finished" and line["path"] == "/clubs"]
    assert finished_line[-1]["trace_id"] == format(trace_id, "032x")


def test_a_browser_preflight_from_an_allowed_origin_gets_the_cors_headers_not_a_401(tmp_path: Path) -> None:
    settings = _settings(tmp_path, cors_allow_origins="http://club.example, http://127.0.0.1:9999")
    preflight = {
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization,content-type",
    }
    with TestClient(create_app(settings)) as http:
        allowed = http.options("/clubs/c/games", headers={"Origin": "http://club.example", **preflight})
        other = http.options("/clubs/c/games", headers={"Origin": "http://elsewhere.example", **preflight})
    assert allowed.status_code == 204
    assert allowed.headers["access-control-allow-origin"] == "http://club.example"
    assert "POST" in allowed.headers["access-control-allow-methods"]
    assert "authorization" in allowed.headers["access-control-allow-headers"].lower()
    assert "access-control-allow-origin" not in other.headers


def test_no_origin_is_allowed_by_default(tmp_path: Path) -> None:
    with TestClient(create_app(_settings(tmp_path))) as http:
        response = http.options(
            "/clubs/c/games", headers={"Origin": "http://club.example", "Access-Control-Request-Method": "POST"}
        )
    assert "access-control-allow-origin" not in response.headers


def test_a_limited_route_tells_its_policy_and_what_is_left_in_the_ietf_ratelimit_headers(tmp_path: Path) -> None:
    settings = _settings(tmp_path, rate_limit_reads_per_minute=3)
    with TestClient(create_app(settings)) as http:
        answers = [http.get("/clubs/nowhere/games", headers=OP) for _ in range(4)]
    assert [a.headers.get("ratelimit-policy") for a in answers[:3]] == ['"read";q=3;w=60'] * 3
    left = [a.headers["ratelimit"].split(";")[1] for a in answers[:3]]
    assert left == ["r=2", "r=1", "r=0"]
    name, _, full_in = answers[2].headers["ratelimit"].split(";")
    assert name == '"read"' and 0 < int(full_in.removeprefix("t=")) <= 60  # the bucket full again within a minute
    assert answers[3].status_code == 429 and int(answers[3].headers["retry-after"]) >= 1


def test_the_state_at_a_version_reached_is_immutable_and_a_held_copy_gets_a_304(tmp_path: Path) -> None:
    settings = msgspec.structs.replace(_settings(tmp_path), operator_key=API_OPERATOR, extra_rulesets="testkit.tally")
    with TestClient(create_app(settings)) as http:
        api = Api(http)
        token, game_id = api.played_game("cache", [{"type": "tally.rolled", "seat": 0, "face": 3}])
        auth = api.auth(token)
        state = f"/clubs/cache/games/{game_id}/state"
        first = http.get(state, params={"version": 2}, headers=auth)
        latest = http.get(state, headers=auth)
        assert (
            api.append("cache", token, game_id, 2, [{"type": "tally.rolled", "seat": 1, "face": 2}]).status_code == 201
        )
        again = http.get(state, params={"version": 2}, headers=auth)
        held = http.get(state, params={"version": 2}, headers=auth | {"If-None-Match": first.headers["etag"]})
        other = http.get(state, params={"version": 3}, headers=auth | {"If-None-Match": first.headers["etag"]})
    assert first.status_code == 200 and first.json()["version"] == 2
    assert first.headers["cache-control"] == "private, max-age=31536000, immutable"
    assert again.json() == first.json() and again.headers["etag"] == first.headers["etag"]
    assert "etag" not in latest.headers  # the latest state changes with the next append
    assert held.status_code == 304 and held.content == b"" and held.headers["etag"] == first.headers["etag"]
    assert other.status_code == 200 and other.json()["version"] == 3 and other.headers["etag"] != first.headers["etag"]
