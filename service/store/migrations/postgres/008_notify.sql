-- Notifications (issues 13 part 6 and 15 part 1): every server process keeps one listening connection
-- (service/notify.py) instead of polling per live stream and reading the revocation counter per request.
-- The channels carry the schema's name, so several deployments (or test schemas) in one database never
-- hear each other. NOTIFY is sent at commit, so a listener never hears of an event it cannot read yet.

-- After each statement that appends events: one notification per stream, with its club and new version.
CREATE FUNCTION tablelog_events_appended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify(
        'tablelog_events:' || TG_TABLE_SCHEMA,
        json_build_object('club', club_id, 'stream', stream_id, 'version', max(version))::text
    )
    FROM appended GROUP BY club_id, stream_id;
    RETURN NULL;
END;
$$;
CREATE TRIGGER events_notify AFTER INSERT ON events
    REFERENCING NEW TABLE AS appended FOR EACH STATEMENT EXECUTE FUNCTION tablelog_events_appended();

-- A changed spectator delay releases or holds back steps: live streams of the game look again.
CREATE FUNCTION tablelog_delay_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('tablelog_events:' || TG_TABLE_SCHEMA, json_build_object('stream', NEW.game_id)::text);
    RETURN NULL;
END;
$$;
CREATE TRIGGER spectator_delays_notify AFTER INSERT OR UPDATE ON spectator_delays
    FOR EACH ROW EXECUTE FUNCTION tablelog_delay_changed();

-- Each revocation (key, page session, share link) raises the counter: its new value is the message.
CREATE FUNCTION tablelog_access_revoked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('tablelog_access:' || TG_TABLE_SCHEMA, NEW.generation::text);
    RETURN NULL;
END;
$$;
CREATE TRIGGER access_revocations_notify AFTER UPDATE ON access_revocations
    FOR EACH ROW EXECUTE FUNCTION tablelog_access_revoked();
