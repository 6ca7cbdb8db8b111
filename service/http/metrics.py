"""Prometheus metrics at `/metrics` (setting `metrics`), through litestar's Prometheus plugin: its request
counters and durations, and the service's own figures below.

With `tablelog serve --workers N` each worker writes its figures to files in one directory
(prometheus-client's multi-process mode, `PROMETHEUS_MULTIPROC_DIR`, set per run by `service.cli`), and
whichever worker answers a scrape sums them all. Imported only when the setting is on (prometheus-client is
the `ops` extra)."""

from __future__ import annotations

import asyncio
import atexit
import os
from collections.abc import Callable, Iterator
from typing import Any

import anyio
from litestar import Request, Response, get
from litestar.connection import ASGIConnection
from litestar.exceptions import NotAuthorizedException
from litestar.handlers.base import BaseRouteHandler
from litestar.plugins.prometheus import PrometheusConfig, PrometheusController, PrometheusMiddleware
from litestar.types import Receive, Scope, Send
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, Counter, Gauge, generate_latest
from prometheus_client.core import HistogramMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.utils import floatToGoString

from service.http.guards import is_operator
from service.projector import Lag
from service.settings import Settings
from service.usecases.games import BatchRuleError

# Seconds: an append on the hot path takes a few milliseconds (bench/), a long replay read up to seconds.
_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

_PREFIX = "tablelog_http"

APPENDS = Counter("tablelog_appends", "Appends stored (batches), by ruleset.", ["ruleset"])
APPENDED_EVENTS = Counter("tablelog_appended_events", "Events stored by appends, by ruleset.", ["ruleset"])
REFUSALS = Counter("tablelog_refusals", "Batches refused by the rules, by ruleset and rule id.", ["ruleset", "rule_id"])
RATE_LIMITED = Counter("tablelog_rate_limited", "Requests answered 429 (a rate or stream limit).", ["method"])
LIVE_STREAMS = Gauge("tablelog_live_streams_open", "Live streams open.", multiprocess_mode="livesum")
PROJECTOR_LAG_EVENTS = Gauge(
    "tablelog_projector_lag_events",
    "Events of the record a projection has not folded yet.",
    ["projection"],
    multiprocess_mode="mostrecent",
)
PROJECTOR_LAG_SECONDS = Gauge(
    "tablelog_projector_lag_seconds",
    "Age of the oldest event a projection has not folded yet.",
    ["projection"],
    multiprocess_mode="mostrecent",
)
WEBHOOK_ATTEMPTS = Counter(
    "tablelog_webhook_attempts", "Webhook delivery attempts, by outcome (delivered, failed).", ["outcome"]
)
REPLICA_LAG_SECONDS = Gauge(
    "tablelog_replica_lag_seconds",
    "How far a read replica is behind the primary, as last measured.",
    ["replica"],
    multiprocess_mode="mostrecent",
)


def webhook_attempt(delivered: bool) -> None:
    """Count one webhook delivery attempt (`service.usecases.webhooks.Deliverer`)."""
    WEBHOOK_ATTEMPTS.labels(outcome="delivered" if delivered else "failed").inc()


def _is_append(method: str, path: str) -> bool:
    return method == "POST" and path.endswith("/events")


def _is_live(method: str, path: str) -> bool:
    return method == "GET" and path.endswith("/live")


def _is_read(method: str, path: str) -> bool:
    return method == "GET" and not path.endswith("/live")


SCRAPE_PATH = "/metrics"
"""Not counted: a scrape every few seconds would be most of the series."""


async def _no_app(scope: Scope, receive: Receive, send: Send) -> None:
    """What the plugin's middleware would call; never called (`RequestMetrics` only borrows its series)."""


FLUSH_SECONDS = 0.5
"""How often a process writes what its counters and gauges gained to the shared metric files."""


class _Kept:
    """A counter's or a gauge's series whose changes this process adds up in memory and writes at most
    every `FLUSH_SECONDS` (and before a scrape this process answers): each write to the shared file is a
    lock, a `getpid` and a write to a mapped page, 1.5-2 µs in a request, seven of them an append."""

    __slots__ = ("pending", "series")

    def __init__(self, series: Any) -> None:
        self.series = series
        self.pending = 0

    def flush(self) -> None:
        if self.pending:
            self.series.inc(self.pending)  # a gauge takes a negative change as well
            self.pending = 0


