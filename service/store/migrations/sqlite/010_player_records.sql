-- A club's players kept tidy from its pages (issue 27): a note that tells two of one name apart, a
-- retirement (kept in history, left out of menus), and merges of two records of one person. A merge is
-- a row of its own (who and when); no event is rewritten: projections read ids through it. Times are ISO
-- text on both backends, so the SQL is written once (service/store/players_sql.py).
ALTER TABLE players ADD COLUMN note TEXT NOT NULL DEFAULT '';
ALTER TABLE players ADD COLUMN retired_at TEXT;

CREATE TABLE player_merges (
    club_id     TEXT NOT NULL,
    player_id   TEXT NOT NULL,
    into_id     TEXT NOT NULL,
    key_id      TEXT,
    merged_at   TEXT NOT NULL,
    PRIMARY KEY (club_id, player_id),
    FOREIGN KEY (club_id, player_id) REFERENCES players (club_id, player_id),
    FOREIGN KEY (club_id, into_id) REFERENCES players (club_id, player_id)
);

-- The counters of readable game ids (`2026-11-26-mn-3`): one row per club and day-and-game prefix, moved
-- on in one statement, so two games started at once never take the same number.
CREATE TABLE game_numbers (
    club_id     TEXT NOT NULL,
    prefix      TEXT NOT NULL,
    last        INTEGER NOT NULL,
    PRIMARY KEY (club_id, prefix)
);
