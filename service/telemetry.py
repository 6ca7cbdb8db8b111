"""What an operator turns on to watch the service (docs/how-to/monitor.md), each off by default: Prometheus
metrics (`metrics`, `service.http.metrics`), OpenTelemetry traces (`tracing`) and browsers' calls from other
origins (`cors_allow_origins`). Their libraries (the `ops` extra) are imported only when turned on."""

from __future__ import annotations

import os
from typing import Any, NamedTuple, Protocol

from litestar.config.cors import CORSConfig
from litestar.types import ControllerRouterHandler, Scope

from service.projector import PROJECTION_NAMES, Lag, lags
from service.settings import Settings
from service.store.replicas import ReplicaReport
from service.usecases.games import BatchRuleError


class Observer(Protocol):
    """What the logging middleware tells of each request (the metrics, when on)."""

    def started(self, scope: Scope) -> Any:
        """A request begins; what is returned is given back to `finished`."""

    def finished(self, scope: Scope, started: Any, status: int, seconds: float, context: dict[str, Any]) -> None:
        """The request answered: its status, seconds and what its log line holds."""


class Operations(NamedTuple):
    """What `create_app` adds to the app: route handlers, what the logging middleware tells of each
    request, plugins, the CORS config."""

    handlers: list[ControllerRouterHandler]
    observe: Observer | None
    """Told of each request answered, by the logging middleware."""
    plugins: list[Any]
    cors: CORSConfig | None


def operations(settings: Settings, exception_handlers: dict[Any, Any]) -> Operations:
    """The pieces the settings turn on; wraps the rules' problem handler in `exception_handlers` to count
    refusals when metrics are on."""
    handlers: list[ControllerRouterHandler] = []
    plugins: list[Any] = []
    observe = None
    if settings.metrics:
        from service.http import metrics

        observe = kept = metrics.RequestMetrics(metrics.prometheus_config())
        handlers.append(metrics.metrics_controller(settings, _lags, kept))
        exception_handlers[BatchRuleError] = metrics.counting_refusals(exception_handlers[BatchRuleError])
    if settings.tracing:
        plugins.append(_tracing_plugin())
    origins = [origin.strip() for origin in settings.cors_allow_origins.split(",") if origin.strip()]
    cors = CORSConfig(
        allow_origins=origins,
        allow_methods=["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
        allow_headers=["Authorization", "Content-Type", "Idempotency-Key", "Tablelog-Position", "If-None-Match"],
        expose_headers=["Tablelog-Position", "ETag", "Retry-After", "RateLimit", "RateLimit-Policy", "X-Request-Id"],
        max_age=600,
    )
    return Operations(handlers, observe, plugins, cors if origins else None)


def _lags(state: Any) -> tuple[dict[str, Lag], dict[str, ReplicaReport]]:
    replicas = state.replicas.reports() if state.get("replicas") is not None else {}
    return lags(state.store, PROJECTION_NAMES), replicas


_provider: Any = None


def tracer_provider() -> Any:
    """This process's tracer provider (made once): spans exported in batches over OTLP, as the SDK's
    `OTEL_EXPORTER_OTLP_*` variables say; `OTEL_TRACES_EXPORTER=none` keeps them in the process (tests add
    their own exporter to it). psycopg's calls are instrumented from here on: each a child span."""
    global _provider
    if _provider is None:
        from opentelemetry import trace
        from opentelemetry.instrumentation.psycopg import PsycopgInstrumentor
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor

        from service import __version__

        provider = TracerProvider(
            resource=Resource.create({"service.name": "tablelog", "service.version": __version__})
        )
        if os.environ.get("OTEL_TRACES_EXPORTER", "otlp") != "none":
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

            provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
        trace.set_tracer_provider(provider)
        PsycopgInstrumentor().instrument(tracer_provider=provider, enable_commenter=False)
        _provider = provider
    return _provider


def _tracing_plugin() -> Any:
    from litestar.plugins.opentelemetry import OpenTelemetryConfig, OpenTelemetryPlugin

    return OpenTelemetryPlugin(OpenTelemetryConfig(tracer_provider=tracer_provider(), exclude=["/health"]))
