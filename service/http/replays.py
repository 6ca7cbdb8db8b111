"""The HTTP API of replays: a game told step by step, the state after any step, what a correction
changed in standings and campaigns, the spectator delay, and live spectating (server-sent events).

Replays fold the game's own stream, seeking from the snapshots the projector stores
(`service.usecases.replays`). The service never names a game: everything goes through the ruleset found
by name.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from litestar import Controller, Request, Response, get, put
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import FromPath, FromQuery, HeaderParameter, JSONBody, PathParameter, QueryParameter
from litestar.response import ServerSentEvent

from projections.replay import Replay, StepView
from service.http.caching import immutable, revalidated
from service.http.dependencies import RequestContext, viewer_of
from service.http.guards import GUARDS, PUBLIC
from service.http.live import LiveGame
from service.http.ratelimit import LIVE_STREAM
from service.limits import MAX_INT
from service.usecases.replays import Corrections, GameChangesOut, Replays
from service.usecases.spectators import Spectators
from service.usecases.types import SpectatorDelay


class DelayIn(msgspec.Struct, frozen=True, kw_only=True):
    """Spectators see the game `events` events and / or `seconds` seconds behind the record."""

    events: Annotated[int, msgspec.Meta(ge=0, le=10_000)] = 0
    seconds: Annotated[int, msgspec.Meta(ge=0, le=86_400)] = 0


class ReplayController(Controller):
    path = "/clubs/{club_id:str}/games/{game_id:str}"
    tags = ("replays",)
    guards = GUARDS

    @get("/replay", sync_to_thread=True, summary="A game told step by step, with its chapter index", opt=PUBLIC)
    def read_replay(
        self,
        request: Request[Any, Any, Any],
        club_id: FromPath[str],
        game_id: FromPath[str],
        context: NamedDependency[RequestContext],
        view: FromQuery[Literal["public", "seat", "full"]] = "public",
        seat: Annotated[int | None, QueryParameter(ge=0, le=MAX_INT)] = None,
    ) -> Response[Replay]:
        """Every step (narration, seat, chapters; voided events shown as what they were, marked with the
        correction that voided them) and the first step of every chapter, to jump by. The narration is
        told for the view asked (G-2): the public's never names a card the public has not seen, a seat's
        names its own draws, the full record's tells everything."""
        replay = Replays.of(context.records).replay(
            context.principal, club_id, game_id, viewer_of(view, seat), words=context.words
        )
        return revalidated(request, replay)

    @get(
        "/replay/{step:int}",
        sync_to_thread=True,
        summary="The state after a step in a view, and what changed",
        opt=PUBLIC,
    )
    def read_step(
        self,
        request: Request[Any, Any, Any],
        club_id: FromPath[str],
        game_id: FromPath[str],
        step: Annotated[int, PathParameter(ge=0, le=MAX_INT)],
        context: NamedDependency[RequestContext],
        view: FromQuery[Literal["public", "seat", "full"]] = "public",
        seat: Annotated[int | None, QueryParameter(ge=0, le=MAX_INT)] = None,
    ) -> Response[StepView]:
        """Seeks from the nearest stored snapshot: at most `snapshot_every` events are folded. `said` tells
        what changed in the game's own words, in the reader's language (G-2: as the view asked may know it).
        A step never changes once recorded (a later correction is a later step): it carries a strong `ETag`
        and may be kept; asked again with `If-None-Match`, it is a 304."""
        found = Replays.of(context.records).step(
            context.principal, club_id, game_id, step, viewer_of(view, seat), words=context.words
        )
        return immutable(request, found)

    @get(
        "/changes",
        sync_to_thread=True,
        summary="What a correction of this game changed in standings and campaigns",
        opt=PUBLIC,
    )
    def read_changes(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        context: NamedDependency[RequestContext],
        correction: Annotated[
            int | None,
            QueryParameter(
                ge=1, le=MAX_INT, description="the correction's version; default the latest that changed the outcome"
            ),
        ] = None,
    ) -> GameChangesOut:
        return Corrections.of(context.records).changes(club_id, game_id, correction)

    @put("/spectator-delay", sync_to_thread=True, summary="Set how far behind the record spectators see the game")
    def set_delay(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        data: JSONBody[DelayIn],
        context: NamedDependency[RequestContext],
        state: State,
    ) -> SpectatorDelay:
        stream = context.records.stream(club_id, game_id)
        delay = Spectators.of(context.records).set_delay(stream, data.events, data.seconds)
        # This process's streams look again now (others hear it from the database).
        state.hub.appended(stream, None)
        return delay

    @get(
        "/spectator-delay", sync_to_thread=True, summary="How far behind the record spectators see the game", opt=PUBLIC
    )
    def read_delay(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        context: NamedDependency[RequestContext],
    ) -> SpectatorDelay:
        return Spectators.of(context.records).delay(context.records.stream(club_id, game_id))

    @get(
        "/live",
        sync_to_thread=True,
        summary="Server-sent events: each new step, narrated, with the public state",
        opt=PUBLIC | LIVE_STREAM,
    )
    def live(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        context: NamedDependency[RequestContext],
        state: State,
        last_event_id: Annotated[
            int | None, HeaderParameter(name="Last-Event-ID", required=False, ge=0, le=MAX_INT)
        ] = None,
        after: Annotated[
            int | None, QueryParameter(ge=0, le=MAX_INT, description="resume after this step (as Last-Event-ID)")
        ] = None,
    ) -> ServerSentEvent:
        """Each message is an event `step` whose id is the step's version and whose data is the step
        (narration, seat, chapters) and the public state after it. Reconnect with `Last-Event-ID` to
        resume without loss or duplicates. With a spectator delay, steps are held back until they are
        that many events or seconds old."""
        replays = Replays.of(context.records)
        record, ruleset = replays.game(club_id, game_id)
        resume = max(0, last_event_id if last_event_id is not None else (after or 0))
        live = LiveGame(state.live, replays, ruleset, record.stream_id, resume, context.words.language)
        settings = state.settings
        return ServerSentEvent(
            live.messages(
                settings.live_poll_seconds,
                settings.live_keepalive_seconds,
                state.authenticator.watch(context.principal),
            )
        )


HANDLERS = [ReplayController]
