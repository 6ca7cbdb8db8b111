"""What integrators call (issue 30 parts 3 and 4): a club's webhooks, its export over HTTP and its change
feed.

- Webhooks (`service.usecases.webhooks`): a `record` key registers, lists, turns on and off and removes
  them, reads each one's delivery log and has messages sent again from one of it. The signing secret is
  shown once, when registered.
- The club export (`GET /clubs/{club}/export`, a `record` key): the document `tablelog club export` writes,
  byte for byte, streamed a game at a time.
- The change feed (`GET /clubs/{club}/feed`, a `read` or `spectate` key): every event of the club's games
  and tournaments in the order recorded, as the public may know it (`service.usecases.club_feed`) and told
  in the reader's language, a page at a time (JSON or JSON Lines) or as a stream of server-sent events;
  `next` (an event's `id` in the stream) is an opaque token (a global position, sealed as read-your-writes
  tokens are: it tells nothing of other clubs) to send back as `after` (or `Last-Event-ID`). A spectate
  key's feed runs behind the games' spectator delays: it stops before the first step not yet released.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Annotated, Any, cast

import anyio
import anyio.to_thread
import msgspec
from litestar import Controller, Request, Response, delete, get, patch, post
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.exceptions import ValidationException
from litestar.params import FromPath, HeaderParameter, JSONBody, QueryParameter
from litestar.response import ServerSentEvent, Stream
from litestar.response.sse import ServerSentEventMessage

from service.http.dependencies import RequestContext
from service.http.guards import GUARDS, KEYS, PUBLIC
from service.http.positions import BadToken
from service.http.ratelimit import LIVE_STREAM_IF_ASKED
from service.limits import Id
from service.usecases.access import Watch
from service.usecases.club_export import export_club_parts
from service.usecases.club_feed import PublicEvent, PublicLog
from service.usecases.types import Webhook, WebhookDelivery, WebhookFormat
from service.usecases.webhooks import Kind, Webhooks

_URL = Annotated[str, msgspec.Meta(min_length=1, max_length=2000)]


class WebhookIn(msgspec.Struct, frozen=True, kw_only=True):
    """A new webhook: where to, which kinds of message, and optionally its secret (`whsec_` and the base64
    of 24 to 64 random bytes; one is made when left out). It takes the events recorded from now on."""

    webhook_id: Id
    url: _URL
    kinds: Annotated[list[Kind], msgspec.Meta(min_length=1, max_length=16)]
    secret: Annotated[str, msgspec.Meta(max_length=200)] | None = None
    format: WebhookFormat = "standard"
    """`standard`: the message as JSON, signed; `discord`: one line of text in the club's language, as a
    Discord incoming webhook (`https://discord.com/api/webhooks/...`) takes it."""


class WebhookChange(msgspec.Struct, frozen=True, kw_only=True):
    """Turn a webhook on (its failures forgotten, tried again at once) or off."""

    enabled: bool


class ResendIn(msgspec.Struct, frozen=True, kw_only=True):
    """Send again the message of the delivery log with this id, and every one after it."""

    delivery_id: Annotated[str, msgspec.Meta(min_length=1, max_length=100)]


class WebhookOut(msgspec.Struct, frozen=True, kw_only=True):
    webhook_id: str
    url: str
    kinds: tuple[str, ...]
    format: WebhookFormat
    created_at: datetime
    enabled: bool
    disabled_reason: str | None
    failures: int
    """Failed attempts since the last delivery."""
    next_attempt_at: datetime | None
    """When the next attempt is due, after a failure."""


class WebhookCreated(msgspec.Struct, frozen=True, kw_only=True):
    """A new webhook and its signing secret (shown this once)."""

    webhook: WebhookOut
    secret: str


class DeliveryOut(msgspec.Struct, frozen=True, kw_only=True):
    """One message to a webhook and how its delivery went. `status`: `delivered`, `failing` (to be tried
    again) or `failed` (the webhook was turned off)."""

    delivery_id: str
    """The `webhook-id` header, the same on every attempt of this message."""
    kind: str
    status: str
    attempts: int
    status_code: int | None
    """What the receiver answered the last attempt (null: no answer)."""
    last_error: str | None
    first_attempt_at: datetime
    last_attempt_at: datetime


class DeliveriesOut(msgspec.Struct, frozen=True, kw_only=True):
    webhook_id: str
    deliveries: list[DeliveryOut]
    """The latest first: one per message, its `delivery_id` the `webhook-id` header sent on every attempt."""


class FeedOut(msgspec.Struct, frozen=True, kw_only=True):
    events: list[PublicEvent]
    next: str
    """Send back as `after` for the events recorded since (the same token again when nothing was new)."""
    more: bool
    """More events wait now: ask again at once."""


JSON, NDJSON, EVENT_STREAM = "application/json", "application/x-ndjson", "text/event-stream"


class FeedLine(msgspec.Struct, frozen=True, kw_only=True):
    """One line of the feed as JSON Lines: the event and the position to go on from after it."""

    next: str
    event: PublicEvent


def delivery_out(row: WebhookDelivery) -> DeliveryOut:
    # Never its global position: that would tell how much other clubs write.
    return DeliveryOut(
        delivery_id=row.delivery_id,
        kind=row.kind,
        status=row.status,
        attempts=row.attempts,
        status_code=row.status_code,
        last_error=row.last_error,
        first_attempt_at=row.first_attempt_at,
        last_attempt_at=row.last_attempt_at,
    )


def webhook_out(webhook: Webhook) -> WebhookOut:
    due = webhook.next_attempt_at
    return WebhookOut(
        webhook_id=webhook.webhook_id,
        url=webhook.url,
        kinds=webhook.kinds,
        format=webhook.format,
        created_at=webhook.created_at,
        enabled=webhook.enabled,
        disabled_reason=webhook.disabled_reason,
        failures=webhook.failures,
        next_attempt_at=datetime.fromtimestamp(due, UTC) if webhook.failures and due else None,
    )


def _webhooks(context: RequestContext, state: State) -> Webhooks:
    return Webhooks.of(context.records, refuse_private=state.settings.webhook_refuse_private_addresses)


class FeedStream:
    """One reader's feed as server-sent events: each event of the club as it is recorded (released, for a
    spectator), its `id` the position to resume from; a comment now and then to keep the line open. It ends
    once the key it was opened with is revoked or expired."""

    def __init__(self, log: PublicLog, seal: Any, club_id: str, position: int, still_valid: Watch) -> None:
        self.log = log
        self.seal = seal
        self.club_id = club_id
        self.position = position
        self.still_valid = still_valid

    async def messages(
        self, poll_seconds: float, keepalive_seconds: float, limit: int
    ) -> AsyncIterator[ServerSentEventMessage]:
        yield ServerSentEventMessage(comment="tablelog feed", retry=int(max(poll_seconds, 1.0) * 1000))
        quiet_since = time.monotonic()
        checked = False
        while True:
            if not (checked and self.still_valid.settled()):
                checked = True
                if not await anyio.to_thread.run_sync(self.still_valid):
                    yield ServerSentEventMessage(event="revoked", data="This key is no longer valid.")
                    return
            told, end, more = await anyio.to_thread.run_sync(self._page, limit)
            for at, event in told:
                data = msgspec.json.encode(event).decode()
                yield ServerSentEventMessage(id=self.seal(self.club_id, at), event="event", data=data)
            self.position = end
            if told:
                quiet_since = time.monotonic()
            if more:
                continue
            if time.monotonic() - quiet_since > keepalive_seconds:
                quiet_since = time.monotonic()
                yield ServerSentEventMessage(comment="keep-alive")
            await anyio.sleep(poll_seconds)

    def _page(self, limit: int) -> tuple[list[tuple[int, PublicEvent]], int, bool]:
        self.log.now()  # a spectator's delays release more as time passes
        return self.log.page(self.club_id, self.position, limit)


class WebhookController(Controller):
    path = "/clubs/{club_id:str}/webhooks"
    tags = ("webhooks",)
    guards = GUARDS

    @post("/", sync_to_thread=True, summary="Register a webhook (record key); its secret is shown once")
    def create(
        self, club_id: FromPath[str], data: JSONBody[WebhookIn], context: NamedDependency[RequestContext], state: State
    ) -> WebhookCreated:
        made = _webhooks(context, state).create(
            club_id, data.webhook_id, data.url, data.kinds, data.secret, data.format
        )
        return WebhookCreated(webhook=webhook_out(made), secret=made.secret)

    @get("/", sync_to_thread=True, opt=KEYS, summary="The club's webhooks (record key; never their secrets)")
    def list_webhooks(
        self, club_id: FromPath[str], context: NamedDependency[RequestContext], state: State
    ) -> list[WebhookOut]:
        return [webhook_out(w) for w in _webhooks(context, state).of_club(club_id)]

    @get("/{webhook_id:str}", sync_to_thread=True, opt=KEYS, summary="A webhook (record key)")
    def read(
        self, club_id: FromPath[str], webhook_id: FromPath[str], context: NamedDependency[RequestContext], state: State
    ) -> WebhookOut:
        return webhook_out(_webhooks(context, state).get(club_id, webhook_id))

    @patch("/{webhook_id:str}", sync_to_thread=True, summary="Turn a webhook on or off (record key)")
    def change(
        self,
        club_id: FromPath[str],
        webhook_id: FromPath[str],
        data: JSONBody[WebhookChange],
        context: NamedDependency[RequestContext],
        state: State,
    ) -> WebhookOut:
        return webhook_out(_webhooks(context, state).enable(club_id, webhook_id, data.enabled))

    @post(
        "/{webhook_id:str}/resend",
        sync_to_thread=True,
        status_code=200,
        summary="Send again a message of the delivery log and every one after it (record key)",
    )
    def resend(
        self,
        club_id: FromPath[str],
        webhook_id: FromPath[str],
        data: JSONBody[ResendIn],
        context: NamedDependency[RequestContext],
        state: State,
    ) -> WebhookOut:
        return webhook_out(_webhooks(context, state).resend_from(club_id, webhook_id, data.delivery_id))

    @delete("/{webhook_id:str}", sync_to_thread=True, summary="Remove a webhook and its delivery log (record key)")
    def remove(
        self, club_id: FromPath[str], webhook_id: FromPath[str], context: NamedDependency[RequestContext], state: State
    ) -> None:
        _webhooks(context, state).delete(club_id, webhook_id)

    @get(
        "/{webhook_id:str}/deliveries",
        sync_to_thread=True,
        opt=KEYS,
        summary="A webhook's delivery log, the latest first: status, attempts, last error (record key)",
    )
    def deliveries(
        self,
        club_id: FromPath[str],
        webhook_id: FromPath[str],
        context: NamedDependency[RequestContext],
        state: State,
        limit: Annotated[int, QueryParameter(ge=1, le=1000)] = 100,
    ) -> DeliveriesOut:
        found = _webhooks(context, state).deliveries(club_id, webhook_id, limit)
        return DeliveriesOut(webhook_id=webhook_id, deliveries=[delivery_out(d) for d in found])


class IntegrationController(Controller):
    path = "/clubs/{club_id:str}"
    tags = ("integrations",)
    guards = GUARDS

    @get(
        "/export",
        sync_to_thread=True,
        opt=KEYS,
        summary="The whole club as one JSON document, as `tablelog club export` writes it, streamed (record key)",
        response_description="A `tablelog-club/1` document (never the club's keys); import it with "
        "`tablelog club import`.",
    )
    def export(self, club_id: FromPath[str], context: NamedDependency[RequestContext]) -> Stream:
        parts = export_club_parts(context.records, club_id)
        return Stream(
            parts,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{club_id}.club.json"'},
        )

    @get(
        "/feed",
        sync_to_thread=True,
        opt=PUBLIC | LIVE_STREAM_IF_ASKED,
        summary="The club's events after a point, as the public may know them (JSON, JSON Lines or SSE)",
    )
    def feed(
        self,
        request: Request[Any, Any, Any],
        club_id: FromPath[str],
        context: NamedDependency[RequestContext],
        state: State,
        after: Annotated[
            str | None,
            QueryParameter(
                max_length=100,
                description="The `next` of the page before (or an append's `Tablelog-Position`); "
                "left out: from the club's first event.",
            ),
        ] = None,
        last_event_id: Annotated[
            str | None, HeaderParameter(name="Last-Event-ID", required=False, max_length=100)
        ] = None,
        limit: Annotated[int, QueryParameter(ge=1, le=1000)] = 100,
    ) -> Response[FeedOut]:
        """Every event of the club's games and tournaments in the order recorded. A game's event is its
        public replay step (never a card the public has not seen), with the public result when it finished
        or corrected the game; a tournament's event comes whole. Asked with `Accept: application/x-ndjson`,
        the page comes as JSON Lines instead, one `{"next": …, "event": …}` per event (`next`: the position
        to go on from after that event), for tools that read a line at a time. Asked with
        `Accept: text/event-stream`, it is a stream of server-sent events that stays open: each event `event`
        with the event as its data and as its `id` the position to go on from, so a reconnection with
        `Last-Event-ID` resumes without loss or duplicates. A spectate key's feed holds back what the games'
        spectator delays hold back: it stops before the first step not yet released, and goes on once it
        is."""
        answer = request.accept.best_match([JSON, NDJSON, EVENT_STREAM], default=JSON)
        resume = last_event_id if answer == EVENT_STREAM and last_event_id else after
        position = 0
        if resume is not None:
            try:
                position = state.tokens.open(club_id, resume)
            except BadToken:
                field = "Last-Event-ID" if resume is last_event_id else "after"
                raise ValidationException(
                    detail=f"{field} is not a feed position this service gave to club {club_id!r}: send back the "
                    "`next` of a page (or an event's id) as it is, or leave it out to read from the start.",
                    extra=[{"key": field, "message": "not a position token of this club", "source": "query"}],
                ) from None
        log = PublicLog.of(context.records, context.words.language)
        if answer == EVENT_STREAM:
            stream = FeedStream(log, state.tokens.seal, club_id, position, state.authenticator.watch(context.principal))
            settings = state.settings
            messages = stream.messages(settings.live_poll_seconds, settings.live_keepalive_seconds, limit)
            return cast("Response[FeedOut]", ServerSentEvent(messages, headers={"Vary": "Accept"}))
        told, end, more = log.page(club_id, position, limit)
        if answer == NDJSON:
            lines = [
                msgspec.json.encode(FeedLine(next=state.tokens.seal(club_id, at), event=event)) + b"\n"
                for at, event in told
            ]
            # A Response all the same: the document names the JSON page, the description the lines.
            return cast("Response[FeedOut]", Stream(iter(lines), media_type=NDJSON, headers={"Vary": "Accept"}))
        out = FeedOut(events=[event for _, event in told], next=state.tokens.seal(club_id, end), more=more)
        return Response(out, headers={"Vary": "Accept"})


HANDLERS = [WebhookController, IntegrationController]
