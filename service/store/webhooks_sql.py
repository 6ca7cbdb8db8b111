"""`WebhookStore` in SQL both backends run (the tables of migration 012: times as ISO text, kinds as JSON
text), composed with a backend's `Database`. The cursor moves by compare-and-set, as a projection's
checkpoint does (`service.store.readmodels`): a worker that lost its lease to another cannot move it."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec

from service.store.base import AlreadyExists, Duplicate
from service.store.sql import Connection, Database
from service.store.webhooks import Delivery, Webhook

KEPT_DELIVERIES = 1000
"""Log rows kept per subscription (the oldest are pruned as new ones come)."""

_COLUMNS = (
    "club_id, webhook_id, url, kinds, format, secret, created_at, position, enabled, disabled_reason, failures, "
    "next_attempt_at"
)
_DELIVERY_COLUMNS = (
    "delivery_id, position, kind, status, attempts, status_code, last_error, first_attempt_at, last_attempt_at"
)


@dataclasses.dataclass(frozen=True)
class _WebhookSql:
    create: str = f"INSERT INTO webhooks ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    one: str = f"SELECT {_COLUMNS} FROM webhooks WHERE club_id = ? AND webhook_id = ?"
    of_club: str = f"SELECT {_COLUMNS} FROM webhooks WHERE club_id = ? ORDER BY created_at, webhook_id"
    due: str = f"SELECT {_COLUMNS} FROM webhooks WHERE enabled = ? AND next_attempt_at <= ? ORDER BY next_attempt_at"
    delete_log: str = "DELETE FROM webhook_deliveries WHERE club_id = ? AND webhook_id = ?"
    delete: str = "DELETE FROM webhooks WHERE club_id = ? AND webhook_id = ? RETURNING webhook_id"
    enable: str = (
        "UPDATE webhooks SET enabled = ?, disabled_reason = ?, failures = 0, next_attempt_at = 0 "
        "WHERE club_id = ? AND webhook_id = ?"
    )
    rewind: str = (
        "UPDATE webhooks SET position = ?, next_attempt_at = 0 WHERE club_id = ? AND webhook_id = ? AND position > ?"
    )
    delivery: str = (
        f"SELECT {_DELIVERY_COLUMNS} FROM webhook_deliveries WHERE club_id = ? AND webhook_id = ? AND delivery_id = ?"
    )
    move: str = (
        "UPDATE webhooks SET position = ?, failures = 0, next_attempt_at = 0 "
        "WHERE club_id = ? AND webhook_id = ? AND position = ? RETURNING position"
    )
    failed: str = (
        "UPDATE webhooks SET failures = failures + 1, next_attempt_at = ?, enabled = ?, disabled_reason = ? "
        "WHERE club_id = ? AND webhook_id = ? AND position = ? RETURNING position"
    )
    # An attempt again of a message already logged counts up; the first attempt's time stays.
    log: str = (
        f"INSERT INTO webhook_deliveries (club_id, webhook_id, {_DELIVERY_COLUMNS}) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (club_id, webhook_id, delivery_id) DO UPDATE SET status = excluded.status, "
        "attempts = webhook_deliveries.attempts + 1, status_code = excluded.status_code, "
        "last_error = excluded.last_error, last_attempt_at = excluded.last_attempt_at"
    )
    log_rows: str = (
        f"SELECT {_DELIVERY_COLUMNS} FROM webhook_deliveries WHERE club_id = ? AND webhook_id = ? "
        "ORDER BY position DESC, first_attempt_at DESC, delivery_id DESC LIMIT ?"
    )
    prune: str = (
        "DELETE FROM webhook_deliveries WHERE club_id = ? AND webhook_id = ? AND position < ("
        "SELECT min(position) FROM (SELECT position FROM webhook_deliveries WHERE club_id = ? AND webhook_id = ? "
        "ORDER BY position DESC LIMIT ?) AS kept)"
    )


def _text(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat()


def _webhook(row: dict[str, Any]) -> Webhook:
    return msgspec.convert(
        row | {"kinds": msgspec.json.decode(row["kinds"]), "enabled": bool(row["enabled"])}, Webhook, strict=False
    )


class WebhookTables:
    """`WebhookStore` in SQL both backends run (see the module docstring)."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._sql = db.dialect.prepare(_WebhookSql())

    def create_webhook(self, webhook: Webhook) -> Webhook:
        try:
            with self._db.writing() as conn:
                conn.execute(
                    self._sql.create,
                    (
                        webhook.club_id,
                        webhook.webhook_id,
                        webhook.url,
                        msgspec.json.encode(webhook.kinds).decode(),
                        webhook.format,
                        webhook.secret,
                        _text(webhook.created_at),
                        webhook.position,
                        webhook.enabled,
                        webhook.disabled_reason,
                        webhook.failures,
                        webhook.next_attempt_at,
                    ),
                )
        except Duplicate:
            raise AlreadyExists("webhook", webhook.webhook_id) from None
        return webhook

    def get_webhook(self, club_id: str, webhook_id: str) -> Webhook | None:
        found = self._db.records(self._sql.one, (club_id, webhook_id))
        return _webhook(found[0]) if found else None

    def list_webhooks(self, club_id: str) -> list[Webhook]:
        return [_webhook(row) for row in self._db.records(self._sql.of_club, (club_id,))]

    def delete_webhook(self, club_id: str, webhook_id: str) -> bool:
        with self._db.writing() as conn:
            conn.execute(self._sql.delete_log, (club_id, webhook_id))
            gone = conn.execute(self._sql.delete, (club_id, webhook_id)).fetchone()
        return gone is not None

    def enable_webhook(self, club_id: str, webhook_id: str, enabled: bool) -> Webhook | None:
        reason = None if enabled else "turned off by hand"
        with self._db.writing() as conn:
            conn.execute(self._sql.enable, (enabled, reason, club_id, webhook_id))
        return self.get_webhook(club_id, webhook_id)

    def rewind_webhook(self, club_id: str, webhook_id: str, position: int) -> Webhook | None:
        with self._db.writing() as conn:
            conn.execute(self._sql.rewind, (position, club_id, webhook_id, position))
        return self.get_webhook(club_id, webhook_id)

    def delivery(self, club_id: str, webhook_id: str, delivery_id: str) -> Delivery | None:
        found = self._db.records(self._sql.delivery, (club_id, webhook_id, delivery_id))
        return msgspec.convert(found[0], Delivery, strict=False) if found else None

    def due_webhooks(self, now: float) -> list[Webhook]:
        return [_webhook(row) for row in self._db.records(self._sql.due, (True, now))]

    def webhook_delivered(
        self, club_id: str, webhook_id: str, expected: int, position: int, deliveries: Sequence[Delivery]
    ) -> bool:
        with self._db.writing() as conn:
            if conn.execute(self._sql.move, (position, club_id, webhook_id, expected)).fetchone() is None:
                return False
            self._log(conn, club_id, webhook_id, deliveries)
        return True

    def webhook_failed(
        self,
        club_id: str,
        webhook_id: str,
        expected: int,
        delivery: Delivery,
        next_attempt_at: float,
        disabled_reason: str | None,
    ) -> bool:
        with self._db.writing() as conn:
            moved = conn.execute(
                self._sql.failed,
                (next_attempt_at, disabled_reason is None, disabled_reason, club_id, webhook_id, expected),
            ).fetchone()
            if moved is None:
                return False
            self._log(conn, club_id, webhook_id, [delivery])
        return True

    def _log(self, conn: Connection, club_id: str, webhook_id: str, deliveries: Sequence[Delivery]) -> None:
        if not deliveries:
            return
        conn.cursor().executemany(
            self._sql.log,
            [
                (
                    club_id,
                    webhook_id,
                    d.delivery_id,
                    d.position,
                    d.kind,
                    d.status,
                    d.attempts,
                    d.status_code,
                    d.last_error,
                    _text(d.first_attempt_at),
                    _text(d.last_attempt_at),
                )
                for d in deliveries
            ],
        )
        conn.execute(self._sql.prune, (club_id, webhook_id, club_id, webhook_id, KEPT_DELIVERIES))

    def webhook_deliveries(self, club_id: str, webhook_id: str, limit: int = 100) -> list[Delivery]:
        rows = self._db.records(self._sql.log_rows, (club_id, webhook_id, limit))
        return [msgspec.convert(row, Delivery, strict=False) for row in rows]
