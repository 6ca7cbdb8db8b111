-- Projections: checkpoints and leases of the projection runners, the read models they keep (all
-- rebuildable from the event log by `tablelog rebuild`), and the club's leagues, campaigns and
-- spectator delays (club records, not rebuilt). JSON is kept as text and times as ISO 8601 text, the
-- same on both backends.
CREATE TABLE projection_checkpoints (
    name        text PRIMARY KEY,
    position    bigint NOT NULL DEFAULT 0
);

-- One runner per projection at a time: the lease's owner renews it before it runs out.
CREATE TABLE projection_leases (
    name        text PRIMARY KEY,
    owner       text NOT NULL,
    expires_at  double precision NOT NULL  -- seconds since the epoch
);

CREATE TABLE game_summaries (
    game_id         text PRIMARY KEY,
    club_id         text NOT NULL,
    ruleset         text NOT NULL,
    ruleset_version text NOT NULL,
    version         integer NOT NULL,
    applied         integer NOT NULL,  -- events applied to this row: equals version unless one was applied twice
    started_at      text NOT NULL,
    finished        boolean NOT NULL,
    finished_at     text,
    players         text NOT NULL,
    result          text NOT NULL
);

-- What each correction (G-3) changed in a game's outcome: the basis of "what changed" in standings.
CREATE TABLE game_result_changes (
    game_id   text NOT NULL,
    version   integer NOT NULL,
    before    text NOT NULL,
    after     text NOT NULL,
    PRIMARY KEY (game_id, version)
);

CREATE TABLE replay_snapshots (
    game_id         text NOT NULL,
    version         integer NOT NULL,
    ruleset_version text NOT NULL,
    data            bytea NOT NULL,
    PRIMARY KEY (game_id, version)
);

-- Leagues and campaigns: a definition and the games assigned to it, in order.
CREATE TABLE collections (
    club_id        text NOT NULL REFERENCES clubs (club_id),
    kind           text NOT NULL,
    collection_id  text NOT NULL,
    definition     text NOT NULL,
    created_at     text NOT NULL,
    PRIMARY KEY (club_id, kind, collection_id)
);

CREATE TABLE collection_games (
    club_id        text NOT NULL,
    kind           text NOT NULL,
    collection_id  text NOT NULL,
    game_id        text NOT NULL REFERENCES games (game_id),
    ordinal        integer NOT NULL,
    assigned_at    text NOT NULL,
    PRIMARY KEY (club_id, kind, collection_id, game_id),
    FOREIGN KEY (club_id, kind, collection_id) REFERENCES collections (club_id, kind, collection_id)
);
CREATE INDEX collection_games_by_game ON collection_games (game_id);

CREATE TABLE spectator_delays (
    game_id  text PRIMARY KEY REFERENCES games (game_id),
    events   integer NOT NULL DEFAULT 0,
    seconds  integer NOT NULL DEFAULT 0
);
