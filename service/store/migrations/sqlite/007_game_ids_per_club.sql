-- Game ids belong to their club (issue 13): two clubs may each have `friday-1`. A game is keyed by
-- (club, game id) and names the stream holding its events. Events are append-only and chained, so
-- they are never rewritten: games recorded before keep their id as their stream id (game ids were
-- unique across clubs then); new games get `club/game` (service.store.base.game_stream).
-- SQLite cannot change a primary key in place: the games table and the tables referring to it are
-- made again (renamed aside, created, copied, dropped), all in the migration's one transaction.
ALTER TABLE spectator_delays RENAME TO spectator_delays_old;
ALTER TABLE collection_games RENAME TO collection_games_old;
ALTER TABLE game_players RENAME TO game_players_old;
ALTER TABLE games RENAME TO games_old;
ALTER TABLE game_summaries RENAME TO game_summaries_old;
DROP INDEX games_by_club;
DROP INDEX collection_games_by_game;

CREATE TABLE games (
    club_id         TEXT NOT NULL REFERENCES clubs (club_id),
    game_id         TEXT NOT NULL,
    stream_id       TEXT NOT NULL UNIQUE,
    ruleset         TEXT NOT NULL,
    ruleset_version TEXT NOT NULL,
    player_ids      TEXT NOT NULL,
    title           TEXT NOT NULL DEFAULT '',
    created_at      TEXT NOT NULL,
    finished        INTEGER NOT NULL DEFAULT 0,
    finished_at     TEXT,
    PRIMARY KEY (club_id, game_id)
);
INSERT INTO games (club_id, game_id, stream_id, ruleset, ruleset_version, player_ids, title, created_at,
                   finished, finished_at)
SELECT club_id, game_id, game_id, ruleset, ruleset_version, player_ids, title, created_at, finished, finished_at
FROM games_old;
CREATE INDEX games_by_club ON games (club_id, created_at);

CREATE TABLE game_players (
    club_id   TEXT NOT NULL,
    game_id   TEXT NOT NULL,
    player_id TEXT NOT NULL,
    PRIMARY KEY (club_id, player_id, game_id),
    FOREIGN KEY (club_id, game_id) REFERENCES games (club_id, game_id)
);
INSERT INTO game_players (club_id, game_id, player_id)
SELECT g.club_id, p.game_id, p.player_id FROM game_players_old p JOIN games_old g ON g.game_id = p.game_id;

CREATE TABLE collection_games (
    club_id        TEXT NOT NULL,
    kind           TEXT NOT NULL,
    collection_id  TEXT NOT NULL,
    game_id        TEXT NOT NULL,
    ordinal        INTEGER NOT NULL,
    assigned_at    TEXT NOT NULL,
    PRIMARY KEY (club_id, kind, collection_id, game_id),
    FOREIGN KEY (club_id, kind, collection_id) REFERENCES collections (club_id, kind, collection_id),
    FOREIGN KEY (club_id, game_id) REFERENCES games (club_id, game_id)
);
INSERT INTO collection_games SELECT club_id, kind, collection_id, game_id, ordinal, assigned_at
FROM collection_games_old;
CREATE INDEX collection_games_by_game ON collection_games (club_id, game_id);

-- A delay belongs to the game's stream (one id, unique across clubs).
CREATE TABLE spectator_delays (
    stream_id  TEXT PRIMARY KEY REFERENCES games (stream_id),
    events     INTEGER NOT NULL DEFAULT 0,
    seconds    INTEGER NOT NULL DEFAULT 0
);
INSERT INTO spectator_delays SELECT game_id, events, seconds FROM spectator_delays_old;

-- Read models: a summary per (club, game id); corrections and snapshots per stream.
CREATE TABLE game_summaries (
    club_id         TEXT NOT NULL,
    game_id         TEXT NOT NULL,
    ruleset         TEXT NOT NULL,
    ruleset_version TEXT NOT NULL,
    version         INTEGER NOT NULL,
    applied         INTEGER NOT NULL,  -- events applied to this row: equals version unless one was applied twice
    started_at      TEXT NOT NULL,
    finished        INTEGER NOT NULL,
    finished_at     TEXT,
    players         TEXT NOT NULL,
    result          TEXT NOT NULL,
    PRIMARY KEY (club_id, game_id)
);
INSERT INTO game_summaries (club_id, game_id, ruleset, ruleset_version, version, applied, started_at, finished,
                            finished_at, players, result)
SELECT club_id, game_id, ruleset, ruleset_version, version, applied, started_at, finished, finished_at, players,
       result
FROM game_summaries_old;
ALTER TABLE game_result_changes RENAME COLUMN game_id TO stream_id;
ALTER TABLE replay_snapshots RENAME COLUMN game_id TO stream_id;

DROP TABLE spectator_delays_old;
DROP TABLE collection_games_old;
DROP TABLE game_players_old;
DROP TABLE games_old;
DROP TABLE game_summaries_old;
