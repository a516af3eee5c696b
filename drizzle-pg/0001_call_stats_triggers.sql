-- The analytics counters (call_stats per London day and hour, call_hour_stats per London hour
-- of day) kept exact by triggers on calls in the same statement, so the same transaction, as
-- every insert, update and delete, cascades included: PostgreSQL's version of SQLite's
-- drizzle/0003_call_stats_triggers.sql, 0004_call_hour_stats.sql and 0009_call_emails.sql.
-- London time by the same UK rule, not the time-zone database, so both engines file every
-- call in the same hour (core/time/london-time.ts): British Summer Time runs from 01:00
-- UTC on the first Sunday on or after 25 March to 01:00 UTC on the first Sunday on or after
-- 25 October.
CREATE FUNCTION london_ms(ms bigint) RETURNS bigint LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  y integer := extract(year FROM to_timestamp(ms / 1000) AT TIME ZONE 'UTC');
  mar date := make_date(y, 3, 25);
  oct date := make_date(y, 10, 25);
  starts bigint := ((mar + (7 - extract(isodow FROM mar)::integer) % 7) - date '1970-01-01') * 86400000::bigint + 3600000;
  ends bigint := ((oct + (7 - extract(isodow FROM oct)::integer) % 7) - date '1970-01-01') * 86400000::bigint + 3600000;
BEGIN
  RETURN ms + CASE WHEN ms >= starts AND ms < ends THEN 3600000 ELSE 0 END;
END $$;
--> statement-breakpoint
-- Adds one call's figures (s = 1) to its owner's counters, or takes them away (s = -1).
CREATE FUNCTION call_stats_bump(c calls, s integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  lt bigint := london_ms((extract(epoch FROM c.created_at) * 1000)::bigint);
BEGIN
  INSERT INTO call_stats AS t (user_id, day, hour, calls, missed, answered, voicemail, duration_sum, notified, notify_outcomes, transcribed, transcribe_outcomes, urgent, normal, low)
  VALUES (c.user_id, lt / 86400000, (lt / 3600000) % 24, s, s * (c.status = 'missed')::integer, s * (c.status = 'answered')::integer, s * (c.status = 'voicemail')::integer, s * c.duration,
    s * c.notification_sent::integer, s * (c.notification_sent OR c.notification_error IS NOT NULL)::integer, s * (c.transcription_status = 'done')::integer,
    s * (c.transcription_status IN ('done', 'failed'))::integer, s * (c.urgency IS NOT DISTINCT FROM 'urgent')::integer, s * (c.urgency IS NOT DISTINCT FROM 'normal')::integer, s * (c.urgency IS NOT DISTINCT FROM 'low')::integer)
  ON CONFLICT (user_id, day, hour) DO UPDATE SET calls = t.calls + excluded.calls, missed = t.missed + excluded.missed, answered = t.answered + excluded.answered,
    voicemail = t.voicemail + excluded.voicemail, duration_sum = t.duration_sum + excluded.duration_sum, notified = t.notified + excluded.notified,
    notify_outcomes = t.notify_outcomes + excluded.notify_outcomes, transcribed = t.transcribed + excluded.transcribed,
    transcribe_outcomes = t.transcribe_outcomes + excluded.transcribe_outcomes, urgent = t.urgent + excluded.urgent, normal = t.normal + excluded.normal, low = t.low + excluded.low;
  INSERT INTO call_hour_stats AS t (user_id, hour, calls, missed, answered, voicemail, duration_sum, notified, notify_outcomes, transcribed, transcribe_outcomes, urgent, normal, low)
  VALUES (c.user_id, (lt / 3600000) % 24, s, s * (c.status = 'missed')::integer, s * (c.status = 'answered')::integer, s * (c.status = 'voicemail')::integer, s * c.duration,
    s * c.notification_sent::integer, s * (c.notification_sent OR c.notification_error IS NOT NULL)::integer, s * (c.transcription_status = 'done')::integer,
    s * (c.transcription_status IN ('done', 'failed'))::integer, s * (c.urgency IS NOT DISTINCT FROM 'urgent')::integer, s * (c.urgency IS NOT DISTINCT FROM 'normal')::integer, s * (c.urgency IS NOT DISTINCT FROM 'low')::integer)
  ON CONFLICT (user_id, hour) DO UPDATE SET calls = t.calls + excluded.calls, missed = t.missed + excluded.missed, answered = t.answered + excluded.answered,
    voicemail = t.voicemail + excluded.voicemail, duration_sum = t.duration_sum + excluded.duration_sum, notified = t.notified + excluded.notified,
    notify_outcomes = t.notify_outcomes + excluded.notify_outcomes, transcribed = t.transcribed + excluded.transcribed,
    transcribe_outcomes = t.transcribe_outcomes + excluded.transcribe_outcomes, urgent = t.urgent + excluded.urgent, normal = t.normal + excluded.normal, low = t.low + excluded.low;
END $$;
--> statement-breakpoint
CREATE FUNCTION calls_stats_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A call deleted with its owner (the cascade) is not counted down: the owner's counters
  -- are deleted whole (users_call_stats_delete), whichever of the two triggers runs first.
  IF TG_OP = 'UPDATE' OR (TG_OP = 'DELETE' AND EXISTS (SELECT 1 FROM users WHERE id = OLD.user_id)) THEN
    PERFORM call_stats_bump(OLD, -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM call_stats_bump(NEW, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER calls_stats AFTER INSERT OR DELETE OR UPDATE OF user_id, created_at, status, duration, notification_sent, notification_error, transcription_status, urgency
  ON calls FOR EACH ROW EXECUTE FUNCTION calls_stats_trigger();
--> statement-breakpoint
CREATE FUNCTION users_call_stats_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM call_stats WHERE user_id = OLD.id;
  DELETE FROM call_hour_stats WHERE user_id = OLD.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_call_stats_delete AFTER DELETE ON users FOR EACH ROW EXECUTE FUNCTION users_call_stats_delete();
