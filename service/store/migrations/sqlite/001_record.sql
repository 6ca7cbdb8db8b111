-- The record: clubs, their keys and players, games, resources, and the append-only event log.
CREATE TABLE clubs (
    club_id     TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    created_at  TEXT NOT NULL
);

CREATE TABLE api_keys (
    key_id      TEXT PRIMARY KEY,
    club_id     TEXT NOT NULL REFERENCES clubs (club_id),
    name        TEXT NOT NULL,
    secret_hash TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    revoked     INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE players (
    club_id     TEXT NOT NULL REFERENCES clubs (club_id),
    player_id   TEXT NOT NULL,
    name        TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (club_id, player_id)
);

CREATE TABLE games (
    game_id         TEXT PRIMARY KEY,
    club_id         TEXT NOT NULL REFERENCES clubs (club_id),
    ruleset         TEXT NOT NULL,
    ruleset_version TEXT NOT NULL,
    player_ids      TEXT NOT NULL,
    title           TEXT NOT NULL DEFAULT '',
    created_at      TEXT NOT NULL,
    version         INTEGER NOT NULL DEFAULT 0,
    finished        INTEGER NOT NULL DEFAULT 0,
    finished_at     TEXT
);
CREATE INDEX games_by_club ON games (club_id, created_at);

CREATE TABLE game_players (
    game_id   TEXT NOT NULL REFERENCES games (game_id),
    player_id TEXT NOT NULL,
    PRIMARY KEY (player_id, game_id)
);

CREATE TABLE resources (
    club_id      TEXT NOT NULL REFERENCES clubs (club_id),
    ruleset      TEXT NOT NULL,
    kind         TEXT NOT NULL,
    resource_id  TEXT NOT NULL,
    version      INTEGER NOT NULL,
    content_hash TEXT NOT NULL,
    content      TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    PRIMARY KEY (club_id, ruleset, kind, resource_id, version)
);

-- AUTOINCREMENT: positions are never reused, even after the newest row is rolled back.
CREATE TABLE events (
    position        INTEGER PRIMARY KEY AUTOINCREMENT,
    stream_id       TEXT NOT NULL,
    version         INTEGER NOT NULL,
    type            TEXT NOT NULL,
    schema_version  INTEGER NOT NULL,
    data            TEXT NOT NULL,
    recorded_at     TEXT NOT NULL,
    club_id         TEXT NOT NULL,
    key_id          TEXT,
    UNIQUE (stream_id, version)
);

CREATE TABLE idempotency_keys (
    stream_id   TEXT NOT NULL,
    key         TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    result      TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (stream_id, key)
);

CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'tablelog events are append-only: UPDATE refused'); END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'tablelog events are append-only: DELETE refused'); END;
