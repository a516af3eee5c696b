ALTER TABLE `calls` ADD `test_call` integer DEFAULT false NOT NULL;
--> statement-breakpoint
-- Hand-written below: the owner's own test calls ("Call my line", issue 28) stay out of the
-- analytics counters. Each trigger of 0003, 0004 and 0009 on calls is re-made unchanged but
-- for its WHEN: test_call is set at insert and never changes, so a test call is skipped by
-- every insert, update and delete alike and the counters stay exact.
DROP TRIGGER calls_stats_insert;
--> statement-breakpoint
CREATE TRIGGER calls_stats_insert AFTER INSERT ON calls WHEN NEW.test_call = 0 BEGIN
  INSERT INTO call_stats (user_id, day, hour, calls, missed, answered, voicemail, duration_sum, notified, notify_outcomes, transcribed, transcribe_outcomes)
  SELECT NEW.user_id, lt / 86400000, (lt / 3600000) % 24, 1, 1 * (NEW.status = 'missed'), 1 * (NEW.status = 'answered'), 1 * (NEW.status = 'voicemail'), 1 * NEW.duration, 1 * (NEW.notification_sent = 1), 1 * (NEW.notification_sent = 1 OR NEW.notification_error IS NOT NULL), 1 * (NEW.transcription_status = 'done'), 1 * (NEW.transcription_status IN ('done', 'failed'))
  FROM (SELECT NEW.created_at + (CASE WHEN NEW.created_at >= (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND NEW.created_at < (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END) AS lt) WHERE true
  ON CONFLICT (user_id, day, hour) DO UPDATE SET calls = calls + excluded.calls, missed = missed + excluded.missed, answered = answered + excluded.answered, voicemail = voicemail + excluded.voicemail, duration_sum = duration_sum + excluded.duration_sum, notified = notified + excluded.notified, notify_outcomes = notify_outcomes + excluded.notify_outcomes, transcribed = transcribed + excluded.transcribed, transcribe_outcomes = transcribe_outcomes + excluded.transcribe_outcomes;
END;
--> statement-breakpoint
DROP TRIGGER calls_stats_delete;
--> statement-breakpoint
CREATE TRIGGER calls_stats_delete AFTER DELETE ON calls WHEN OLD.test_call = 0 BEGIN
  INSERT INTO call_stats (user_id, day, hour, calls, missed, answered, voicemail, duration_sum, notified, notify_outcomes, transcribed, transcribe_outcomes)
  SELECT OLD.user_id, lt / 86400000, (lt / 3600000) % 24, -1, -1 * (OLD.status = 'missed'), -1 * (OLD.status = 'answered'), -1 * (OLD.status = 'voicemail'), -1 * OLD.duration, -1 * (OLD.notification_sent = 1), -1 * (OLD.notification_sent = 1 OR OLD.notification_error IS NOT NULL), -1 * (OLD.transcription_status = 'done'), -1 * (OLD.transcription_status IN ('done', 'failed'))
  FROM (SELECT OLD.created_at + (CASE WHEN OLD.created_at >= (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND OLD.created_at < (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END) AS lt) WHERE true
  ON CONFLICT (user_id, day, hour) DO UPDATE SET calls = calls + excluded.calls, missed = missed + excluded.missed, answered = answered + excluded.answered, voicemail = voicemail + excluded.voicemail, duration_sum = duration_sum + excluded.duration_sum, notified = notified + excluded.notified, notify_outcomes = notify_outcomes + excluded.notify_outcomes, transcribed = transcribed + excluded.transcribed, transcribe_outcomes = transcribe_outcomes + excluded.transcribe_outcomes;
END;
--> statement-breakpoint
DROP TRIGGER calls_stats_update;
--> statement-breakpoint
CREATE TRIGGER calls_stats_update AFTER UPDATE OF user_id, created_at, status, duration, notification_sent, notification_error, transcription_status ON calls WHEN NEW.test_call = 0 BEGIN
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
DROP TRIGGER calls_hour_stats_insert;
--> statement-breakpoint
CREATE TRIGGER calls_hour_stats_insert AFTER INSERT ON calls WHEN NEW.test_call = 0 BEGIN
  INSERT INTO call_hour_stats (user_id, hour, calls, missed, answered, voicemail, duration_sum, notified, notify_outcomes, transcribed, transcribe_outcomes)
  VALUES (NEW.user_id, ((NEW.created_at + (CASE WHEN NEW.created_at >= (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND NEW.created_at < (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END)) / 3600000) % 24, 1, 1 * (NEW.status = 'missed'), 1 * (NEW.status = 'answered'), 1 * (NEW.status = 'voicemail'), 1 * NEW.duration, 1 * (NEW.notification_sent = 1), 1 * (NEW.notification_sent = 1 OR NEW.notification_error IS NOT NULL), 1 * (NEW.transcription_status = 'done'), 1 * (NEW.transcription_status IN ('done', 'failed')))
  ON CONFLICT (user_id, hour) DO UPDATE SET calls = calls + excluded.calls, missed = missed + excluded.missed, answered = answered + excluded.answered, voicemail = voicemail + excluded.voicemail, duration_sum = duration_sum + excluded.duration_sum, notified = notified + excluded.notified, notify_outcomes = notify_outcomes + excluded.notify_outcomes, transcribed = transcribed + excluded.transcribed, transcribe_outcomes = transcribe_outcomes + excluded.transcribe_outcomes;
END;
--> statement-breakpoint
DROP TRIGGER calls_hour_stats_delete;
--> statement-breakpoint
CREATE TRIGGER calls_hour_stats_delete AFTER DELETE ON calls WHEN OLD.test_call = 0 BEGIN
  INSERT INTO call_hour_stats (user_id, hour, calls, missed, answered, voicemail, duration_sum, notified, notify_outcomes, transcribed, transcribe_outcomes)
  VALUES (OLD.user_id, ((OLD.created_at + (CASE WHEN OLD.created_at >= (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND OLD.created_at < (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END)) / 3600000) % 24, -1, -1 * (OLD.status = 'missed'), -1 * (OLD.status = 'answered'), -1 * (OLD.status = 'voicemail'), -1 * OLD.duration, -1 * (OLD.notification_sent = 1), -1 * (OLD.notification_sent = 1 OR OLD.notification_error IS NOT NULL), -1 * (OLD.transcription_status = 'done'), -1 * (OLD.transcription_status IN ('done', 'failed')))
  ON CONFLICT (user_id, hour) DO UPDATE SET calls = calls + excluded.calls, missed = missed + excluded.missed, answered = answered + excluded.answered, voicemail = voicemail + excluded.voicemail, duration_sum = duration_sum + excluded.duration_sum, notified = notified + excluded.notified, notify_outcomes = notify_outcomes + excluded.notify_outcomes, transcribed = transcribed + excluded.transcribed, transcribe_outcomes = transcribe_outcomes + excluded.transcribe_outcomes;
END;
--> statement-breakpoint
DROP TRIGGER calls_hour_stats_update;
--> statement-breakpoint
CREATE TRIGGER calls_hour_stats_update AFTER UPDATE OF user_id, created_at, status, duration, notification_sent, notification_error, transcription_status ON calls WHEN NEW.test_call = 0 BEGIN
  INSERT INTO call_hour_stats (user_id, hour, calls, missed, answered, voicemail, duration_sum, notified, notify_outcomes, transcribed, transcribe_outcomes)
  VALUES (OLD.user_id, ((OLD.created_at + (CASE WHEN OLD.created_at >= (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND OLD.created_at < (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END)) / 3600000) % 24, -1, -1 * (OLD.status = 'missed'), -1 * (OLD.status = 'answered'), -1 * (OLD.status = 'voicemail'), -1 * OLD.duration, -1 * (OLD.notification_sent = 1), -1 * (OLD.notification_sent = 1 OR OLD.notification_error IS NOT NULL), -1 * (OLD.transcription_status = 'done'), -1 * (OLD.transcription_status IN ('done', 'failed')))
  ON CONFLICT (user_id, hour) DO UPDATE SET calls = calls + excluded.calls, missed = missed + excluded.missed, answered = answered + excluded.answered, voicemail = voicemail + excluded.voicemail, duration_sum = duration_sum + excluded.duration_sum, notified = notified + excluded.notified, notify_outcomes = notify_outcomes + excluded.notify_outcomes, transcribed = transcribed + excluded.transcribed, transcribe_outcomes = transcribe_outcomes + excluded.transcribe_outcomes;
  INSERT INTO call_hour_stats (user_id, hour, calls, missed, answered, voicemail, duration_sum, notified, notify_outcomes, transcribed, transcribe_outcomes)
  VALUES (NEW.user_id, ((NEW.created_at + (CASE WHEN NEW.created_at >= (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND NEW.created_at < (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END)) / 3600000) % 24, 1, 1 * (NEW.status = 'missed'), 1 * (NEW.status = 'answered'), 1 * (NEW.status = 'voicemail'), 1 * NEW.duration, 1 * (NEW.notification_sent = 1), 1 * (NEW.notification_sent = 1 OR NEW.notification_error IS NOT NULL), 1 * (NEW.transcription_status = 'done'), 1 * (NEW.transcription_status IN ('done', 'failed')))
  ON CONFLICT (user_id, hour) DO UPDATE SET calls = calls + excluded.calls, missed = missed + excluded.missed, answered = answered + excluded.answered, voicemail = voicemail + excluded.voicemail, duration_sum = duration_sum + excluded.duration_sum, notified = notified + excluded.notified, notify_outcomes = notify_outcomes + excluded.notify_outcomes, transcribed = transcribed + excluded.transcribed, transcribe_outcomes = transcribe_outcomes + excluded.transcribe_outcomes;
END;
--> statement-breakpoint
DROP TRIGGER calls_stats_urgency_insert;
--> statement-breakpoint
CREATE TRIGGER calls_stats_urgency_insert AFTER INSERT ON calls WHEN (NEW.urgency IS NOT NULL) AND NEW.test_call = 0 BEGIN
  INSERT INTO call_stats (user_id, day, hour, urgent, normal, low)
  SELECT NEW.user_id, lt / 86400000, (lt / 3600000) % 24, 1 * (NEW.urgency = 'urgent'), 1 * (NEW.urgency = 'normal'), 1 * (NEW.urgency = 'low')
  FROM (SELECT NEW.created_at + (CASE WHEN NEW.created_at >= (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND NEW.created_at < (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END) AS lt) WHERE NEW.urgency IS NOT NULL
  ON CONFLICT (user_id, day, hour) DO UPDATE SET urgent = urgent + excluded.urgent, normal = normal + excluded.normal, low = low + excluded.low;
END;
--> statement-breakpoint
DROP TRIGGER calls_stats_urgency_delete;
--> statement-breakpoint
CREATE TRIGGER calls_stats_urgency_delete AFTER DELETE ON calls WHEN (OLD.urgency IS NOT NULL) AND OLD.test_call = 0 BEGIN
  INSERT INTO call_stats (user_id, day, hour, urgent, normal, low)
  SELECT OLD.user_id, lt / 86400000, (lt / 3600000) % 24, -1 * (OLD.urgency = 'urgent'), -1 * (OLD.urgency = 'normal'), -1 * (OLD.urgency = 'low')
  FROM (SELECT OLD.created_at + (CASE WHEN OLD.created_at >= (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND OLD.created_at < (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END) AS lt) WHERE OLD.urgency IS NOT NULL
  ON CONFLICT (user_id, day, hour) DO UPDATE SET urgent = urgent + excluded.urgent, normal = normal + excluded.normal, low = low + excluded.low;
END;
--> statement-breakpoint
DROP TRIGGER calls_stats_urgency_update;
--> statement-breakpoint
CREATE TRIGGER calls_stats_urgency_update AFTER UPDATE OF user_id, created_at, urgency ON calls WHEN (OLD.urgency IS NOT NULL OR NEW.urgency IS NOT NULL) AND NEW.test_call = 0 BEGIN
  INSERT INTO call_stats (user_id, day, hour, urgent, normal, low)
  SELECT OLD.user_id, lt / 86400000, (lt / 3600000) % 24, -1 * (OLD.urgency = 'urgent'), -1 * (OLD.urgency = 'normal'), -1 * (OLD.urgency = 'low')
  FROM (SELECT OLD.created_at + (CASE WHEN OLD.created_at >= (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND OLD.created_at < (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END) AS lt) WHERE OLD.urgency IS NOT NULL
  ON CONFLICT (user_id, day, hour) DO UPDATE SET urgent = urgent + excluded.urgent, normal = normal + excluded.normal, low = low + excluded.low;
  INSERT INTO call_stats (user_id, day, hour, urgent, normal, low)
  SELECT NEW.user_id, lt / 86400000, (lt / 3600000) % 24, 1 * (NEW.urgency = 'urgent'), 1 * (NEW.urgency = 'normal'), 1 * (NEW.urgency = 'low')
  FROM (SELECT NEW.created_at + (CASE WHEN NEW.created_at >= (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND NEW.created_at < (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END) AS lt) WHERE NEW.urgency IS NOT NULL
  ON CONFLICT (user_id, day, hour) DO UPDATE SET urgent = urgent + excluded.urgent, normal = normal + excluded.normal, low = low + excluded.low;
END;
--> statement-breakpoint
DROP TRIGGER calls_hour_stats_urgency_insert;
--> statement-breakpoint
CREATE TRIGGER calls_hour_stats_urgency_insert AFTER INSERT ON calls WHEN (NEW.urgency IS NOT NULL) AND NEW.test_call = 0 BEGIN
  INSERT INTO call_hour_stats (user_id, hour, urgent, normal, low)
  SELECT NEW.user_id, (lt / 3600000) % 24, 1 * (NEW.urgency = 'urgent'), 1 * (NEW.urgency = 'normal'), 1 * (NEW.urgency = 'low')
  FROM (SELECT NEW.created_at + (CASE WHEN NEW.created_at >= (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND NEW.created_at < (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END) AS lt) WHERE NEW.urgency IS NOT NULL
  ON CONFLICT (user_id, hour) DO UPDATE SET urgent = urgent + excluded.urgent, normal = normal + excluded.normal, low = low + excluded.low;
END;
--> statement-breakpoint
DROP TRIGGER calls_hour_stats_urgency_delete;
--> statement-breakpoint
CREATE TRIGGER calls_hour_stats_urgency_delete AFTER DELETE ON calls WHEN (OLD.urgency IS NOT NULL) AND OLD.test_call = 0 BEGIN
  INSERT INTO call_hour_stats (user_id, hour, urgent, normal, low)
  SELECT OLD.user_id, (lt / 3600000) % 24, -1 * (OLD.urgency = 'urgent'), -1 * (OLD.urgency = 'normal'), -1 * (OLD.urgency = 'low')
  FROM (SELECT OLD.created_at + (CASE WHEN OLD.created_at >= (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND OLD.created_at < (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END) AS lt) WHERE OLD.urgency IS NOT NULL
  ON CONFLICT (user_id, hour) DO UPDATE SET urgent = urgent + excluded.urgent, normal = normal + excluded.normal, low = low + excluded.low;
END;
--> statement-breakpoint
DROP TRIGGER calls_hour_stats_urgency_update;
--> statement-breakpoint
CREATE TRIGGER calls_hour_stats_urgency_update AFTER UPDATE OF user_id, created_at, urgency ON calls WHEN (OLD.urgency IS NOT NULL OR NEW.urgency IS NOT NULL) AND NEW.test_call = 0 BEGIN
  INSERT INTO call_hour_stats (user_id, hour, urgent, normal, low)
  SELECT OLD.user_id, (lt / 3600000) % 24, -1 * (OLD.urgency = 'urgent'), -1 * (OLD.urgency = 'normal'), -1 * (OLD.urgency = 'low')
  FROM (SELECT OLD.created_at + (CASE WHEN OLD.created_at >= (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND OLD.created_at < (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END) AS lt) WHERE OLD.urgency IS NOT NULL
  ON CONFLICT (user_id, hour) DO UPDATE SET urgent = urgent + excluded.urgent, normal = normal + excluded.normal, low = low + excluded.low;
  INSERT INTO call_hour_stats (user_id, hour, urgent, normal, low)
  SELECT NEW.user_id, (lt / 3600000) % 24, 1 * (NEW.urgency = 'urgent'), 1 * (NEW.urgency = 'normal'), 1 * (NEW.urgency = 'low')
  FROM (SELECT NEW.created_at + (CASE WHEN NEW.created_at >= (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND NEW.created_at < (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END) AS lt) WHERE NEW.urgency IS NOT NULL
  ON CONFLICT (user_id, hour) DO UPDATE SET urgent = urgent + excluded.urgent, normal = normal + excluded.normal, low = low + excluded.low;
END;
