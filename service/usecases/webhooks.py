"""Webhooks (issue 30 part 3): a club's subscriptions, and the worker that delivers to them.

A `record` key registers a subscription: a URL, the kinds of message it takes (`KINDS`) and a signing
secret (made here unless one is given). Each message is one event of the club as the public may know it
(`service.usecases.club_feed`), never a hidden card, in an envelope with its kind.

Delivery is at least once, in the club's order (so in each game's order), from the event log itself: a
subscription's cursor is the last global position it has handled, moved past an event (compare-and-set,
`WebhookStore.webhook_delivered`) only once every message of that event was answered with a 2xx. A server
that dies mid-delivery sends that event's messages again, with the same `webhook-id`; nothing is written
beside an append, so the record's hot path is untouched. A refused or unanswered message is tried again
after a back-off that doubles from `webhook_retry_seconds` up to an hour; after `webhook_max_attempts`
failed attempts in a row the subscription is turned off (a record key turns it on again). Every attempt is
in the subscription's delivery log, and a record key may have the messages from one of them on sent again
(the cursor set back before it). Whether a game's finish decided a campaign is read from the games'
summaries, so a subscription to `campaign.decided` waits at a finish until the projector has folded it.

Messages are signed as Standard Webhooks describes: `webhook-signature: v1,<base64 HMAC-SHA256>` of
`<webhook-id>.<webhook-timestamp>.<body>` under the secret's bytes (the secret is `whsec_<base64>`).

Each server process runs a `WebhookThread`; a lease per subscription (the projectors' leases,
`Projections.acquire_lease`) lets one process at a time deliver it, so two processes never send the same
event at once. A URL must be http or https, and, unless the `webhook_refuse_private_addresses` setting is
off, name only public addresses (checked when registered and again before each attempt), so a club cannot
make the server call into its own network; redirects are never followed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import random
import secrets
import socket
import threading
import time
import urllib.parse
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Literal, Protocol

import httpx
import msgspec

from domain.i18n import Catalogue, Message
from domain.record import Correction
from domain.registry import Rulesets
from projections.errors import ProjectionError
from projections.tournaments import RoundPaired, RoundPublished
from projections.words import listed
from service import __version__
from service.i18n import Translator
from service.logs import get_logger
from service.projector import owner_id
from service.store.access import AccessStore
from service.store.base import Projections
from service.store.webhooks import Delivery, Webhook, WebhookFormat, WebhookStore
from service.usecases.club_feed import PublicEvent, PublicLog
from service.usecases.collections import ClubCollections, CollectionStore
from service.usecases.games import GameRecords, NotFound, Records

_ = Catalogue("service.usecases")

Kind = Literal[
    "game.event",
    "game.finished",
    "game.corrected",
    "standings.changed",
    "campaign.decided",
    "tournament.event",
    "round.published",
]
KINDS: tuple[Kind, ...] = (
    "game.event",
    "game.finished",
    "game.corrected",
    "standings.changed",
    "campaign.decided",
    "tournament.event",
    "round.published",
)
"""`game.event`: every event of a game (its public step); `game.finished`: the event that finished a game,
with its result; `game.corrected`: a correction, with the result after it; `standings.changed`: a game
of a league or campaign finished or corrected; `campaign.decided`: the game whose finish decided a
campaign (reached its target or ended its series), one message per campaign; `tournament.event`: every
event of a tournament (created, round published, result recorded...); `round.published`: a tournament
round's pairings published (paired straight away, or a draft published)."""

SECRET_PREFIX = "whsec_"
DELIVERY_SECRET = "webhook_ids"
"""The server secret (`Store.server_secret`) that makes delivery ids: stable for a message, never telling
a global position."""
CORRECTION = Correction.__struct_config__.tag
PUBLISHED = RoundPublished.__struct_config__.tag
PAIRED = RoundPaired.__struct_config__.tag
GAMES_PROJECTION = "games"
"""The projection whose summaries a campaign is folded from (`service.projector.Games`)."""
MAX_BACKOFF_SECONDS = 3600.0
MAX_ERROR_LENGTH = 500


class WebhookRecords(WebhookStore, CollectionStore, Projections, AccessStore, Protocol):
    """What webhooks read and write: the subscriptions, the log they follow, the leases, the collections
    a finished game counts in (and the summaries a campaign is folded from), the club, and the server
    secret that makes delivery ids."""