class RequestMetrics:
    """The Prometheus plugin's request series (its names, labels and registry: `PrometheusController`
    scrapes them) and the service's own, kept by the logging middleware, which already times every request
    and knows its status, instead of by a middleware layer of their own (issue 30: metrics under 5 % of an
    append's CPU; the plugin's middleware built a `Request`, a URL, a wrapped `send` and four label lookups
    per request, ~25 µs beside a ~500 µs append). Each route's series are found once and kept; counts and
    levels are added up in memory and written every `FLUSH_SECONDS` (`_Kept`), the durations at once
    (a histogram has no way to take several observations in one write). Everything here runs on the
    worker's event loop, so the sums need no lock."""

    def __init__(self, config: PrometheusConfig) -> None:
        self._plugin = PrometheusMiddleware(_no_app, config)
        self._app_name = config.app_name
        self._kept: list[_Kept] = []
        self._in_progress: dict[tuple[str, str], _Kept] = {}
        self._answered: dict[tuple[str, str, int], tuple[_Kept, Any]] = {}
        self._by_ruleset: dict[str, tuple[_Kept, _Kept]] = {}
        """Each ruleset's series of `APPENDS` and `APPENDED_EVENTS`: `labels()` hashes its values each call."""
        self._rate_limited: dict[str, _Kept] = {}
        self._live = self._keep(LIVE_STREAMS)
        self._loop: asyncio.AbstractEventLoop | None = None
        atexit.register(self.flush)  # a worker that stops writes its last half second too

    def _keep(self, series: Any) -> _Kept:
        kept = _Kept(series)
        self._kept.append(kept)
        return kept

    def flush(self) -> None:
        """Write what every kept series gained since the last flush."""
        for kept in self._kept:
            kept.flush()

    def _tick(self) -> None:
        self.flush()
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_later(FLUSH_SECONDS, self._tick)

    def _labels(self, method: str, path: str, status: int) -> dict[str, str | int | float]:
        return {"method": method, "path": path, "status_code": status, "app_name": self._app_name}

    def started(self, scope: Scope) -> tuple[str, str] | None:
        """A request begins (routed: its path template is known): counted in progress; its route."""
        if scope["path"] == SCRAPE_PATH:
            return None
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # the first request on this loop: flush on it from now on
            self._loop = loop
            loop.call_later(FLUSH_SECONDS, self._tick)
        method = str(scope.get("method") or scope["type"])
        route = (method, str(scope.get("path_template") or scope["path"]))
        in_progress = self._in_progress.get(route)
        if in_progress is None:
            labels = self._labels(method, route[1], 200)
            gauge = self._plugin.requests_in_progress(labels)
            in_progress = self._in_progress[route] = self._keep(gauge.labels(*labels.values()))
        in_progress.pending += 1
        if _is_live(method, scope["path"]):
            self._live.pending += 1
        return route

    def finished(
        self, scope: Scope, route: tuple[str, str] | None, status: int, seconds: float, context: dict[str, Any]
    ) -> None:
        """A request answered, with its summary line's figures: the plugin's series by route and status
        (the append and read latencies are read from them at the scrape, `_latencies`); appends by ruleset
        (what the handler bound to the line: `appended`, `ruleset`), 429s."""
        if route is None:
            return
        self._in_progress[route].pending -= 1
        key = (route[0], route[1], status)
        series = self._answered.get(key)
        if series is None:
            labels = self._labels(*key)
            values = labels.values()
            series = (
                self._keep(self._plugin.request_count(labels).labels(*values)),
                self._plugin.request_time(labels).labels(*values),
            )
            self._answered[key] = series
        if status >= 500:
            labels = self._labels(*key)
            self._plugin.requests_error_count(labels).labels(*labels.values()).inc()
        series[0].pending += 1
        series[1].observe(seconds)
        method = route[0]
        if _is_live(method, scope["path"]):
            self._live.pending -= 1
        elif _is_append(method, scope["path"]) and status == 201 and context.get("appended"):
            ruleset = str(context.get("ruleset", "unknown"))
            by = self._by_ruleset.get(ruleset)
            if by is None:
                by = self._by_ruleset[ruleset] = (
                    self._keep(APPENDS.labels(ruleset)),
                    self._keep(APPENDED_EVENTS.labels(ruleset)),
                )
            by[0].pending += 1
            by[1].pending += int(context["appended"])
        if status == 429:
            limited = self._rate_limited.get(method)
            if limited is None:
                limited = self._rate_limited[method] = self._keep(RATE_LIMITED.labels(method))
            limited.pending += 1


