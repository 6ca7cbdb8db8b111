-- Once a game's events carry links, every later event carries one (issue 25): see the PostgreSQL migration.
CREATE TRIGGER events_keep_links BEFORE INSERT ON events
WHEN NEW.chain IS NULL
  AND EXISTS (SELECT 1 FROM events WHERE stream_id = NEW.stream_id AND version = NEW.version - 1 AND chain IS NOT NULL)
BEGIN SELECT RAISE(ABORT, 'tablelog events after a linked one carry their link'); END;
