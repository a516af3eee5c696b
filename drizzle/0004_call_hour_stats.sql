-- Per-business counters by London hour of day over all time (hand-added WITHOUT ROWID, as
-- call_stats: one business's at most 24 rows are one contiguous range). Analytics sums these
-- few rows for its totals and peak hours instead of one row per day and hour of a business's
-- whole history; call_stats still gives the per-day figures (last 30 days, this month).
-- Kept exact by triggers on `calls` in the same statement (so the same transaction) as every
-- insert, update and delete, cascades included; London hour by the same UK rule as
-- drizzle/0003_call_stats_triggers.sql and core/analytics/london-time.ts.
CREATE TABLE `call_hour_stats` (
	`user_id` integer NOT NULL,
	`hour` integer NOT NULL,
	`calls` integer DEFAULT 0 NOT NULL,
	`missed` integer DEFAULT 0 NOT NULL,
	`answered` integer DEFAULT 0 NOT NULL,
	`voicemail` integer DEFAULT 0 NOT NULL,
	`duration_sum` integer DEFAULT 0 NOT NULL,
	`notified` integer DEFAULT 0 NOT NULL,
	`notify_outcomes` integer DEFAULT 0 NOT NULL,
	`transcribed` integer DEFAULT 0 NOT NULL,
	`transcribe_outcomes` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `hour`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TRIGGER calls_hour_stats_insert AFTER INSERT ON calls BEGIN
  INSERT INTO call_hour_stats (user_id, hour, calls, missed, answered, voicemail, duration_sum, notified, notify_outcomes, transcribed, transcribe_outcomes)
  VALUES (NEW.user_id, ((NEW.created_at + (CASE WHEN NEW.created_at >= (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND NEW.created_at < (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END)) / 3600000) % 24, 1, 1 * (NEW.status = 'missed'), 1 * (NEW.status = 'answered'), 1 * (NEW.status = 'voicemail'), 1 * NEW.duration, 1 * (NEW.notification_sent = 1), 1 * (NEW.notification_sent = 1 OR NEW.notification_error IS NOT NULL), 1 * (NEW.transcription_status = 'done'), 1 * (NEW.transcription_status IN ('done', 'failed')))
  ON CONFLICT (user_id, hour) DO UPDATE SET calls = calls + excluded.calls, missed = missed + excluded.missed, answered = answered + excluded.answered, voicemail = voicemail + excluded.voicemail, duration_sum = duration_sum + excluded.duration_sum, notified = notified + excluded.notified, notify_outcomes = notify_outcomes + excluded.notify_outcomes, transcribed = transcribed + excluded.transcribed, transcribe_outcomes = transcribe_outcomes + excluded.transcribe_outcomes;
END;
--> statement-breakpoint
CREATE TRIGGER calls_hour_stats_delete AFTER DELETE ON calls BEGIN
  INSERT INTO call_hour_stats (user_id, hour, calls, missed, answered, voicemail, duration_sum, notified, notify_outcomes, transcribed, transcribe_outcomes)
  VALUES (OLD.user_id, ((OLD.created_at + (CASE WHEN OLD.created_at >= (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND OLD.created_at < (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END)) / 3600000) % 24, -1, -1 * (OLD.status = 'missed'), -1 * (OLD.status = 'answered'), -1 * (OLD.status = 'voicemail'), -1 * OLD.duration, -1 * (OLD.notification_sent = 1), -1 * (OLD.notification_sent = 1 OR OLD.notification_error IS NOT NULL), -1 * (OLD.transcription_status = 'done'), -1 * (OLD.transcription_status IN ('done', 'failed')))
  ON CONFLICT (user_id, hour) DO UPDATE SET calls = calls + excluded.calls, missed = missed + excluded.missed, answered = answered + excluded.answered, voicemail = voicemail + excluded.voicemail, duration_sum = duration_sum + excluded.duration_sum, notified = notified + excluded.notified, notify_outcomes = notify_outcomes + excluded.notify_outcomes, transcribed = transcribed + excluded.transcribed, transcribe_outcomes = transcribe_outcomes + excluded.transcribe_outcomes;
END;
--> statement-breakpoint
CREATE TRIGGER calls_hour_stats_update AFTER UPDATE OF user_id, created_at, status, duration, notification_sent, notification_error, transcription_status ON calls BEGIN
  INSERT INTO call_hour_stats (user_id, hour, calls, missed, answered, voicemail, duration_sum, notified, notify_outcomes, transcribed, transcribe_outcomes)
  VALUES (OLD.user_id, ((OLD.created_at + (CASE WHEN OLD.created_at >= (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND OLD.created_at < (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END)) / 3600000) % 24, -1, -1 * (OLD.status = 'missed'), -1 * (OLD.status = 'answered'), -1 * (OLD.status = 'voicemail'), -1 * OLD.duration, -1 * (OLD.notification_sent = 1), -1 * (OLD.notification_sent = 1 OR OLD.notification_error IS NOT NULL), -1 * (OLD.transcription_status = 'done'), -1 * (OLD.transcription_status IN ('done', 'failed')))
  ON CONFLICT (user_id, hour) DO UPDATE SET calls = calls + excluded.calls, missed = missed + excluded.missed, answered = answered + excluded.answered, voicemail = voicemail + excluded.voicemail, duration_sum = duration_sum + excluded.duration_sum, notified = notified + excluded.notified, notify_outcomes = notify_outcomes + excluded.notify_outcomes, transcribed = transcribed + excluded.transcribed, transcribe_outcomes = transcribe_outcomes + excluded.transcribe_outcomes;
  INSERT INTO call_hour_stats (user_id, hour, calls, missed, answered, voicemail, duration_sum, notified, notify_outcomes, transcribed, transcribe_outcomes)
  VALUES (NEW.user_id, ((NEW.created_at + (CASE WHEN NEW.created_at >= (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND NEW.created_at < (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END)) / 3600000) % 24, 1, 1 * (NEW.status = 'missed'), 1 * (NEW.status = 'answered'), 1 * (NEW.status = 'voicemail'), 1 * NEW.duration, 1 * (NEW.notification_sent = 1), 1 * (NEW.notification_sent = 1 OR NEW.notification_error IS NOT NULL), 1 * (NEW.transcription_status = 'done'), 1 * (NEW.transcription_status IN ('done', 'failed')))
  ON CONFLICT (user_id, hour) DO UPDATE SET calls = calls + excluded.calls, missed = missed + excluded.missed, answered = answered + excluded.answered, voicemail = voicemail + excluded.voicemail, duration_sum = duration_sum + excluded.duration_sum, notified = notified + excluded.notified, notify_outcomes = notify_outcomes + excluded.notify_outcomes, transcribed = transcribed + excluded.transcribed, transcribe_outcomes = transcribe_outcomes + excluded.transcribe_outcomes;
END;
--> statement-breakpoint
CREATE TRIGGER users_call_hour_stats_delete AFTER DELETE ON users BEGIN
  DELETE FROM call_hour_stats WHERE user_id = OLD.id;
END;
--> statement-breakpoint
-- Calls stored before this migration, counted straight from the calls table.
INSERT INTO call_hour_stats (user_id, hour, calls, missed, answered, voicemail, duration_sum, notified, notify_outcomes, transcribed, transcribe_outcomes)
SELECT user_id, (lt / 3600000) % 24, count(*), sum(status = 'missed'), sum(status = 'answered'), sum(status = 'voicemail'), sum(duration),
  sum(notification_sent = 1), sum(notification_sent = 1 OR notification_error IS NOT NULL), sum(transcription_status = 'done'), sum(transcription_status IN ('done', 'failed'))
FROM (SELECT *, created_at + (CASE WHEN created_at >= (unixepoch(date(strftime('%Y', created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND created_at < (unixepoch(date(strftime('%Y', created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END) AS lt FROM calls)
GROUP BY user_id, (lt / 3600000) % 24;