def counting_refusals(handler: Callable[[Any, BatchRuleError], Response[Any]]) -> Callable[..., Response[Any]]:
    """The problem handler for a batch the rules refuse, counting the refusal by ruleset and rule id."""

    def counted(request: Request[Any, Any, Any], exc: BatchRuleError) -> Response[Any]:
        REFUSALS.labels(exc.ruleset or "unknown", exc.error.rule_id).inc()
        return handler(request, exc)

    return counted


Measure = Callable[[Any], tuple[dict[str, Lag], dict[str, Any]]]
"""Each projection's lag and each replica's report (`lag_seconds`), from the app's state: the composition
root reads them (a controller never calls the store)."""


def _refresh_gauges(measure: Measure, state: Any) -> None:
    """Projector and replica lag, measured when scraped (they live in the database, not in a worker)."""
    projections, replicas = measure(state)
    for name, lag in projections.items():
        PROJECTOR_LAG_EVENTS.labels(name).set(lag.lag)
        PROJECTOR_LAG_SECONDS.labels(name).set(lag.lag_seconds)
    for name, report in replicas.items():
        if report.lag_seconds is not None:
            REPLICA_LAG_SECONDS.labels(name).set(report.lag_seconds)


def metrics_controller(settings: Settings, measure: Measure, kept: RequestMetrics) -> type[PrometheusController]:
    """`/metrics`, to the operator key unless `metrics_public`; left out of the API's OpenAPI document."""

    def operator_only(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
        if not settings.metrics_public and not is_operator(connection):
            raise NotAuthorizedException("The metrics are shown to the operator key only.")

    class Metrics(PrometheusController):
        guards = (operator_only,)
        include_in_schema = False

        @get()
        async def get(self, request: Request[Any, Any, Any]) -> Response[Any]:
            kept.flush()  # this process's own figures up to now; the other workers' within FLUSH_SECONDS
            await anyio.to_thread.run_sync(_refresh_gauges, measure, request.app.state)
            text = await anyio.to_thread.run_sync(generate_latest, _Scrape())
            return Response(text, headers={"Content-Type": CONTENT_TYPE_LATEST})

    return Metrics


_LATENCIES = {
    "tablelog_append_seconds": ("Time to answer an append (any outcome).", _is_append),
    "tablelog_read_seconds": ("Time to answer a read (GET).", _is_read),
}


def _latencies(families: list[Metric]) -> list[Metric]:
    """`tablelog_append_seconds` and `tablelog_read_seconds`: the plugin's request histogram summed over
    the routes that append and the routes that read. Measured once per request, not twice (each
    observation is two writes to a file shared with the scrape), and the same figures."""
    by_route = next((f for f in families if f.name == f"{_PREFIX}_request_duration_seconds"), None)
    derived: list[Metric] = []
    for name, (documentation, matches) in _LATENCIES.items():
        buckets = dict.fromkeys([*(floatToGoString(b) for b in _LATENCY_BUCKETS), "+Inf"], 0.0)
        total = 0.0
        for sample in by_route.samples if by_route is not None else []:
            if not matches(sample.labels.get("method", ""), sample.labels.get("path", "")):
                continue
            if sample.name.endswith("_bucket") and sample.labels["le"] in buckets:
                buckets[sample.labels["le"]] += sample.value
            elif sample.name.endswith("_sum"):
                total += sample.value
        family = HistogramMetricFamily(name, documentation, buckets=list(buckets.items()), sum_value=total)
        derived.append(family)
    return derived


class _Scrape:
    """What a scrape shows: every worker's figures (multi-process mode) or this process's, and the
    latencies read from them."""

    def collect(self) -> Iterator[Metric]:
        if "PROMETHEUS_MULTIPROC_DIR" in os.environ:
            source = CollectorRegistry()
            MultiProcessCollector(source)
        else:
            source = REGISTRY
        families = list(source.collect())
        yield from families
        yield from _latencies(families)


def prometheus_config() -> PrometheusConfig:
    # Paths grouped by route (`/clubs/{club_id}/...`): one series per route, not per game.
    return PrometheusConfig(
        app_name="tablelog",
        prefix=_PREFIX,
        buckets=list(_LATENCY_BUCKETS),
        group_path=True,
        exclude=[SCRAPE_PATH],
    )
