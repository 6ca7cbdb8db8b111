-- Webhooks (issue 30 part 3): a club's subscriptions and what was delivered to them. The event log itself
-- is the outbox: each subscription keeps a cursor (`position`, a global event position) moved past an
-- event only once it was delivered, so an event is never lost and the append path writes nothing more.
-- Times as ISO 8601 text and JSON as text, the same on both backends; retry times as epoch seconds.
CREATE TABLE webhooks (
    club_id          text NOT NULL REFERENCES clubs (club_id),
    webhook_id       text NOT NULL,
    url              text NOT NULL,
    kinds            text NOT NULL,            -- a JSON list of the kinds of message it takes
    format           text NOT NULL,            -- standard | discord: the body it takes
    secret           text NOT NULL,            -- whsec_<base64>: the server signs with it, so it is kept
    created_at       text NOT NULL,
    position         bigint NOT NULL,          -- the last global position handled
    enabled          boolean NOT NULL,
    disabled_reason  text,
    failures         integer NOT NULL DEFAULT 0,  -- failed attempts since the last delivery
    next_attempt_at  double precision NOT NULL DEFAULT 0,
    PRIMARY KEY (club_id, webhook_id)
);

-- The delivery log: one row per message (its `delivery_id` is the webhook-id header, the same on every
-- attempt), the latest kept per subscription.
CREATE TABLE webhook_deliveries (
    club_id          text NOT NULL,
    webhook_id       text NOT NULL,
    delivery_id      text NOT NULL,
    position         bigint NOT NULL,
    kind             text NOT NULL,
    status           text NOT NULL,            -- delivered | failing | failed
    attempts         integer NOT NULL,
    status_code      integer,
    last_error       text,
    first_attempt_at text NOT NULL,
    last_attempt_at  text NOT NULL,
    PRIMARY KEY (club_id, webhook_id, delivery_id),
    FOREIGN KEY (club_id, webhook_id) REFERENCES webhooks (club_id, webhook_id) ON DELETE CASCADE
);
CREATE INDEX webhook_deliveries_by_position ON webhook_deliveries (club_id, webhook_id, position);
