-- A game's listed version is read from its events (the stream's last version, one index probe), so an
-- append writes the listing only when the game's finished status changes.
ALTER TABLE games DROP COLUMN version;
