"""Webhook records: a club's subscriptions (where to, which kinds of message, the signing secret, the
cursor over the event log) and the delivery log; and the part of the store that keeps them
(`WebhookStore`, implemented once for both backends in `service.store.webhooks_sql`).

The event log is the outbox (`service.usecases.webhooks`): a subscription's `position` is the last global
position it has handled, moved only after the messages of the events up to it were delivered, with a
compare-and-set, so nothing the log holds is skipped and the append path writes nothing for webhooks."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Literal, Protocol

import msgspec

DeliveryStatus = Literal["delivered", "failing", "failed"]
WebhookFormat = Literal["standard", "discord"]
"""`standard`: the message as JSON (`service.usecases.webhooks.WebhookMessage`); `discord`: one line of
text in the club's language, as a Discord (or Slack-compatible) incoming webhook takes it."""


class Webhook(msgspec.Struct, frozen=True, kw_only=True):
    """A club's webhook subscription as stored."""

    club_id: str
    webhook_id: str
    url: str
    kinds: tuple[str, ...]
    secret: str
    created_at: datetime
    position: int
    format: WebhookFormat = "standard"
    enabled: bool = True
    disabled_reason: str | None = None
    failures: int = 0
    """Failed attempts since the last delivery."""
    next_attempt_at: float = 0.0
    """When (seconds since the epoch) the next attempt is due."""


class Delivery(msgspec.Struct, frozen=True, kw_only=True):
    """One message to a subscription and how its delivery went (the latest attempt)."""

    delivery_id: str
    position: int
    kind: str
    status: DeliveryStatus
    attempts: int
    status_code: int | None
    last_error: str | None
    first_attempt_at: datetime
    last_attempt_at: datetime


class WebhookStore(Protocol):
    """A club's webhook subscriptions, their cursors and their delivery logs."""

    def create_webhook(self, webhook: Webhook) -> Webhook:
        """Store a new subscription (AlreadyExists for a taken id in its club)."""
        ...

    def get_webhook(self, club_id: str, webhook_id: str) -> Webhook | None: ...
    def list_webhooks(self, club_id: str) -> list[Webhook]: ...
    def delete_webhook(self, club_id: str, webhook_id: str) -> bool:
        """Remove a subscription and its log; False when there was none."""
        ...

    def enable_webhook(self, club_id: str, webhook_id: str, enabled: bool) -> Webhook | None:
        """Turn a subscription on (its failures forgotten, due at once) or off by hand."""
        ...

    def rewind_webhook(self, club_id: str, webhook_id: str, position: int) -> Webhook | None:
        """Set the cursor back to `position` (never forward), due at once: the events after it are sent
        again."""
        ...

    def delivery(self, club_id: str, webhook_id: str, delivery_id: str) -> Delivery | None:
        """One row of the delivery log."""
        ...

    def due_webhooks(self, now: float) -> list[Webhook]:
        """The enabled subscriptions whose next attempt is due at `now`, of every club."""
        ...

    def webhook_delivered(
        self, club_id: str, webhook_id: str, expected: int, position: int, deliveries: Sequence[Delivery]
    ) -> bool:
        """Record `deliveries` and move the cursor from `expected` to `position`, failures forgotten, in one
        transaction; nothing written and False when the cursor is no longer at `expected`."""
        ...

    def webhook_failed(
        self,
        club_id: str,
        webhook_id: str,
        expected: int,
        delivery: Delivery,
        next_attempt_at: float,
        disabled_reason: str | None,
    ) -> bool:
        """Record a failed attempt and when to try again (or, with `disabled_reason`, turn the subscription
        off), if the cursor is still at `expected`."""
        ...

    def webhook_deliveries(self, club_id: str, webhook_id: str, limit: int = 100) -> list[Delivery]:
        """The subscription's delivery log, the latest first."""
        ...