class WebhookMessage(msgspec.Struct, frozen=True, kw_only=True):
    """The body of a delivery. `timestamp` is when the event was recorded (the same on every attempt)."""

    type: Kind
    timestamp: datetime
    club_id: str
    data: PublicEvent
    leagues: tuple[str, ...] = ()
    """For `standings.changed`: the leagues the game counts in."""
    campaigns: tuple[str, ...] = ()
    """For `standings.changed`: the campaigns the game counts in; for `campaign.decided`: the campaign."""
    winners: tuple[str, ...] = ()
    """For `campaign.decided`: the names of the campaign's winners (none for a drawn series)."""


class Outgoing(msgspec.Struct, frozen=True, kw_only=True):
    """A message ready to send: its id (the `webhook-id` header), kind and body."""

    delivery_id: str
    kind: Kind
    body: bytes


def new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def secret_key(secret: str) -> bytes:
    """The HMAC key a `whsec_` secret stands for."""
    return base64.b64decode(secret.removeprefix(SECRET_PREFIX), validate=True)


def check_secret(secret: str) -> str:
    """A secret given by the club: `whsec_` and the base64 of 24 to 64 bytes."""
    try:
        key = secret_key(secret) if secret.startswith(SECRET_PREFIX) else b""
    except ValueError:
        key = b""
    if not 24 <= len(key) <= 64:
        raise ProjectionError(
            "webhook_secret",
            _(
                "A webhook secret is whsec_ followed by the base64 of 24 to 64 random bytes; leave it out to have "
                "one made."
            ),
            field="secret",
        )
    return secret


