-- Projections: checkpoints and leases of the projection runners, the read models they keep (all
-- rebuildable from the event log by `tablelog rebuild`), and the club's leagues, campaigns and
-- spectator delays (club records, not rebuilt). JSON is kept as text and times as ISO 8601 text, the
-- same on both backends.
CREATE TABLE projection_checkpoints (
    name        TEXT PRIMARY KEY,
    position    INTEGER NOT NULL DEFAULT 0
);

-- One runner per projection at a time: the lease's owner renews it before it runs out.
CREATE TABLE projection_leases (
    name        TEXT PRIMARY KEY,
    owner       TEXT NOT NULL,
    expires_at  REAL NOT NULL  -- seconds since the epoch
);

CREATE TABLE game_summaries (
    game_id         TEXT PRIMARY KEY,
    club_id         TEXT NOT NULL,
    ruleset         TEXT NOT NULL,
    ruleset_version TEXT NOT NULL,
    version         INTEGER NOT NULL,
    applied         INTEGER NOT NULL,  -- events applied to this row: equals version unless one was applied twice
    started_at      TEXT NOT NULL,
    finished        INTEGER NOT NULL,
    finished_at     TEXT,
    players         TEXT NOT NULL,
    result          TEXT NOT NULL
);

-- What each correction (G-3) changed in a game's outcome: the basis of "what changed" in standings.
CREATE TABLE game_result_changes (
    game_id   TEXT NOT NULL,
    version   INTEGER NOT NULL,
    before    TEXT NOT NULL,
    after     TEXT NOT NULL,
    PRIMARY KEY (game_id, version)
);

CREATE TABLE replay_snapshots (
    game_id         TEXT NOT NULL,
    version         INTEGER NOT NULL,
    ruleset_version TEXT NOT NULL,
    data            BLOB NOT NULL,
    PRIMARY KEY (game_id, version)
);

-- Leagues and campaigns: a definition and the games assigned to it, in order.
CREATE TABLE collections (
    club_id        TEXT NOT NULL REFERENCES clubs (club_id),
    kind           TEXT NOT NULL,
    collection_id  TEXT NOT NULL,
    definition     TEXT NOT NULL,
    created_at     TEXT NOT NULL,
    PRIMARY KEY (club_id, kind, collection_id)
);

CREATE TABLE collection_games (
    club_id        TEXT NOT NULL,
    kind           TEXT NOT NULL,
    collection_id  TEXT NOT NULL,
    game_id        TEXT NOT NULL REFERENCES games (game_id),
    ordinal        INTEGER NOT NULL,
    assigned_at    TEXT NOT NULL,
    PRIMARY KEY (club_id, kind, collection_id, game_id),
    FOREIGN KEY (club_id, kind, collection_id) REFERENCES collections (club_id, kind, collection_id)
);
CREATE INDEX collection_games_by_game ON collection_games (game_id);

CREATE TABLE spectator_delays (
    game_id  TEXT PRIMARY KEY REFERENCES games (game_id),
    events   INTEGER NOT NULL DEFAULT 0,
    seconds  INTEGER NOT NULL DEFAULT 0
);
