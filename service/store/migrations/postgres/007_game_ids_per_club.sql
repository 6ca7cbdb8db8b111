-- Game ids belong to their club (issue 13): two clubs may each have `friday-1`. A game is keyed by
-- (club, game id) and names the stream holding its events. Events are append-only and chained, so
-- they are never rewritten: games recorded before keep their id as their stream id (game ids were
-- unique across clubs then); new games get `club/game` (service.store.base.game_stream).
ALTER TABLE collection_games DROP CONSTRAINT collection_games_game_id_fkey;
ALTER TABLE spectator_delays DROP CONSTRAINT spectator_delays_game_id_fkey;

ALTER TABLE games ADD COLUMN stream_id text;
UPDATE games SET stream_id = game_id;
ALTER TABLE games ALTER COLUMN stream_id SET NOT NULL;
ALTER TABLE games ADD CONSTRAINT games_stream_id_key UNIQUE (stream_id);
ALTER TABLE games DROP CONSTRAINT games_pkey;
ALTER TABLE games ADD PRIMARY KEY (club_id, game_id);

ALTER TABLE collection_games ADD FOREIGN KEY (club_id, game_id) REFERENCES games (club_id, game_id);
DROP INDEX collection_games_by_game;
CREATE INDEX collection_games_by_game ON collection_games (club_id, game_id);

-- A delay belongs to the game's stream (one id, unique across clubs).
ALTER TABLE spectator_delays RENAME COLUMN game_id TO stream_id;
ALTER TABLE spectator_delays ADD FOREIGN KEY (stream_id) REFERENCES games (stream_id);

-- Read models: a summary per (club, game id); corrections and snapshots per stream.
ALTER TABLE game_summaries DROP CONSTRAINT game_summaries_pkey;
ALTER TABLE game_summaries ADD PRIMARY KEY (club_id, game_id);
ALTER TABLE game_result_changes RENAME COLUMN game_id TO stream_id;
ALTER TABLE replay_snapshots RENAME COLUMN game_id TO stream_id;
