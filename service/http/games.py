"""The games API: start a game, append its events, read its events, state, result and legal events."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

import anyio.to_thread
import msgspec
from litestar import Controller, Request, Response, get, post, put
from litestar.datastructures import ResponseHeader, State
from litestar.di import NamedDependency
from litestar.exceptions import ClientException, SerializationException
from litestar.params import FromPath, FromQuery, HeaderParameter, JSONBody, QueryParameter
from litestar.serialization import encode_json
from litestar.types import Scope

from domain.ruleset import Result
from service.http.caching import immutable
from service.http.dependencies import POSITION_HEADER, RequestContext, viewer_of
from service.http.guards import GUARDS, PUBLIC
from service.http.hot import Answered, hot_lane
from service.http.positions import PositionTokens
from service.http.wire import AppendBody, AppendDTO, AppendOut, append_body
from service.limits import MAX_INT, BoundedRequest, check_moment
from service.logs import bind, get_logger
from service.usecases.access import Principal
from service.usecases.games import NewGame
from service.usecases.spectators import records_horizon, released_records
from service.usecases.types import GameFilter, GameRecord, StoredEvent


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
    result_only: bool = False
    """Played at the table and recorded by its result only (G-6), not event by event."""


class TitleIn(msgspec.Struct, frozen=True, kw_only=True):
    """A game's title, as menus and lists show it (empty: its players are shown instead)."""

    title: Annotated[str, msgspec.Meta(max_length=200)]


class GamesOut(msgspec.Struct, frozen=True, kw_only=True):
    games: list[GameOut]


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


View = Literal["public", "seat", "full"]


