"""The HTTP API (litestar). `create_app(settings)` is the one composition root: nothing is opened at
import time; the store is opened (and migrated) at start-up and closed at shutdown."""

from __future__ import annotations

import gc
import sys
import time
import uuid
from datetime import datetime
from typing import Annotated, Any, Literal

import anyio.to_thread
import msgspec
from litestar import Controller, Litestar, MediaType, Request, Response, get, post
from litestar.datastructures import ResponseHeader, State
from litestar.di import NamedDependency, Provide
from litestar.exceptions import PermissionDeniedException, ValidationException
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme
from litestar.params import FromPath, FromQuery, HeaderParameter, JSONBody, QueryParameter
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from domain import registry
from domain.ruleset import Result, Viewer
from service import api_docs, api_rulesets
from service.auth import Authenticator, Principal
from service.errors import exception_handlers, problem
from service.guards import (
    GUARDS,
    OPERATOR,
    PUBLIC,
    bearer,
    check,
    club_exists,
    is_operator,
    spectator_horizon,
    unauthorized,
)
from service.limits import CLUB_ID_PATTERN, ID_PATTERN, MAX_INT, BoundedRequest, Count, Limits, check_moment
from service.live import Live
from service.logs import bind, configure_logging, get_logger, request_context
from service.notify import Hub
from service.positions import SECRET_NAME as POSITION_SECRET
from service.positions import BadToken, PositionTokens
from service.projector import PROJECTION_NAMES, ProjectorThread, Runner, lags, projections
from service.ratelimit import Limiter, rate_limit_middleware
from service.records import SWITCH_INTERVAL, GameRecords, NewGame, NotFound
from service.settings import Settings
from service.store import open_store
from service.store.base import AppendResult, GameFilter, GameRecord, Recorder, Store, StoredEvent
from service.store.postgres import AsyncPostgresEvents, PostgresStore
from service.store.roles import migrate_database

API_VERSION = "0.1.0"


# -- wire structs -----------------------------------------------------------------------------------
class ClubIn(msgspec.Struct, frozen=True, kw_only=True):
    club_id: Annotated[str, msgspec.Meta(pattern=CLUB_ID_PATTERN)]
    name: Annotated[str, msgspec.Meta(min_length=1)]


class ClubOut(msgspec.Struct, frozen=True, kw_only=True):
    club_id: str
    name: str
    created_at: datetime


POSITION_HEADER = "Tablelog-Position"
POSITION_DOC = (
    "Read-your-writes with read replicas: the token an append answered (its `Tablelog-Position` header, or "
    "`position` in its body), sent back as it is. The read is served by a replica that has caught up with "
    "that append, else by the primary. Writes ignore it. A token is opaque and opens only for the club it "
    "was given to; anything else (such as the number older versions answered) is refused with a 400."
)


class PlayerIn(msgspec.Struct, frozen=True, kw_only=True):
    player_id: Annotated[str, msgspec.Meta(pattern=ID_PATTERN)]
    name: Annotated[str, msgspec.Meta(min_length=1)]


class PlayerOut(msgspec.Struct, frozen=True, kw_only=True):
    player_id: str
    name: str
    created_at: datetime


