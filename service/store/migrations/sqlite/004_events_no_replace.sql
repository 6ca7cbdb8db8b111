-- `INSERT OR REPLACE` (and `REPLACE INTO`) over an event deletes the old row without firing the DELETE
-- trigger (SQLite fires no delete triggers for REPLACE unless recursive_triggers is on, which the
-- connection, not the database, decides): refuse any insert that would meet an existing event.
CREATE TRIGGER events_no_replace BEFORE INSERT ON events
WHEN EXISTS (SELECT 1 FROM events WHERE stream_id = NEW.stream_id AND version = NEW.version)
  OR EXISTS (SELECT 1 FROM events WHERE position = NEW.position)
BEGIN SELECT RAISE(ABORT, 'tablelog events are append-only: REPLACE refused'); END;
