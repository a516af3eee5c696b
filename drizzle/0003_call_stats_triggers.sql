-- Keeps call_stats (per business, London day and hour) in step with calls, so analytics
-- never scans every call. London time without a time-zone database: British Summer Time
-- runs from 01:00 UTC on the last Sunday of March (the first Sunday on or after 25 March)
-- to 01:00 UTC on the last Sunday of October; core/analytics/london-time.ts holds the
-- same rule in TypeScript and test/analytics checks the two agree.
CREATE TRIGGER calls_stats_insert AFTER INSERT ON calls BEGIN
  INSERT INTO call_stats (user_id, day, hour, calls, missed, answered, voicemail, duration_sum, notified, notify_outcomes, transcribed, transcribe_outcomes)
  SELECT NEW.user_id, lt / 86400000, (lt / 3600000) % 24, 1, 1 * (NEW.status = 'missed'), 1 * (NEW.status = 'answered'), 1 * (NEW.status = 'voicemail'), 1 * NEW.duration, 1 * (NEW.notification_sent = 1), 1 * (NEW.notification_sent = 1 OR NEW.notification_error IS NOT NULL), 1 * (NEW.transcription_status = 'done'), 1 * (NEW.transcription_status IN ('done', 'failed'))
  FROM (SELECT NEW.created_at + (CASE WHEN NEW.created_at >= (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND NEW.created_at < (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END) AS lt) WHERE true
  ON CONFLICT (user_id, day, hour) DO UPDATE SET calls = calls + excluded.calls, missed = missed + excluded.missed, answered = answered + excluded.answered, voicemail = voicemail + excluded.voicemail, duration_sum = duration_sum + excluded.duration_sum, notified = notified + excluded.notified, notify_outcomes = notify_outcomes + excluded.notify_outcomes, transcribed = transcribed + excluded.transcribed, transcribe_outcomes = transcribe_outcomes + excluded.transcribe_outcomes;
END;
--> statement-breakpoint
CREATE TRIGGER calls_stats_delete AFTER DELETE ON calls BEGIN
  INSERT INTO call_stats (user_id, day, hour, calls, missed, answered, voicemail, duration_sum, notified, notify_outcomes, transcribed, transcribe_outcomes)
  SELECT OLD.user_id, lt / 86400000, (lt / 3600000) % 24, -1, -1 * (OLD.status = 'missed'), -1 * (OLD.status = 'answered'), -1 * (OLD.status = 'voicemail'), -1 * OLD.duration, -1 * (OLD.notification_sent = 1), -1 * (OLD.notification_sent = 1 OR OLD.notification_error IS NOT NULL), -1 * (OLD.transcription_status = 'done'), -1 * (OLD.transcription_status IN ('done', 'failed'))
  FROM (SELECT OLD.created_at + (CASE WHEN OLD.created_at >= (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND OLD.created_at < (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END) AS lt) WHERE true
  ON CONFLICT (user_id, day, hour) DO UPDATE SET calls = calls + excluded.calls, missed = missed + excluded.missed, answered = answered + excluded.answered, voicemail = voicemail + excluded.voicemail, duration_sum = duration_sum + excluded.duration_sum, notified = notified + excluded.notified, notify_outcomes = notify_outcomes + excluded.notify_outcomes, transcribed = transcribed + excluded.transcribed, transcribe_outcomes = transcribe_outcomes + excluded.transcribe_outcomes;
END;
--> statement-breakpoint
CREATE TRIGGER calls_stats_update AFTER UPDATE OF user_id, created_at, status, duration, notification_sent, notification_error, transcription_status ON calls BEGIN
  INSERT INTO call_stats (user_id, day, hour, calls, missed, answered, voicemail, duration_sum, notified, notify_outcomes, transcribed, transcribe_outcomes)
  SELECT OLD.user_id, lt / 86400000, (lt / 3600000) % 24, -1, -1 * (OLD.status = 'missed'), -1 * (OLD.status = 'answered'), -1 * (OLD.status = 'voicemail'), -1 * OLD.duration, -1 * (OLD.notification_sent = 1), -1 * (OLD.notification_sent = 1 OR OLD.notification_error IS NOT NULL), -1 * (OLD.transcription_status = 'done'), -1 * (OLD.transcription_status IN ('done', 'failed'))
  FROM (SELECT OLD.created_at + (CASE WHEN OLD.created_at >= (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND OLD.created_at < (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END) AS lt) WHERE true
  ON CONFLICT (user_id, day, hour) DO UPDATE SET calls = calls + excluded.calls, missed = missed + excluded.missed, answered = answered + excluded.answered, voicemail = voicemail + excluded.voicemail, duration_sum = duration_sum + excluded.duration_sum, notified = notified + excluded.notified, notify_outcomes = notify_outcomes + excluded.notify_outcomes, transcribed = transcribed + excluded.transcribed, transcribe_outcomes = transcribe_outcomes + excluded.transcribe_outcomes;
  INSERT INTO call_stats (user_id, day, hour, calls, missed, answered, voicemail, duration_sum, notified, notify_outcomes, transcribed, transcribe_outcomes)
  SELECT NEW.user_id, lt / 86400000, (lt / 3600000) % 24, 1, 1 * (NEW.status = 'missed'), 1 * (NEW.status = 'answered'), 1 * (NEW.status = 'voicemail'), 1 * NEW.duration, 1 * (NEW.notification_sent = 1), 1 * (NEW.notification_sent = 1 OR NEW.notification_error IS NOT NULL), 1 * (NEW.transcription_status = 'done'), 1 * (NEW.transcription_status IN ('done', 'failed'))
  FROM (SELECT NEW.created_at + (CASE WHEN NEW.created_at >= (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND NEW.created_at < (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END) AS lt) WHERE true
  ON CONFLICT (user_id, day, hour) DO UPDATE SET calls = calls + excluded.calls, missed = missed + excluded.missed, answered = answered + excluded.answered, voicemail = voicemail + excluded.voicemail, duration_sum = duration_sum + excluded.duration_sum, notified = notified + excluded.notified, notify_outcomes = notify_outcomes + excluded.notify_outcomes, transcribed = transcribed + excluded.transcribed, transcribe_outcomes = transcribe_outcomes + excluded.transcribe_outcomes;
END;
--> statement-breakpoint
CREATE TRIGGER users_call_stats_delete AFTER DELETE ON users BEGIN
  DELETE FROM call_stats WHERE user_id = OLD.id;
END;
--> statement-breakpoint
-- Calls stored before this migration.
INSERT INTO call_stats (user_id, day, hour, calls, missed, answered, voicemail, duration_sum, notified, notify_outcomes, transcribed, transcribe_outcomes)
SELECT user_id, lt / 86400000, (lt / 3600000) % 24, count(*), sum(status = 'missed'), sum(status = 'answered'), sum(status = 'voicemail'), sum(duration),
  sum(notification_sent = 1), sum(notification_sent = 1 OR notification_error IS NOT NULL), sum(transcription_status = 'done'), sum(transcription_status IN ('done', 'failed'))
FROM (SELECT *, created_at + (CASE WHEN created_at >= (unixepoch(date(strftime('%Y', created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND created_at < (unixepoch(date(strftime('%Y', created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END) AS lt FROM calls)
GROUP BY user_id, lt / 86400000, (lt / 3600000) % 24;
