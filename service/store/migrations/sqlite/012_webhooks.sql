-- Webhooks (issue 30 part 3): a club's subscriptions and what was delivered to them. The event log itself
-- is the outbox: each subscription keeps a cursor (`position`, a global event position) moved past an
-- event only once it was delivered, so an event is never lost and the append path writes nothing more.
-- Times as ISO 8601 text and JSON as text, the same on both backends; retry times as epoch seconds.
CREATE TABLE webhooks (
    club_id          TEXT NOT NULL REFERENCES clubs (club_id),
    webhook_id       TEXT NOT NULL,
    url              TEXT NOT NULL,
    kinds            TEXT NOT NULL,            -- a JSON list of the kinds of message it takes
    format           TEXT NOT NULL,            -- standard | discord: the body it takes
    secret           TEXT NOT NULL,            -- whsec_<base64>: the server signs with it, so it is kept
    created_at       TEXT NOT NULL,
    position         INTEGER NOT NULL,          -- the last global position handled
    enabled          INTEGER NOT NULL,
    disabled_reason  TEXT,
    failures         INTEGER NOT NULL DEFAULT 0,  -- failed attempts since the last delivery
    next_attempt_at  REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (club_id, webhook_id)
);

-- The delivery log: one row per message (its `delivery_id` is the webhook-id header, the same on every
-- attempt), the latest kept per subscription.
CREATE TABLE webhook_deliveries (
    club_id          TEXT NOT NULL,
    webhook_id       TEXT NOT NULL,
    delivery_id      TEXT NOT NULL,
    position         INTEGER NOT NULL,
    kind             TEXT NOT NULL,
    status           TEXT NOT NULL,            -- delivered | failing | failed
    attempts         INTEGER NOT NULL,
    status_code      INTEGER,
    last_error       TEXT,
    first_attempt_at TEXT NOT NULL,
    last_attempt_at  TEXT NOT NULL,
    PRIMARY KEY (club_id, webhook_id, delivery_id),
    FOREIGN KEY (club_id, webhook_id) REFERENCES webhooks (club_id, webhook_id) ON DELETE CASCADE
);
CREATE INDEX webhook_deliveries_by_position ON webhook_deliveries (club_id, webhook_id, position);
