"""The HTTP API (litestar). `create_app(settings)` is the one composition root: it assembles the resources'
controllers (`service.http`: `clubs`, `games`, `projections`, `competitions`, `rulesets`, `keys`, and
the pages) with their dependencies (`http.dependencies`); none of them imports this module. The games served
(`domain.registry.Rulesets`) are built here once and handed down: to the records and the projector, to
handlers through the `rulesets` dependency and `records.rulesets`. Nothing is opened at import time; the
store is opened (and migrated) at start-up and closed at shutdown."""

from __future__ import annotations

import asyncio
import functools
import gc
import random
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import msgspec
from litestar import Litestar, MediaType, Request, Response, get
from litestar.datastructures import State
from litestar.di import Provide
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from domain.registry import Rulesets
from service import __version__, guide, pages
from service.cache import forget_games
from service.http import docs
from service.http.clubs import ClubController
from service.http.collections import HANDLERS as COLLECTION_HANDLERS
from service.http.collections import REMOVALS
from service.http.competitions import HANDLERS as COMPETITION_HANDLERS
from service.http.dependencies import (
    provide_context,
    provide_principal,
    provide_rulesets,
)
from service.http.errors import exception_handlers, problem
from service.http.games import GameController
from service.http.guards import is_operator
from service.http.integrations import HANDLERS as INTEGRATION_HANDLERS
from service.http.keys import HANDLERS as KEY_HANDLERS
from service.http.language import content_language_middleware, provide_words
from service.http.lines import HANDLERS as LINE_HANDLERS
from service.http.liveness import HealthListener
from service.http.notes import HANDLERS as NOTE_HANDLERS
from service.http.positions import SECRET_NAME as POSITION_SECRET
from service.http.positions import PositionTokens
from service.http.ratelimit import Limiter, rate_limit_middleware
from service.http.replays import HANDLERS as REPLAY_HANDLERS
from service.http.rulesets import HANDLERS as RULESET_HANDLERS
from service.limits import BoundedRequest, Limits
from service.logs import configure_logging, get_logger, loggable_path, request_context
from service.notify import Hub
from service.projector import PROJECTION_NAMES, ProjectorThread, Runner, lags, projections
from service.settings import Settings
from service.store import open_store
from service.store.base import Store
from service.store.postgres import AsyncPostgresEvents, PostgresStore
from service.store.roles import migrate_database
from service.store.sqlite import SqliteStore
from service.telemetry import Observer, operations
from service.usecases.access import Authenticator
from service.usecases.games import SWITCH_INTERVAL, Records
from service.usecases.live import Live
from service.usecases.webhooks import Deliverer, WebhookThread


class Health(msgspec.Struct, frozen=True, kw_only=True):
    status: str
    version: str = __version__
    checks: dict[str, Any] = msgspec.field(default_factory=dict)


@get("/health", tags=["operations"], summary="Liveness", sync_to_thread=False)
def health() -> Health:
    return Health(status="ok")


@get(
    "/ready",
    tags=["operations"],
    summary="Readiness: database reachable, migrations applied; to the operator, each projection's lag",
    sync_to_thread=True,
)
def ready(request: Request[Any, Any, Any], state: State) -> Response[Any]:
    """The status to anyone; the checks (migrations, each projection's checkpoint and lag in events and
    seconds) only to the operator key: they tell how busy the server is."""
    operator = is_operator(request)
    try:
        state.store.ping()
        pending = state.store.pending_migrations()
        projections = lags(state.store, PROJECTION_NAMES) if operator and not pending else {}
    except Exception as error:  # the database is unreachable: not ready, and say why without secrets
        get_logger().warning("ready.database_unreachable", error_type=type(error).__name__)
        return problem(503, "not-ready", "Not ready", "The database cannot be reached.")
    if pending:
        detail = f"Migrations not applied: {', '.join(pending)}." if operator else "Migrations are not applied."
        return problem(503, "not-ready", "Not ready", detail)
    if not operator:
        return Response(Health(status="ready"))
    # A lagging projection (or replica) does not make the server unready: the record is served from the
    # primary, read models catch up.
    checks: dict[str, Any] = {"database": "ok", "migrations": "applied", "projections": projections}
    if state.get("replicas") is not None:
        checks["replicas"] = state.replicas.reports()
    return Response(Health(status="ready", checks=checks))


# -- request logging ------------------------------------------------------------------------------------
def _new_request_id() -> str:
    """32 random hex digits, as uuid4().hex gave: from Python's generator (seeded from the system's at
    start-up and again in a forked child), not a system call per request; a request id only tells lines
    apart, it guards nothing. On this loaded machine `os.urandom` took tens of microseconds (bench/,
    cProfile)."""
    return f"{random.getrandbits(128):032x}"