def sign(secret: str, delivery_id: str, timestamp: int, body: bytes) -> str:
    """The `webhook-signature` header of a message (Standard Webhooks, version 1)."""
    signed = b"%s.%d.%s" % (delivery_id.encode(), timestamp, body)
    digest = hmac.new(secret_key(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


class RefusedUrl(ValueError):
    """A URL the server will not call; `said` says why, in words for the club (its English text goes to
    the delivery log)."""

    def __init__(self, said: Message) -> None:
        super().__init__(said.english())
        self.said = said


class RefusedWebhook(ProjectionError):
    """A webhook refused as given (`code` and `field` name what), with `said` for a page to tell."""

    def __init__(self, code: str, said: Message, field: str) -> None:
        super().__init__(code, said, field=field)
        self.said = said


def check_url(url: str, *, refuse_private: bool) -> str:
    """The URL, if the server may call it: http or https with a host and, with `refuse_private`, one whose
    every address is public (not loopback, private, link-local, multicast or reserved). RefusedUrl says why
    not."""
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise RefusedUrl(_("the address does not read as a URL")) from None
    if parts.scheme not in ("http", "https"):
        raise RefusedUrl(_("only http:// and https:// addresses are called"))
    if not parts.hostname:
        raise RefusedUrl(_("the address names no host"))
    if parts.username is not None or parts.password is not None:
        raise RefusedUrl(_("it carries a user name or password; put a secret in the path instead"))
    if refuse_private:
        try:
            found = {info[4][0] for info in socket.getaddrinfo(parts.hostname, port, proto=socket.IPPROTO_TCP)}
        except (OSError, UnicodeError):
            raise RefusedUrl(_("its host {host} cannot be found", host=parts.hostname)) from None
        for address in found:
            ip = ipaddress.ip_address(str(address).partition("%")[0])
            if not ip.is_global or ip.is_multicast:
                raise RefusedUrl(
                    _(
                        "its host {host} has the private or local address {address}: only public addresses are "
                        "called, so that nobody can make the server reach into its own network",
                        host=parts.hostname,
                        address=str(ip),
                    )
                )
    return url


def _refused(url: str, why: RefusedUrl) -> ProjectionError:
    return RefusedWebhook("webhook_url", _("The server will not call {url}: {why}.", url=url, why=why.said), "url")


class Webhooks:
    """The webhook use cases of a club: register, list, turn on and off, remove, read the delivery log."""

    def __init__(self, games: GameRecords, store: WebhookRecords, *, refuse_private: bool = True) -> None:
        self.games = games
        self.store = store
        self.refuse_private = refuse_private

    @classmethod
    def of(cls, records: Records, *, refuse_private: bool = True) -> Webhooks:
        return cls(records, records.store, refuse_private=refuse_private)

    def create(
        self,
        club_id: str,
        webhook_id: str,
        url: str,
        kinds: Sequence[Kind],
        secret: str | None = None,
        body: WebhookFormat = "standard",
    ) -> Webhook:
        """A new subscription, taking the club's events recorded from now on."""
        if self.store.get_club(club_id) is None:
            raise NotFound("club", club_id)
        if not kinds:
            raise RefusedWebhook("webhook_kinds", _("Choose at least one kind of message to send."), "kinds")
        if secret is not None:
            check_secret(secret)
        try:  # last: it may ask the resolver
            check_url(url, refuse_private=self.refuse_private)
        except RefusedUrl as why:
            raise _refused(url, why) from None
        webhook = Webhook(
            club_id=club_id,
            webhook_id=webhook_id,
            url=url,
            kinds=tuple(dict.fromkeys(kinds)),
            format=body,
            secret=secret if secret is not None else new_secret(),
            created_at=datetime.now(UTC),
            position=self.store.head_position(),
        )
        created = self.store.create_webhook(webhook)
        get_logger(club_id=club_id).info("webhook.created", webhook_id=webhook_id, kinds=list(webhook.kinds))
        return created

    def of_club(self, club_id: str) -> list[Webhook]:
        return self.store.list_webhooks(club_id)

    def get(self, club_id: str, webhook_id: str) -> Webhook:
        found = self.store.get_webhook(club_id, webhook_id)
        if found is None:
            raise NotFound("webhook", webhook_id)
        return found

    def enable(self, club_id: str, webhook_id: str, enabled: bool) -> Webhook:
        self.get(club_id, webhook_id)
        changed = self.store.enable_webhook(club_id, webhook_id, enabled)
        if changed is None:
            raise NotFound("webhook", webhook_id)
        return changed

    def resend_from(self, club_id: str, webhook_id: str, delivery_id: str) -> Webhook:
        """Send again, by hand, the message `delivery_id` of the log and every one after it (each with its
        own id again, so a receiver that keeps them drops those it has)."""
        self.get(club_id, webhook_id)
        row = self.store.delivery(club_id, webhook_id, delivery_id)
        if row is None:
            raise NotFound("delivery", delivery_id)
        rewound = self.store.rewind_webhook(club_id, webhook_id, row.position - 1)
        if rewound is None:
            raise NotFound("webhook", webhook_id)
        get_logger(club_id=club_id).info("webhook.resent", webhook_id=webhook_id, delivery_id=delivery_id)
        return rewound

    def delete(self, club_id: str, webhook_id: str) -> None:
        if not self.store.delete_webhook(club_id, webhook_id):
            raise NotFound("webhook", webhook_id)

    def deliveries(self, club_id: str, webhook_id: str, limit: int) -> list[Delivery]:
        self.get(club_id, webhook_id)
        return self.store.webhook_deliveries(club_id, webhook_id, limit)


DISCORD_LENGTH = 2000
"""The longest message a Discord webhook takes."""


class AllowedMentions(msgspec.Struct, frozen=True, kw_only=True):
    parse: tuple[str, ...] = ()


class DiscordBody(msgspec.Struct, frozen=True, kw_only=True):
    """What a Discord incoming webhook takes; no mention is acted on (a player's name is not `@everyone`)."""

    content: str
    allowed_mentions: AllowedMentions = AllowedMentions()


def _tournament_line(event: PublicEvent) -> Message:
    data = event.data if isinstance(event.data, dict) else {}
    tournament = data.get("title") or event.tournament_id or ""
    number = data.get("round", 0)
    if event.type == "tournament.created":
        return _("The tournament {tournament} is open.", tournament=tournament)
    if event.type == "tournament.player_entered":
        return _("{player} enters the tournament {tournament}.", player=data.get("name", ""), tournament=tournament)
    if event.type == "tournament.player_withdrew":
        return _("A player withdraws from the tournament {tournament}.", tournament=tournament)
    if event.type == PUBLISHED:
        return _("Round {round} of the tournament {tournament} is published.", round=number, tournament=tournament)
    if event.type == "tournament.round_paired":
        return _("Round {round} of the tournament {tournament} is paired.", round=number, tournament=tournament)
    if event.type == "tournament.round_unpaired":
        return _("Round {round} of the tournament {tournament} is taken back.", round=number, tournament=tournament)
    return _("The tournament {tournament} has news.", tournament=tournament)


class Sent(msgspec.Struct, frozen=True, kw_only=True):
    """How an attempt went: a 2xx or not, the status answered (None: no answer), what went wrong."""

    ok: bool
    status_code: int | None = None
    error: str | None = None


class Deliverer:
    """Delivers the due subscriptions of every club, one after another, each while holding its lease."""

    def __init__(
        self,
        store: WebhookRecords,
        rulesets: Rulesets,
        *,
        owner: str | None = None,
        batch: int = 100,
        timeout_seconds: float = 10.0,
        retry_seconds: float = 10.0,
        max_attempts: int = 30,
        lease_seconds: float | None = None,
        refuse_private: bool = True,
        clock: Callable[[], float] = time.time,
        on_attempt: Callable[[bool], None] | None = None,
    ) -> None:
        self.store = store
        self.on_attempt = on_attempt
        """Told whether each attempt was delivered (the metrics, when on)."""
        self.clock = clock
        """Seconds since the epoch, for when retries are due (a test's own clock)."""
        self.owner = owner or owner_id()
        self.batch = batch
        self.retry_seconds = retry_seconds
        self.max_attempts = max_attempts
        # Renewed before each attempt while a third of it is gone, so it outlasts any one attempt; a killed
        # process's subscriptions are taken over once it runs out.
        self.lease_seconds = lease_seconds if lease_seconds is not None else max(timeout_seconds * 3, 5.0)
        self._lease_taken = 0.0
        self.refuse_private = refuse_private
        self.rulesets = rulesets
        self.collections = ClubCollections(GameRecords(store, rulesets), store)
        """The campaigns a finished game decides (`campaign.decided`)."""
        self._logs: dict[str, PublicLog] = {}
        """The club's events told in each club language met (each with its games' folds)."""
        self.client = httpx.Client(timeout=timeout_seconds, follow_redirects=False, trust_env=False)
        self._ids_key = store.server_secret(DELIVERY_SECRET).encode()

    def close(self) -> None:
        self.client.close()

    def step(self) -> int:
        """One pass over the due subscriptions; how many events were handled."""
        due = self.store.due_webhooks(self.clock())
        if not due:  # a server without webhooks reads only its (empty) table each poll
            return 0
        head = self.store.head_position()
        # A subscription whose cursor is at the head has nothing new.
        return sum(self.deliver(w.club_id, w.webhook_id) for w in due if w.position < head)

    def deliver(self, club_id: str, webhook_id: str) -> int:
        """Deliver one subscription's next events, if no other process holds it; how many were handled."""
        lease = self._lease(club_id, webhook_id)
        if not self._hold(lease, renew=True):
            return 0
        try:
            # Read again under the lease: another process may have moved the cursor since the due list.
            webhook = self.store.get_webhook(club_id, webhook_id)
            if webhook is None or not webhook.enabled or webhook.next_attempt_at > self.clock():
                return 0
            return self._deliver(webhook)
        finally:
            self.store.release_lease(lease, self.owner)

    @staticmethod
    def _lease(club_id: str, webhook_id: str) -> str:
        return f"webhook:{club_id}/{webhook_id}"

    def _hold(self, lease: str, *, renew: bool = False) -> bool:
        """Take the lease, or renew it once a third of it is gone; False when another process holds it."""
        now = time.monotonic()
        if not renew and now - self._lease_taken < self.lease_seconds / 3:
            return True
        if not self.store.acquire_lease(lease, self.owner, self.lease_seconds):
            return False
        self._lease_taken = now
        return True

    def _log(self, language: str) -> PublicLog:
        if language not in self._logs:
            self._logs[language] = PublicLog(self.store, self.rulesets, language=language)
        return self._logs[language]

    def _deliver(self, webhook: Webhook) -> int:
        club = self.store.get_club(webhook.club_id)
        language = (club.language if club is not None else None) or "en"
        told, end, _more = self._log(language).page(webhook.club_id, webhook.position, self.batch)
        cursor, failures = webhook.position, webhook.failures
        handled = 0
        for position, event in told:
            if self._waits_for_campaigns(webhook, position, event):
                end = cursor  # taken up again once the projector has passed it
                break
            outgoing = self.messages(webhook, position, event, language)
            delivered = []
            for message in outgoing:
                if not self._hold(self._lease(webhook.club_id, webhook.webhook_id)):
                    return handled  # lost to another process: it goes on from the cursor
                attempted = datetime.now(UTC)
                sent = self.send(webhook, message)
                if self.on_attempt is not None:
                    self.on_attempt(sent.ok)
                row = Delivery(
                    delivery_id=message.delivery_id,
                    position=position,
                    kind=message.kind,
                    status="delivered" if sent.ok else "failing",
                    attempts=1,
                    status_code=sent.status_code,
                    last_error=sent.error,
                    first_attempt_at=attempted,
                    last_attempt_at=attempted,
                )
                if not sent.ok:
                    self._failed(webhook, cursor, failures + 1, row)
                    return handled
                delivered.append(row)
            if delivered:
                if not self.store.webhook_delivered(webhook.club_id, webhook.webhook_id, cursor, position, delivered):
                    return handled  # removed, or moved by another process (its lease had run out)
                cursor, failures = position, 0
            handled += 1
        if end > cursor:  # events with no message for this subscription, and streams passed over
            self.store.webhook_delivered(webhook.club_id, webhook.webhook_id, cursor, end, [])
        return handled

    def _waits_for_campaigns(self, webhook: Webhook, position: int, event: PublicEvent) -> bool:
        """Whether a game's finish must wait for the projector before it is told: whether it decided a
        campaign is read from the games' summaries, which must hold it (else the message would be lost)."""
        return (
            "campaign.decided" in webhook.kinds
            and event.finished
            and self.store.checkpoint(GAMES_PROJECTION) < position
        )

    def decided(self, club_id: str, game_id: str) -> list[tuple[str, tuple[str, ...]]]:
        """The campaigns whose series this game's finish decided (it is the first counted game after which
        the series is over, as the campaign stands now), each with its winners' names."""
        found = []
        try:
            counted_in = self.collections.of_game(club_id, game_id)
        except NotFound:
            return []
        for kind, campaign_id in counted_in:
            if kind != "campaign":
                continue
            try:
                _campaign, _ruleset, _games, status = self.collections.status(club_id, campaign_id)
            except (NotFound, ProjectionError):  # removed since, or no longer a valid series
                continue
            deciding = next((step for step in status.steps if step.counted and step.status.finished), None)
            if deciding is None or deciding.game_id != game_id:
                continue
            winners = status.status.winners
            names = self.collections.names(club_id, list(winners))
            found.append((campaign_id, tuple(names.get(w, w) for w in winners)))
        return found

    def _failed(self, webhook: Webhook, cursor: int, failures: int, row: Delivery) -> None:
        """Record the `failures`th failed attempt in a row: try again after a back-off, or turn it off."""
        log = get_logger(club_id=webhook.club_id)
        if failures >= self.max_attempts:
            reason = f"turned off after {failures} failed attempts in a row; the last: {row.last_error}"
            self.store.webhook_failed(
                webhook.club_id,
                webhook.webhook_id,
                cursor,
                msgspec.structs.replace(row, status="failed"),
                0.0,
                reason[:MAX_ERROR_LENGTH],
            )
            log.warning("webhook.disabled", webhook_id=webhook.webhook_id, failures=failures)
            return
        # Doubling, with a little jitter so that many subscriptions failing together do not retry together.
        delay = min(self.retry_seconds * 2 ** (failures - 1), MAX_BACKOFF_SECONDS) * random.uniform(1.0, 1.2)
        self.store.webhook_failed(webhook.club_id, webhook.webhook_id, cursor, row, self.clock() + delay, None)
        log.info("webhook.failed", webhook_id=webhook.webhook_id, failures=failures, retry_in=round(delay, 3))

    def messages(self, webhook: Webhook, position: int, event: PublicEvent, language: str = "en") -> list[Outgoing]:
        """The messages one event makes for a subscription, in the order they are sent."""
        if event.stream == "tournament":
            kinds: list[Kind] = ["tournament.event"]
            if event.type in (PUBLISHED, PAIRED):  # a draft's pairing is never told (`club_feed`)
                kinds.append("round.published")
        else:
            kinds = ["game.event"]
            corrected = event.type == CORRECTION
            if corrected:
                kinds.append("game.corrected")
            if event.finished:
                kinds.append("game.finished")
            if corrected or event.finished:
                kinds.append("standings.changed")
            if event.finished:
                kinds.append("campaign.decided")
        out = []
        for kind in [kind for kind in kinds if kind in webhook.kinds]:
            if kind == "campaign.decided":
                assert event.game_id is not None
                for campaign_id, winners in self.decided(webhook.club_id, event.game_id):
                    message = WebhookMessage(
                        type=kind,
                        timestamp=event.recorded_at,
                        club_id=webhook.club_id,
                        data=event,
                        campaigns=(campaign_id,),
                        winners=winners,
                    )
                    out.append(self._outgoing(webhook, position, f"{kind}/{campaign_id}", message, language))
                continue
            leagues: tuple[str, ...] = ()
            campaigns: tuple[str, ...] = ()
            if kind == "standings.changed":
                assert event.game_id is not None
                counted = self.store.collections_of_game(webhook.club_id, event.game_id)
                leagues = tuple(c for k, c in counted if k == "league")
                campaigns = tuple(c for k, c in counted if k == "campaign")
                if not leagues and not campaigns:
                    continue
            message = WebhookMessage(
                type=kind,
                timestamp=event.recorded_at,
                club_id=webhook.club_id,
                data=event,
                leagues=leagues,
                campaigns=campaigns,
            )
            out.append(self._outgoing(webhook, position, kind, message, language))
        return out

    def _outgoing(self, webhook: Webhook, position: int, part: str, message: WebhookMessage, language: str) -> Outgoing:
        """A message in the subscription's body; `part` tells it from the event's other messages (its kind,
        and the campaign for one of many)."""
        if webhook.format == "discord":
            said = Translator(language)(self.line(webhook.club_id, message))[:DISCORD_LENGTH]
            body = msgspec.json.encode(DiscordBody(content=said))
        else:
            body = msgspec.json.encode(message)
        return Outgoing(delivery_id=self.delivery_id(webhook, position, part), kind=message.type, body=body)

    def line(self, club_id: str, message: WebhookMessage) -> Message:
        """A message as one line for people (a Discord channel): names, never ids where a name is kept."""
        event = message.data
        if event.stream == "tournament":
            return _tournament_line(event)
        if message.type == "campaign.decided":
            (campaign,) = message.campaigns
            if message.winners:
                return _(
                    "The campaign {campaign} is decided: {winners} won.",
                    campaign=campaign,
                    winners=listed(message.winners),
                )
            return _("The campaign {campaign} is decided, with no winner.", campaign=campaign)
        assert event.game_id is not None and event.step is not None
        listing = self.store.get_game(club_id, event.game_id)
        game = listing.title if listing is not None and listing.title else event.game_id
        if message.type == "game.finished":
            if event.winners:
                return _("{game} is over: {winners} won.", game=game, winners=listed(event.winners))
            return _("{game} is over, with no winner.", game=game)
        if message.type == "standings.changed":
            return _(
                "{game} changes the standings of {collections}.",
                game=game,
                collections=listed([*message.leagues, *message.campaigns]),
            )
        return _("{game}: {line}", game=game, line=event.step.text)

    def delivery_id(self, webhook: Webhook, position: int, part: str) -> str:
        """The same for every attempt of a message, and telling nothing of the global position."""
        said = f"{webhook.club_id}/{webhook.webhook_id}/{position}/{part}".encode()
        return "msg_" + hmac.new(self._ids_key, said, hashlib.sha256).hexdigest()[:32]

    def send(self, webhook: Webhook, message: Outgoing) -> Sent:
        """One attempt."""
        try:
            check_url(webhook.url, refuse_private=self.refuse_private)
        except RefusedUrl as why:
            return Sent(ok=False, error=f"not called: {why}")
        timestamp = int(time.time())
        headers = {
            "content-type": "application/json",
            "user-agent": f"tablelog/{__version__}",
            "webhook-id": message.delivery_id,
            "webhook-timestamp": str(timestamp),
            "webhook-signature": sign(webhook.secret, message.delivery_id, timestamp, message.body),
        }
        try:
            answer = self.client.post(webhook.url, content=message.body, headers=headers)
        except httpx.HTTPError as error:
            return Sent(ok=False, error=f"{type(error).__name__}: {error}"[:MAX_ERROR_LENGTH])
        if 200 <= answer.status_code < 300:
            return Sent(ok=True, status_code=answer.status_code)
        return Sent(ok=False, status_code=answer.status_code, error=f"answered HTTP {answer.status_code}")


class WebhookThread:
    """The webhook worker inside `tablelog serve`: a daemon thread started and stopped with the app."""

    def __init__(self, deliverer: Deliverer, *, poll_seconds: float = 1.0) -> None:
        self.deliverer = deliverer
        self.poll_seconds = poll_seconds
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tablelog-webhooks", daemon=True)

    def _run(self) -> None:
        log = get_logger()
        try:
            while not self._stop.is_set():
                try:
                    busy = self.deliverer.step()
                except Exception as error:  # keep the server up: log, back off, look again
                    log.exception("webhooks.failed", error_type=type(error).__name__)
                    self._stop.wait(max(self.poll_seconds, 1.0) * 5)
                    continue
                if not busy:
                    self._stop.wait(self.poll_seconds)
        finally:
            self.deliverer.close()

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 15.0) -> None:
        self._stop.set()
        self._thread.join(timeout)
