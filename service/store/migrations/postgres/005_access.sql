-- Scoped, revocable access (issue 13 part 3) and the club's pages (issue 11).
-- Times in the new columns and tables are ISO text on both backends, so one piece of SQL serves both
-- (service/store/access.py).

-- A key's scope: record (writes and every view), read (every view, no writes), spectate (public views,
-- behind the spectator delay). Existing keys keep what they could do: record.
ALTER TABLE api_keys ADD COLUMN scope TEXT NOT NULL DEFAULT 'record';
ALTER TABLE api_keys ADD COLUMN expires_at TEXT;
ALTER TABLE api_keys ADD COLUMN revoked_at TEXT;

-- A signed-in browser: the cookie carries the session id and a secret whose SHA-256 is kept here. A
-- session ends at its expiry, when it is signed out, or when its key is revoked.
CREATE TABLE page_sessions (
    session_id  TEXT PRIMARY KEY,
    key_id      TEXT NOT NULL REFERENCES api_keys (key_id),
    secret_hash TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    expires_at  TEXT NOT NULL,
    revoked_at  TEXT
);

-- A read-only link to one game, league or campaign (public view, spectator delay honoured).
CREATE TABLE share_links (
    share_id    TEXT PRIMARY KEY,
    club_id     TEXT NOT NULL REFERENCES clubs (club_id),
    kind        TEXT NOT NULL,
    target_id   TEXT NOT NULL,
    name        TEXT NOT NULL,
    secret_hash TEXT NOT NULL,
    created_by  TEXT,
    created_at  TEXT NOT NULL,
    revoked_at  TEXT
);
CREATE INDEX share_links_by_club ON share_links (club_id, created_at);

-- One counter raised in the same transaction as every revocation (key, session, share link). Every
-- server process reads it on each request and forgets what it remembered of credentials when it moved,
-- so a revocation takes effect on the next request on every worker.
CREATE TABLE access_revocations (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    generation bigint NOT NULL
);
INSERT INTO access_revocations (id, generation) VALUES (1, 0);

-- Secrets the server makes for itself once and every worker shares (the pages' CSRF signing key).
CREATE TABLE server_secrets (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
