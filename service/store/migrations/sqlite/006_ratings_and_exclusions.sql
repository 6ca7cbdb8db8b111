-- Club ratings (a read model of the games projection, rebuilt with it): each player's current rating
-- per club and ruleset, and the rating after every game rated.
CREATE TABLE player_ratings (
    club_id           TEXT NOT NULL,
    ruleset           TEXT NOT NULL,
    player_id         TEXT NOT NULL,
    mu                REAL NOT NULL,
    sigma             REAL NOT NULL,
    rating            REAL NOT NULL,
    games             INTEGER NOT NULL,
    last_game         TEXT NOT NULL,
    last_finished_at  TEXT NOT NULL,
    PRIMARY KEY (club_id, ruleset, player_id)
);

CREATE TABLE rating_history (
    club_id      TEXT NOT NULL,
    ruleset      TEXT NOT NULL,
    player_id    TEXT NOT NULL,
    number       INTEGER NOT NULL,  -- the player's nth rated game of this ruleset
    game_id      TEXT NOT NULL,
    finished_at  TEXT NOT NULL,
    placement    INTEGER NOT NULL,
    mu           REAL NOT NULL,
    sigma        REAL NOT NULL,
    rating       REAL NOT NULL,
    change       REAL NOT NULL,
    PRIMARY KEY (club_id, ruleset, player_id, number)
);

-- Deriving ratings again reads the history from one game on.
CREATE INDEX rating_history_by_time ON rating_history (club_id, ruleset, finished_at);

-- A game taken out of a league or campaign, or put back: who did it, when and why (club records).
CREATE TABLE collection_game_changes (
    club_id        TEXT NOT NULL,
    kind           TEXT NOT NULL,
    collection_id  TEXT NOT NULL,
    number         INTEGER NOT NULL,
    game_id        TEXT NOT NULL,
    action         TEXT NOT NULL,  -- 'removed' or 'restored'
    reason         TEXT NOT NULL,
    key_id         TEXT,
    recorded_at    TEXT NOT NULL,
    PRIMARY KEY (club_id, kind, collection_id, number)
);
