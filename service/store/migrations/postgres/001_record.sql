-- The record: clubs, their keys and players, games, resources, and the append-only event log.
CREATE TABLE clubs (
    club_id     text PRIMARY KEY,
    name        text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
    key_id      text PRIMARY KEY,
    club_id     text NOT NULL REFERENCES clubs (club_id),
    name        text NOT NULL,
    secret_hash text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked     boolean NOT NULL DEFAULT false
);

CREATE TABLE players (
    club_id     text NOT NULL REFERENCES clubs (club_id),
    player_id   text NOT NULL,
    name        text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (club_id, player_id)
);

CREATE TABLE games (
    game_id         text PRIMARY KEY,
    club_id         text NOT NULL REFERENCES clubs (club_id),
    ruleset         text NOT NULL,
    ruleset_version text NOT NULL,
    player_ids      text[] NOT NULL,
    title           text NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL DEFAULT now(),
    version         integer NOT NULL DEFAULT 0,
    finished        boolean NOT NULL DEFAULT false,
    finished_at     timestamptz
);
CREATE INDEX games_by_club ON games (club_id, created_at);
CREATE INDEX games_by_player ON games USING gin (player_ids);

CREATE TABLE resources (
    club_id      text NOT NULL REFERENCES clubs (club_id),
    ruleset      text NOT NULL,
    kind         text NOT NULL,
    resource_id  text NOT NULL,
    version      integer NOT NULL,
    content_hash text NOT NULL,
    content      jsonb NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (club_id, ruleset, kind, resource_id, version)
);

-- position = (id of the appending transaction << 20) + index in the append. See postgres.py for why.
CREATE TABLE events (
    position        bigint PRIMARY KEY,
    stream_id       text NOT NULL,
    version         integer NOT NULL,
    type            text NOT NULL,
    schema_version  integer NOT NULL,
    data            json NOT NULL,  -- json, not jsonb: the record keeps the bytes it was given
    recorded_at     timestamptz NOT NULL DEFAULT now(),
    club_id         text NOT NULL,
    key_id          text,
    CONSTRAINT events_stream_version UNIQUE (stream_id, version)
);
-- An append-only table is never vacuumed for dead rows; analyse it often instead.
ALTER TABLE events SET (autovacuum_vacuum_threshold = 1000000000, autovacuum_analyze_scale_factor = 0.02);

CREATE TABLE idempotency_keys (
    stream_id   text NOT NULL,
    key         text NOT NULL,
    fingerprint text NOT NULL,
    result      jsonb NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (stream_id, key)
);

CREATE FUNCTION tablelog_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'tablelog events are append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION tablelog_refuse_change();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION tablelog_refuse_change();