class GameOut(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    ruleset: str
    ruleset_version: str
    player_ids: tuple[str, ...]
    title: str
    created_at: datetime
    version: int
    finished: bool
    finished_at: datetime | None


class GamesOut(msgspec.Struct, frozen=True, kw_only=True):
    games: list[GameOut]


class AppendIn(msgspec.Struct, frozen=True, kw_only=True):
    """A batch of events, appended only if the game is at `expected_version`. Each event is an object
    whose `type` names it (see `GET /rulesets` for each ruleset's event types)."""

    expected_version: Count
    events: list[dict[str, Any]]


class AppendOut(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    first_version: int
    last_version: int
    position: str
    """Read-your-writes token (also the `Tablelog-Position` header): opaque, see `service.positions`."""
    replayed: bool

    @classmethod
    def of(cls, tokens: PositionTokens, club_id: str, game_id: str, result: AppendResult) -> AppendOut:
        """The answer to an append of `game_id` (the API's, and the recording page's). Its global positions
        stay sealed in the token: their gaps would tell how much other clubs write (issue 13 part 10)."""
        return cls(
            game_id=game_id,
            first_version=result.first_version,
            last_version=result.last_version,
            position=tokens.seal(club_id, max(result.positions, default=0)),
            replayed=result.replayed,
        )


class EventOut(msgspec.Struct, frozen=True, kw_only=True):
    """An event of a game, numbered by its version in the game (never by its global position)."""

    version: int
    type: str
    schema_version: int
    recorded_at: datetime
    club_id: str
    key_id: str | None
    data: dict[str, Any]


class EventsOut(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    events: list[EventOut]
    next_after: int | None
    """Pass as `after` to read the next page; null at the end."""


class StateOut(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    version: int
    view: Literal["public", "seat", "full"]
    seat: int | None
    state: Any


class ResultOut(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    version: int
    result: Result


class LegalOut(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    version: int
    seat: int
    enumerable: bool
    events: list[dict[str, Any]]


class ResourceOut(msgspec.Struct, frozen=True, kw_only=True):
    ruleset: str
    kind: str
    resource_id: str
    version: int
    content_hash: str
    created_at: datetime


class Health(msgspec.Struct, frozen=True, kw_only=True):
    status: str
    checks: dict[str, Any] = msgspec.field(default_factory=dict)


def _game_out(game: GameRecord) -> GameOut:
    return GameOut(
        game_id=game.game_id,
        ruleset=game.ruleset,
        ruleset_version=game.ruleset_version,
        player_ids=game.player_ids,
        title=game.title,
        created_at=game.created_at,
        version=game.version,
        finished=game.finished,
        finished_at=game.finished_at,
    )


def _event_out(event: StoredEvent) -> EventOut:
    return EventOut(
        version=event.version,
        type=event.type,
        schema_version=event.schema_version,
        recorded_at=event.recorded_at,
        club_id=event.club_id,
        key_id=event.key_id,
        data=msgspec.json.decode(event.data),
    )


# -- dependencies ---------------------------------------------------------------------------------------
def provide_principal(request: Request[Any, Any, Any], state: State) -> Principal:
    """The caller, as the guard found it (`service.guards`); for a handler without the guard, from its
    bearer token (401 without) with the guard's default rule: a read key reads, a record key writes."""
    principal = request.scope["state"].get("principal")
    if principal is None:
        principal = state.authenticator(bearer(request))
        if principal is None:
            raise unauthorized(state.authenticator)
        check(
            principal,
            "read" if request.method in ("GET", "HEAD") else "write",
            request.path_params.get("club_id"),
            request.query_params.get("view"),
        )
    if principal.club_id:
        bind(key_id=principal.key_id)
    return principal


async def provide_records(
    request: Request[Any, Any, Any],
    state: State,
    principal: NamedDependency[Principal],
    tablelog_position: Annotated[
        str | None, HeaderParameter(name=POSITION_HEADER, required=False, max_length=100, description=POSITION_DOC)
    ] = None,
    position: Annotated[str | None, QueryParameter(max_length=100, description=POSITION_DOC)] = None,
) -> GameRecords:
    """The game records, handed out once the caller is known; a read's records read through a replica
    when the node has some (`service.store.replicas`), one that has replayed the position asked for.

    Taking the principal orders the two dependencies: litestar resolves independent dependencies
    concurrently in a task group, which cost more than the rest of the dependency work per request
    (bench/: `python -m bench.profile http`)."""
    del principal
    token, source = (tablelog_position, "header") if tablelog_position is not None else (position, "query")
    # Opened whether or not this node has replicas, so a client learns of a bad token on any deployment.
    wanted = None if token is None else _opened(state.tokens, request.path_params.get("club_id", ""), token, source)
    replicas = state.get("replicas")
    if replicas is None or request.method != "GET":
        return state.records
    return state.records.reading_from(await replicas.read_store(state.store, wanted))


def _opened(tokens: PositionTokens, club_id: str, token: str, source: str) -> int:
    try:
        return tokens.open(club_id, token)
    except BadToken:
        field = POSITION_HEADER if source == "header" else "position"
        raise ValidationException(
            detail=f"{field} is not a read-your-writes token this service gave to club {club_id!r}: send back "
            f"the `{POSITION_HEADER}` of one of its appends as it is (tokens are opaque; the numbers older "
            "versions answered are no longer taken).",
            extra=[{"key": field, "message": "not a read-your-writes token of this club", "source": source}],
        ) from None


def _require_club(principal: NamedDependency[Principal], club_id: FromPath[str]) -> Recorder:
    """A club's key reaches only its own club; the operator reaches every club."""
    if not principal.operator and principal.club_id != club_id:
        raise PermissionDeniedException(detail="This key belongs to another club.")
    return Recorder(club_id=club_id, key_id=principal.key_id)


def _require_operator(principal: NamedDependency[Principal]) -> None:
    if not principal.operator:
        raise PermissionDeniedException(detail="Only the operator key may do this.")


def _viewer(view: str, seat: int | None) -> Viewer:
    if view == "seat":
        if seat is None:
            raise ValidationException(
                detail="A seat view needs the seat number: add ?seat=N.",
                extra=[{"key": "seat", "message": "required with view=seat", "source": "query"}],
            )
        return Viewer.of_seat(seat)
    return Viewer(kind=view)  # type: ignore[arg-type]


# -- controllers ----------------------------------------------------------------------------------------
class ClubController(Controller):
    path = "/clubs"
    tags = ("clubs",)
    guards = GUARDS

    @post("/", sync_to_thread=True, summary="Create a club (operator key)", opt=OPERATOR)
    def create_club(self, data: JSONBody[ClubIn], principal: NamedDependency[Principal], state: State) -> ClubOut:
        _require_operator(principal)
        club = state.store.create_club(data.club_id, data.name)
        get_logger(club_id=club.club_id).info("club.created")
        return ClubOut(club_id=club.club_id, name=club.name, created_at=club.created_at)

    @get("/{club_id:str}", sync_to_thread=True, summary="A club", opt=PUBLIC)
    def get_club(self, club_id: FromPath[str], principal: NamedDependency[Principal], state: State) -> ClubOut:
        _require_club(principal, club_id)
        club = state.store.get_club(club_id)
        if club is None:
            raise NotFound("club", club_id)
        return ClubOut(club_id=club.club_id, name=club.name, created_at=club.created_at)

    @post("/{club_id:str}/players", sync_to_thread=True, summary="Add a player to the club")
    def create_player(
        self, club_id: FromPath[str], data: JSONBody[PlayerIn], principal: NamedDependency[Principal], state: State
    ) -> PlayerOut:
        _require_club(principal, club_id)
        player = state.store.create_player(club_id, data.player_id, data.name)
        return PlayerOut(player_id=player.player_id, name=player.name, created_at=player.created_at)

    @get("/{club_id:str}/players", sync_to_thread=True, summary="The club's players", opt=PUBLIC)
    def list_players(
        self, club_id: FromPath[str], principal: NamedDependency[Principal], state: State
    ) -> list[PlayerOut]:
        _require_club(principal, club_id)
        return [
            PlayerOut(player_id=p.player_id, name=p.name, created_at=p.created_at)
            for p in state.store.list_players(club_id)
        ]

    @post(
        "/{club_id:str}/resources/{ruleset:str}/{kind:str}/{resource_id:str}",
        summary="Import a club resource (a card catalogue, a scenario) as a new immutable version",
        description="The request body is the file itself (CSV, .m44 JSON...), read as bytes whatever its "
        "content type, and validated row by row.",
    )
    async def import_resource(
        self,
        club_id: FromPath[str],
        ruleset: FromPath[str],
        kind: FromPath[str],
        resource_id: FromPath[str],
        request: Request[Any, Any, Any],
        principal: NamedDependency[Principal],
        records: NamedDependency[GameRecords],
    ) -> ResourceOut:
        _require_club(principal, club_id)
        # Read as bytes ourselves: a JSON scenario must not be parsed as a request body.
        data = await request.body()
        stored = await anyio.to_thread.run_sync(records.import_resource, club_id, ruleset, kind, resource_id, data)
        get_logger(club_id=club_id).info(
            "resource.imported", ruleset=ruleset, kind=kind, resource_id=resource_id, version=stored.version
        )
        return ResourceOut(
            ruleset=stored.ruleset,
            kind=stored.kind,
            resource_id=stored.resource_id,
            version=stored.version,
            content_hash=stored.content_hash,
            created_at=stored.created_at,
        )

    @get("/{club_id:str}/resources", sync_to_thread=True, summary="The club's imported resources")
    def list_resources(
        self, club_id: FromPath[str], principal: NamedDependency[Principal], state: State
    ) -> list[ResourceOut]:
        _require_club(principal, club_id)
        return [
            ResourceOut(
                ruleset=r.ruleset,
                kind=r.kind,
                resource_id=r.resource_id,
                version=r.version,
                content_hash=r.content_hash,
                created_at=r.created_at,
            )
            for r in state.store.list_resources(club_id)
        ]


class GameController(Controller):
    """A club's games. The handlers a scorekeeper's table calls at every step (append, state, result,
    legal events, the listing) run on the event loop and await the store (psycopg's async pool on
    PostgreSQL, `GameRecords.loop_store`): handing them to a worker thread cost more CPU than the work itself
    (bench/), and waiting on the database there held the loop. A fold from the start (the first of a game
    in a process, an earlier version) and a large batch are computed in a worker thread (`records.heavy`),
    so a long game never holds the loop. Work that can run long (lists, imports, replays, live streams)
    stays in worker threads."""

    path = "/clubs/{club_id:str}/games"
    tags = ("games",)
    guards = GUARDS

    @post("/", sync_to_thread=True, summary="Create a game: its first event records the set-up")
    def create_game(
        self,
        club_id: FromPath[str],
        data: JSONBody[NewGame],
        principal: NamedDependency[Principal],
        records: NamedDependency[GameRecords],
    ) -> GameOut:
        recorder = _require_club(principal, club_id)
        record, result = records.create_game(club_id, data, recorder)
        bind(game_id=record.game_id)
        get_logger().info("game.created", ruleset=record.ruleset)
        return _game_out(msgspec.structs.replace(record, version=result.last_version))

    @get("/", sync_to_thread=True, summary="The club's games, filtered", opt=PUBLIC)
    def list_games(
        self,
        club_id: FromPath[str],
        principal: NamedDependency[Principal],
        state: State,
        ruleset: FromQuery[str | None] = None,
        player: FromQuery[str | None] = None,
        finished: FromQuery[bool | None] = None,
        created_from: Annotated[datetime | None, QueryParameter(name="from")] = None,
        created_to: Annotated[datetime | None, QueryParameter(name="to")] = None,
        limit: Annotated[int, QueryParameter(ge=1, le=500)] = 100,
        offset: Annotated[int, QueryParameter(ge=0, le=MAX_INT)] = 0,
    ) -> GamesOut:
        _require_club(principal, club_id)
        where = GameFilter(
            ruleset=ruleset,
            player_id=player,
            finished=finished,
            created_from=check_moment("from", created_from),
            created_to=check_moment("to", created_to),
            limit=limit,
            offset=offset,
        )
        return GamesOut(games=[_game_out(g) for g in state.store.list_games(club_id, where)])

    @get("/{game_id:str}", summary="A game's listing", opt=PUBLIC)
    async def get_game(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        principal: NamedDependency[Principal],
        records: NamedDependency[GameRecords],
    ) -> GameOut:
        _require_club(principal, club_id)
        return _game_out(await records.game_async(club_id, game_id))

    @post(
        "/{game_id:str}/events",
        status_code=201,
        summary="Append a batch of events (checked by the rules; all or nothing)",
        response_headers=[
            ResponseHeader(
                name=POSITION_HEADER,
                description="A read-your-writes token (opaque): send it back on a read to read your writes.",
                documentation_only=True,
            )
        ],
    )
    async def append(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        data: JSONBody[AppendIn],
        principal: NamedDependency[Principal],
        records: NamedDependency[GameRecords],
        state: State,
        idempotency_key: Annotated[str | None, HeaderParameter(name="Idempotency-Key", max_length=200)] = None,
    ) -> Response[AppendOut]:
        recorder = _require_club(principal, club_id)
        result = await records.append_async(
            club_id, game_id, data.events, data.expected_version, recorder, idempotency_key
        )
        bind(appended=len(data.events), version=result.last_version, replayed=result.replayed)
        out = AppendOut.of(state.tokens, club_id, game_id, result)
        return Response(out, status_code=201, headers={POSITION_HEADER: out.position})

    @get("/{game_id:str}/events", sync_to_thread=True, summary="A game's events, paged by version")
    def read_events(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        principal: NamedDependency[Principal],
        records: NamedDependency[GameRecords],
        after: Annotated[int, QueryParameter(ge=0, le=MAX_INT)] = 0,
        limit: Annotated[int, QueryParameter(ge=1, le=1000)] = 100,
    ) -> EventsOut:
        _require_club(principal, club_id)
        events = records.events(club_id, game_id, after, limit)
        return EventsOut(
            game_id=game_id,
            events=[_event_out(e) for e in events],
            next_after=events[-1].version if len(events) == limit else None,
        )

    @get(
        "/{game_id:str}/state",
        summary="The state at a version, in a view (a spectate key: public, behind the spectator delay)",
        opt=PUBLIC,
    )
    async def read_state(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        principal: NamedDependency[Principal],
        records: NamedDependency[GameRecords],
        view: FromQuery[Literal["public", "seat", "full"]] = "public",
        seat: Annotated[int | None, QueryParameter(ge=0, le=MAX_INT)] = None,
        version: Annotated[int | None, QueryParameter(ge=1, le=MAX_INT)] = None,
    ) -> StateOut:
        _require_club(principal, club_id)
        viewer = _viewer(view, seat)
        if not principal.sees_hidden:  # a spectator's read waits for the game's delay (read in a thread)
            stream = await records.stream_async(club_id, game_id)
            horizon = await anyio.to_thread.run_sync(spectator_horizon, records.store, principal, stream)
            if horizon is not None:
                version = min(version or horizon, horizon)
        at, state = await records.state_async(club_id, game_id, viewer, version)
        return StateOut(game_id=game_id, version=at, view=view, seat=seat, state=state)

    @get("/{game_id:str}/result", summary="The game's result (finished or not)")
    async def read_result(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        principal: NamedDependency[Principal],
        records: NamedDependency[GameRecords],
        view: FromQuery[Literal["public", "seat", "full"]] = "public",
        seat: Annotated[int | None, QueryParameter(ge=0, le=MAX_INT)] = None,
    ) -> ResultOut:
        """Scores as the view asked may know them (G-2): until the game is over, a card the viewer has
        not seen counts for nothing (a face-down convoy, captured cards lying face down)."""
        _require_club(principal, club_id)
        viewer = _viewer(view, seat)
        version, result = await records.result_async(club_id, game_id, viewer)
        return ResultOut(game_id=game_id, version=version, result=result)

    @get("/{game_id:str}/legal", summary="The events a seat may report now")
    async def legal(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        seat: Annotated[int, QueryParameter(ge=0, le=MAX_INT)],
        principal: NamedDependency[Principal],
        records: NamedDependency[GameRecords],
    ) -> LegalOut:
        _require_club(principal, club_id)
        version, events = await records.legal_events_async(club_id, game_id, seat)
        return LegalOut(
            game_id=game_id,
            version=version,
            seat=seat,
            enumerable=events is not None,
            events=[msgspec.to_builtins(e) for e in events or []],
        )


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
def logging_middleware(app: ASGIApp) -> ASGIApp:
    """Bind request id, club and game to every log line of a request; write one summary line."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        headers = dict(scope.get("headers", []))
        request_id = headers.get(b"x-request-id", b"").decode("latin-1")[:100] or uuid.uuid4().hex
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
        with request_context(request_id=request_id, **ids):
            try:
                await app(scope, receive, send_wrapper)
            finally:
                get_logger().info(
                    "request.finished",
                    method=scope.get("method"),
                    path=scope["path"],
                    status=status,
                    duration_ms=round((time.perf_counter() - started) * 1000, 2),
                )

    return middleware


# -- the app --------------------------------------------------------------------------------------------
def openapi_config() -> OpenAPIConfig:
    return OpenAPIConfig(
        title="tablelog",
        version=API_VERSION,
        description="Event-sourced game records and replays for tabletop clubs. Errors are RFC 9457 "
        "problem details (application/problem+json).",
        path=api_docs.DOCS_PATH,
        render_plugins=api_docs.render_plugins(),
        components=Components(security_schemes={"bearer": SecurityScheme(type="http", scheme="bearer")}),
        security=[{"bearer": []}],
    )


def create_app(settings: Settings | None = None, store: Store | None = None, configure_logs: bool = True) -> Litestar:
    """Build the app. A store given here (tests) is used as is; otherwise it is opened at start-up."""
    settings = settings or Settings.from_env()
    registry.load_modules(m for m in settings.extra_rulesets.split(",") if m.strip())
    if configure_logs:
        configure_logging(settings.log_format, settings.log_level)
    app_state = State({"settings": settings, "limits": Limits.of(settings)})
    own_store = store is None

    def startup(app: Litestar) -> None:
        sys.setswitchinterval(SWITCH_INTERVAL)
        opened = store or open_store(settings.database_url, pool_size=settings.pool_size)
        if settings.migrate_on_start and opened.pending_migrations():
            # As the migration role when one is set (the app's own role may not change the schema).
            migration_url = settings.migration_database_url
            applied = migrate_database(settings.database_url, migration_url) if migration_url else opened.migrate()
            if applied:
                get_logger().info("migrations.applied", migrations=applied)
        app.state.store = opened
        app.state.records = GameRecords(opened, limits=app.state.limits)
        app.state.hot_pool = None
        # Every node seals read-your-writes tokens alike: the key is a setting or made once in the database.
        app.state.tokens = PositionTokens(settings.position_key or opened.server_secret(POSITION_SECRET))
        # One subscription per process to what changed in the database (service.notify): live streams
        # follow it, remembered credentials are forgotten on a revocation heard.
        app.state.hub = hub = Hub()
        if isinstance(opened, PostgresStore):
            hub.listen(opened.url)
        app.state.records.appended = hub.announce
        app.state.live = Live(hub, settings.live_poll_seconds)
        app.state.authenticator = Authenticator(opened, settings.operator_key, hub=hub)
        app.state.replicas = None
        if settings.read_database_urls:
            from service.store.replicas import ReplicaSet  # psycopg's pools, only where replicas are set

            app.state.replicas = ReplicaSet.from_settings(settings)
            if app.state.replicas is not None:
                app.state.replicas.start()
        app.state.projector = None
        if settings.run_projector:
            # Load the built-in games here, before the projector thread and the request threads both ask
            # the registry for them.
            registry.all_rulesets()
            runners = [
                Runner(opened, projection, lease_seconds=settings.projector_lease_seconds)
                for projection in projections(opened, snapshot_every=settings.snapshot_every)
            ]
            app.state.projector = ProjectorThread(
                runners,
                poll_seconds=settings.projector_poll_seconds,
                lag_warn_seconds=settings.projector_lag_warn_seconds,
            )
            app.state.projector.start()
        # Everything built so far (modules, routes, schemas, rulesets) lives as long as the process: move
        # it out of the collector's sight, so a full collection scans only what requests create (without
        # this a worker paused about 60 ms per full collection under load; bench/).
        gc.freeze()

    async def open_hot_path(app: Litestar) -> None:
        """The hot path on PostgreSQL awaits psycopg's async pool, opened on this worker's event loop."""
        if isinstance(app.state.store, PostgresStore):
            app.state.hot_pool = AsyncPostgresEvents(app.state.store.url, max_size=settings.pool_size)
            await app.state.hot_pool.open()
            app.state.records.loop_store = app.state.hot_pool

    async def close_hot_path(app: Litestar) -> None:
        if app.state.get("hot_pool") is not None:
            await app.state.hot_pool.close()

    def shutdown(app: Litestar) -> None:
        app.state.hub.close()
        if app.state.projector is not None:
            app.state.projector.stop()
        if app.state.get("replicas") is not None:
            app.state.replicas.close()
        if own_store:
            app.state.store.close()

    return Litestar(
        dependencies={
            # Cheap enough for the event loop: keys are remembered (a miss is one indexed lookup).
            "principal": Provide(provide_principal, sync_to_thread=False),
            "records": Provide(provide_records),
        },
        route_handlers=[
            ClubController,
            GameController,
            *projection_handlers(),
            *api_rulesets.HANDLERS,
            *access_handlers(),
            health,
            ready,
            api_docs.assets_router(),
        ],
        on_startup=[startup, open_hot_path],
        on_shutdown=[close_hot_path, shutdown],
        state=app_state,
        exception_handlers=exception_handlers(),
        middleware=[logging_middleware, rate_limit_middleware(Limiter(settings))],
        guards=[club_exists],
        request_class=BoundedRequest,
        request_max_body_size=settings.max_body_bytes,
        openapi_config=openapi_config(),
        template_config=pages_template_config(),
        type_encoders={msgspec.Struct: msgspec.to_builtins},
        debug=False,
    )


def projection_handlers() -> list[Any]:
    """Replays, live spectating, leagues and campaigns (imported here: they build on this module)."""
    from service.api_competitions import HANDLERS as COMPETITIONS
    from service.api_projections import HANDLERS

    return [*HANDLERS, *COMPETITIONS]


def access_handlers() -> list[Any]:
    """Keys, share links and the club's pages (`service.keys_api`, `service.pages`)."""
    from service.keys_api import HANDLERS as KEY_HANDLERS
    from service.pages import handlers

    return [*KEY_HANDLERS, *handlers()]


def pages_template_config() -> Any:
    from service.pages import template_config

    return template_config()


def app_factory() -> Litestar:
    """Entry point for `uvicorn --factory service.app:app_factory` (settings from the environment)."""
    return create_app(Settings.from_env())


__all__ = ["MediaType", "create_app"]