class StateOut(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    version: int
    view: View
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
        result_only=game.result_only,
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


# -- the answers at every step: the handlers' own, and the hot lane's (service.http.hot) -----------------
async def _appended(
    context: RequestContext, tokens: PositionTokens, club_id: str, game_id: str, data: AppendBody, key: str | None
) -> AppendOut:
    result = await context.records.append_async(
        club_id, game_id, data.events, data.expected_version, context.recorder, key
    )
    bind(appended=len(data.events), version=result.last_version, replayed=result.replayed)
    return AppendOut.of(tokens, club_id, game_id, result)


async def _state_at(
    context: RequestContext, club_id: str, game_id: str, view: View, seat: int | None, version: int | None
) -> StateOut:
    """The state in `view` at `version` (None: the latest), as far as a spectator's delay has released it."""
    viewer = viewer_of(view, seat)
    principal, records = context.principal, context.records
    if not principal.sees_hidden:  # a spectator's read waits for the game's delay (read in a thread)
        stream = await records.stream_async(club_id, game_id)
        horizon = await anyio.to_thread.run_sync(records_horizon, records, principal, stream)
        if horizon is not None:
            version = min(version or horizon, horizon)
    at, state = await records.state_async(club_id, game_id, viewer, version)
    return StateOut(game_id=game_id, version=at, view=view, seat=seat, state=state)


_KEY_HEADER = b"idempotency-key"
_POSITION_HEADER = POSITION_HEADER.lower().encode()
KEY_MAX = 200
"""The longest Idempotency-Key taken (the append's header parameter: longer is a 400)."""


def _without_token(scope: Scope) -> bool:
    """No read-your-writes token in the headers (the handler's dependency opens one, or refuses it)."""
    return all(name != _POSITION_HEADER for name, _ in scope["headers"])


def _plain_append(scope: Scope) -> bool:
    """An append as every table sends it: no query, no read-your-writes token, at most one
    Idempotency-Key that the handler's header parameter takes."""
    if scope["query_string"]:
        return False
    keys = [value for name, value in scope["headers"] if name == _KEY_HEADER]
    if len(keys) > 1 or any(len(key) > KEY_MAX for key in keys):
        return False
    return _without_token(scope)


async def _append_answer(request: Request[Any, Any, Any], context: RequestContext) -> Answered:
    assert isinstance(request, BoundedRequest)  # the app's request class
    key = request.headers.get("idempotency-key")
    try:
        data = append_body(request, await request.body())
    except SerializationException as error:  # as litestar answers a body it cannot decode: a 400
        raise ClientException(str(error)) from error
    params = request.path_params
    out = await _appended(context, request.app.state.tokens, params["club_id"], params["game_id"], data, key)
    return 201, encode_json(out), [(_POSITION_HEADER, out.position.encode())]


_LATEST: dict[bytes, View] = {b"": "public", b"view=public": "public", b"view=full": "full"}
"""The queries of a read of the latest state the lane takes, and the view each asks for."""


def _latest_state(scope: Scope) -> bool:
    """A read of the latest state, public or full, with no read-your-writes token."""
    return scope["query_string"] in _LATEST and _without_token(scope)


async def _state_answer(request: Request[Any, Any, Any], context: RequestContext) -> Answered:
    view, params = _LATEST[request.scope["query_string"]], request.path_params
    return 200, encode_json(await _state_at(context, params["club_id"], params["game_id"], view, None, None)), []


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

    @post(
        "/",
        sync_to_thread=True,
        summary="Create a game: its first event records the set-up (with `result`, a game recorded by its result only)",
    )
    def create_game(
        self, club_id: FromPath[str], data: JSONBody[NewGame], context: NamedDependency[RequestContext]
    ) -> GameOut:
        record, result = context.records.create_game(club_id, data, context.recorder)
        bind(game_id=record.game_id)
        get_logger().info("game.created", ruleset=record.ruleset)
        return _game_out(msgspec.structs.replace(record, version=result.last_version))

    @get("/", sync_to_thread=True, summary="The club's games, filtered", opt=PUBLIC)
    def list_games(
        self,
        club_id: FromPath[str],
        state: State,
        principal: NamedDependency[Principal],
        ruleset: FromQuery[str | None] = None,
        player: FromQuery[str | None] = None,
        finished: FromQuery[bool | None] = None,
        created_from: Annotated[datetime | None, QueryParameter(name="from")] = None,
        created_to: Annotated[datetime | None, QueryParameter(name="to")] = None,
        limit: Annotated[int, QueryParameter(ge=1, le=500)] = 100,
        offset: Annotated[int, QueryParameter(ge=0, le=MAX_INT)] = 0,
    ) -> GamesOut:
        where = GameFilter(
            ruleset=ruleset,
            player_id=player,
            finished=finished,
            created_from=check_moment("from", created_from),
            created_to=check_moment("to", created_to),
            limit=limit,
            offset=offset,
        )
        records = released_records(state.records, principal)  # a spectator's, as the delays released the games
        return GamesOut(games=[_game_out(g) for g in records.list_games(club_id, where)])

    @get("/{game_id:str}", summary="A game's listing", opt=PUBLIC)
    async def get_game(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        context: NamedDependency[RequestContext],
    ) -> GameOut:
        return _game_out(await context.records.game_async(club_id, game_id))

    @put(
        "/{game_id:str}/title",
        sync_to_thread=True,
        summary="Give a game a new title (its listing's; the record is unchanged)",
    )
    def set_title(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        data: JSONBody[TitleIn],
        context: NamedDependency[RequestContext],
    ) -> GameOut:
        return _game_out(context.records.set_title(club_id, game_id, data.title))

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
        dto=AppendDTO,
        return_dto=None,
        middleware=[hot_lane(_plain_append, _append_answer)],
    )
    async def append(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        data: JSONBody[AppendBody],
        context: NamedDependency[RequestContext],
        state: State,
        idempotency_key: Annotated[str | None, HeaderParameter(name="Idempotency-Key", max_length=KEY_MAX)] = None,
    ) -> Response[AppendOut]:
        out = await _appended(context, state.tokens, club_id, game_id, data, idempotency_key)
        return Response(out, status_code=201, headers={POSITION_HEADER: out.position})

    @get("/{game_id:str}/events", sync_to_thread=True, summary="A game's events, paged by version")
    def read_events(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        context: NamedDependency[RequestContext],
        after: Annotated[int, QueryParameter(ge=0, le=MAX_INT)] = 0,
        limit: Annotated[int, QueryParameter(ge=1, le=1000)] = 100,
    ) -> EventsOut:
        events = context.records.events(club_id, game_id, after, limit)
        return EventsOut(
            game_id=game_id,
            events=[_event_out(e) for e in events],
            next_after=events[-1].version if len(events) == limit else None,
        )

    @get(
        "/{game_id:str}/state",
        summary="The state at a version, in a view (a spectate key: public, behind the spectator delay)",
        opt=PUBLIC,
        middleware=[hot_lane(_latest_state, _state_answer)],
    )
    async def read_state(
        self,
        request: Request[Any, Any, Any],
        club_id: FromPath[str],
        game_id: FromPath[str],
        context: NamedDependency[RequestContext],
        view: FromQuery[Literal["public", "seat", "full"]] = "public",
        seat: Annotated[int | None, QueryParameter(ge=0, le=MAX_INT)] = None,
        version: Annotated[int | None, QueryParameter(ge=1, le=MAX_INT)] = None,
    ) -> Response[StateOut]:
        out = await _state_at(context, club_id, game_id, view, seat, version)
        # At a version asked for and reached (not held back by the spectator delay), the answer never
        # changes (service.http.caching).
        return immutable(request, out) if version is not None and out.version == version else Response(out)

    @get("/{game_id:str}/result", summary="The game's result (finished or not)")
    async def read_result(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        context: NamedDependency[RequestContext],
        view: FromQuery[Literal["public", "seat", "full"]] = "public",
        seat: Annotated[int | None, QueryParameter(ge=0, le=MAX_INT)] = None,
    ) -> ResultOut:
        """Scores as the view asked may know them (G-2): until the game is over, a card the viewer has
        not seen counts for nothing (a face-down convoy, captured cards lying face down)."""
        viewer = viewer_of(view, seat)
        version, result = await context.records.result_async(club_id, game_id, viewer)
        return ResultOut(game_id=game_id, version=version, result=result)

    @get("/{game_id:str}/legal", summary="The events a seat may report now")
    async def legal(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        seat: Annotated[int, QueryParameter(ge=0, le=MAX_INT)],
        context: NamedDependency[RequestContext],
    ) -> LegalOut:
        version, events = await context.records.legal_events_async(club_id, game_id, seat)
        return LegalOut(
            game_id=game_id,
            version=version,
            seat=seat,
            enumerable=events is not None,
            events=[msgspec.to_builtins(e) for e in events or []],
        )
