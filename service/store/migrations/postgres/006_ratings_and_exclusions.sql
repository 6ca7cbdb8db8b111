-- Club ratings (a read model of the games projection, rebuilt with it): each player's current rating
-- per club and ruleset, and the rating after every game rated.
CREATE TABLE player_ratings (
    club_id           text NOT NULL,
    ruleset           text NOT NULL,
    player_id         text NOT NULL,
    mu                double precision NOT NULL,
    sigma             double precision NOT NULL,
    rating            double precision NOT NULL,
    games             integer NOT NULL,
    last_game         text NOT NULL,
    last_finished_at  text NOT NULL,
    PRIMARY KEY (club_id, ruleset, player_id)
);

CREATE TABLE rating_history (
    club_id      text NOT NULL,
    ruleset      text NOT NULL,
    player_id    text NOT NULL,
    number       integer NOT NULL,  -- the player's nth rated game of this ruleset
    game_id      text NOT NULL,
    finished_at  text NOT NULL,
    placement    integer NOT NULL,
    mu           double precision NOT NULL,
    sigma        double precision NOT NULL,
    rating       double precision NOT NULL,
    change       double precision NOT NULL,
    PRIMARY KEY (club_id, ruleset, player_id, number)
);

-- Deriving ratings again reads the history from one game on.
CREATE INDEX rating_history_by_time ON rating_history (club_id, ruleset, finished_at);

-- A game taken out of a league or campaign, or put back: who did it, when and why (club records).
CREATE TABLE collection_game_changes (
    club_id        text NOT NULL,
    kind           text NOT NULL,
    collection_id  text NOT NULL,
    number         integer NOT NULL,
    game_id        text NOT NULL,
    action         text NOT NULL,  -- 'removed' or 'restored'
    reason         text NOT NULL,
    key_id         text,
    recorded_at    text NOT NULL,
    PRIMARY KEY (club_id, kind, collection_id, number)
);