def logging_middleware(app: ASGIApp, observe: Observer | None = None) -> ASGIApp:
    """Bind request id, club and game to every log line of a request; write one summary line (and tell
    `observe` its figures: the metrics, when on)."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        headers = dict(scope.get("headers", []))
        request_id = headers.get(b"x-request-id", b"").decode("latin-1")[:100] or _new_request_id()
        params = scope.get("path_params", {})
        started = time.perf_counter()
        status = 500

        async def send_wrapper(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", request_id.encode())]
            await send(message)

        ids = {k: params[k] for k in ("club_id", "game_id") if k in params}
        observed = observe.started(scope) if observe is not None else None
        with request_context(request_id=request_id, **ids) as context:
            try:
                await app(scope, receive, send_wrapper)
            except Exception as error:
                # Raised by a middleware inside this one (a rate limit), answered by the app's handlers.
                status = getattr(error, "status_code", 500)
                raise
            finally:
                seconds = time.perf_counter() - started
                get_logger().info(
                    "request.finished",
                    method=scope.get("method"),
                    path=loggable_path(scope["path"]),
                    status=status,
                    duration_ms=round(seconds * 1000, 2),
                )
                if observe is not None:
                    observe.finished(scope, observed, status, seconds, context)

    return middleware


# -- the app --------------------------------------------------------------------------------------------
def openapi_config() -> OpenAPIConfig:
    return OpenAPIConfig(
        title="tablelog",
        version=__version__,
        description="Event-sourced game records and replays for tabletop clubs. Errors are RFC 9457 "
        "problem details (application/problem+json).",
        path=docs.DOCS_PATH,
        render_plugins=docs.render_plugins(),
        components=Components(security_schemes={"bearer": SecurityScheme(type="http", scheme="bearer")}),
        security=[{"bearer": []}],
    )


class Lifecycle:
    """What an app opens at start-up and closes at shutdown (the store, the hot path's pool, the
    subscription to the database's notifications, replicas, the projector, the webhook worker), kept on
    `app.state`."""

    def __init__(self, settings: Settings, rulesets: Rulesets, store: Store | None) -> None:
        self.settings = settings
        self.rulesets = rulesets
        self.store = store
        """A store the caller opened (tests), else None: then start-up opens one and shutdown closes it."""

    @asynccontextmanager
    async def lifespan(self, app: Litestar) -> AsyncIterator[None]:
        """Opened in order at start-up, closed in reverse at shutdown."""
        self.startup(app)
        try:
            await self.open_hot_path(app)
            listener = self.listen_for_health()
            try:
                yield
            finally:
                if listener is not None:
                    listener.stop()
                await self.close_hot_path(app)
        finally:
            self.shutdown(app)

    def listen_for_health(self) -> HealthListener | None:
        """The health port's thread, beating with this worker's event loop (service.http.liveness)."""
        if self.settings.health_port is None:
            return None
        loop = asyncio.get_running_loop()
        return HealthListener(
            self.settings.host, self.settings.health_port, loop, self.settings.health_stalled_seconds
        ).start()

    def startup(self, app: Litestar) -> None:
        sys.setswitchinterval(SWITCH_INTERVAL)
        opened = self.store or open_store(self.settings.database_url, pool_size=self.settings.pool_size)
        if self.settings.migrate_on_start and opened.pending_migrations():
            # As the migration role when one is set (the app's own role may not change the schema).
            migration_url = self.settings.migration_database_url
            applied = migrate_database(self.settings.database_url, migration_url) if migration_url else opened.migrate()
            if applied:
                get_logger().info("migrations.applied", migrations=applied)
        app.state.store = opened
        app.state.records = Records(opened, self.rulesets, limits=app.state.limits)
        app.state.hot_pool = None
        # Resource imports run one at a time in a process: each may briefly hold several times its file.
        app.state.imports = anyio.Semaphore(1)
        # Every node seals read-your-writes tokens alike: the key is a setting or made once in the database.
        app.state.tokens = PositionTokens(self.settings.position_key or opened.server_secret(POSITION_SECRET))
        # One subscription per process to what changed in the database (service.notify): live streams
        # follow it, remembered credentials are forgotten on a revocation heard.
        app.state.hub = hub = Hub()
        if isinstance(opened, PostgresStore):
            hub.listen(opened.url)
        app.state.records.appended = hub.announce
        app.state.live = Live(hub, self.settings.live_poll_seconds)
        app.state.authenticator = Authenticator(
            opened, self.settings.operator_key, hub=hub, counter_on_loop=isinstance(opened, SqliteStore)
        )
        app.state.replicas = None
        if self.settings.read_database_urls:
            from service.store.replicas import ReplicaSet  # psycopg's pools, only where replicas are set

            app.state.replicas = ReplicaSet.from_settings(self.settings)
            if app.state.replicas is not None:
                app.state.replicas.start()
        app.state.projector = None
        if self.settings.run_projector:
            runners = [
                Runner(opened, projection, lease_seconds=self.settings.projector_lease_seconds)
                for projection in projections(opened, self.rulesets, snapshot_every=self.settings.snapshot_every)
            ]
            app.state.projector = ProjectorThread(
                runners,
                poll_seconds=self.settings.projector_poll_seconds,
                lag_warn_seconds=self.settings.projector_lag_warn_seconds,
            )
            app.state.projector.start()
        app.state.webhooks = None
        if self.settings.run_webhooks:
            settings = self.settings
            deliverer = Deliverer(
                opened,
                self.rulesets,
                timeout_seconds=settings.webhook_timeout_seconds,
                retry_seconds=settings.webhook_retry_seconds,
                max_attempts=settings.webhook_max_attempts,
                refuse_private=settings.webhook_refuse_private_addresses,
                on_attempt=self._webhook_metric(),
            )
            app.state.webhooks = WebhookThread(deliverer, poll_seconds=settings.webhook_poll_seconds)
            app.state.webhooks.start()
        # Everything built so far (modules, routes, schemas, rulesets) lives as long as the process: move
        # it out of the collector's sight, so a full collection scans only what requests create (without
        # this a worker paused about 60 ms per full collection under load; bench/).
        gc.freeze()

    def _webhook_metric(self) -> Callable[[bool], None] | None:
        if not self.settings.metrics:
            return None
        from service.http.metrics import webhook_attempt  # prometheus-client: the `ops` extra

        return webhook_attempt

    async def open_hot_path(self, app: Litestar) -> None:
        """The hot path on PostgreSQL awaits psycopg's async pool, opened on this worker's event loop."""
        if isinstance(app.state.store, PostgresStore):
            app.state.hot_pool = AsyncPostgresEvents(app.state.store.url, size=self.settings.pool_size)
            await app.state.hot_pool.open()
            app.state.records.loop_store = app.state.hot_pool

    async def close_hot_path(self, app: Litestar) -> None:
        if app.state.get("hot_pool") is not None:
            await app.state.hot_pool.close()

    def shutdown(self, app: Litestar) -> None:
        app.state.hub.close()
        if app.state.projector is not None:
            app.state.projector.stop()
        if app.state.get("webhooks") is not None:
            app.state.webhooks.stop()
        if app.state.get("replicas") is not None:
            app.state.replicas.close()
        if self.store is None:
            app.state.store.close()


def create_app(
    settings: Settings | None = None,
    rulesets: Rulesets | None = None,
    store: Store | None = None,
    configure_logs: bool = True,
) -> Litestar:
    """Build the app. The games it serves are `rulesets` when given (tests add their own), else the
    settings' (`Settings.rulesets`). A store given here (tests) is used as is; otherwise it is opened at
    start-up."""
    settings = settings or Settings.from_env()
    rulesets = settings.rulesets() if rulesets is None else rulesets
    forget_games()  # what this process remembers by stream id was of the database an earlier app opened
    if configure_logs:
        configure_logging(settings.log_format, settings.log_level, trace_ids=settings.tracing)
    handlers = exception_handlers()
    ops = operations(settings, handlers)
    app_state = State({"settings": settings, "limits": Limits.of(settings), "rulesets": rulesets})
    life = Lifecycle(settings, rulesets, store)
    return Litestar(
        dependencies={
            # Cheap enough for the event loop: keys are remembered (a miss is one indexed lookup).
            "principal": Provide(provide_principal, sync_to_thread=False),
            "rulesets": Provide(provide_rulesets, sync_to_thread=False),
            "context": Provide(provide_context),
            "words": Provide(provide_words, sync_to_thread=False),
        },
        route_handlers=[
            ClubController,
            GameController,
            *REPLAY_HANDLERS,
            *NOTE_HANDLERS,
            *LINE_HANDLERS,
            *COLLECTION_HANDLERS,
            *COMPETITION_HANDLERS,
            *REMOVALS,
            *RULESET_HANDLERS,
            *KEY_HANDLERS,
            *INTEGRATION_HANDLERS,
            *pages.handlers(),
            health,
            ready,
            docs.assets_router(),
            *guide.handlers(),
            *ops.handlers,
        ],
        lifespan=[life.lifespan],
        state=app_state,
        exception_handlers=handlers,
        middleware=[
            functools.partial(logging_middleware, observe=ops.observe),
            content_language_middleware,
            rate_limit_middleware(Limiter(settings)),
        ],
        plugins=ops.plugins,
        cors_config=ops.cors,
        request_class=BoundedRequest,
        request_max_body_size=settings.max_body_bytes,
        openapi_config=openapi_config(),
        template_config=pages.template_config(),
        debug=False,
    )


def app_factory() -> Litestar:
    """Entry point for `uvicorn --factory service.app:app_factory` (settings from the environment)."""
    return create_app(Settings.from_env())


__all__ = ["MediaType", "create_app"]
