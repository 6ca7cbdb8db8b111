-- Once a game's events carry links, every later event carries one (issue 25): an event written around the
-- service without its link would otherwise be skipped by `tablelog verify`. Streams that never had links
-- (a tournament's, games recorded before 004) are left as they are. The check runs only for an event
-- without a link, so an append through the service pays nothing for it.
CREATE FUNCTION tablelog_refuse_unlinked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM events WHERE stream_id = NEW.stream_id AND version = NEW.version - 1
               AND chain IS NOT NULL) THEN
        RAISE EXCEPTION 'tablelog events after a linked one carry their link: event % of % refused',
            NEW.version, NEW.stream_id USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER events_keep_links BEFORE INSERT ON events
    FOR EACH ROW WHEN (NEW.chain IS NULL) EXECUTE FUNCTION tablelog_refuse_unlinked();
