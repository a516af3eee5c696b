CREATE TABLE `weekly_digests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`week_of` text NOT NULL,
	`status` text NOT NULL,
	`calls` integer NOT NULL,
	`error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`sent_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `weekly_digests_user_week_unique` ON `weekly_digests` (`user_id`,`week_of`);--> statement-breakpoint
ALTER TABLE `call_hour_stats` ADD `urgent` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `call_hour_stats` ADD `normal` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `call_hour_stats` ADD `low` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `call_stats` ADD `urgent` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `call_stats` ADD `normal` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `call_stats` ADD `low` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `email_summaries_enabled` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `summary_email` text;
--> statement-breakpoint
-- Hand-written below: calls by urgency in the analytics counters, kept by their own triggers
-- beside those of 0003 and 0004 (same London rule, same upserts), so the existing ones stay
-- as they are. The summary step sets `urgency` by an UPDATE long after the insert, hence the
-- update triggers; a call not assessed (null) counts in none of the three.
CREATE TRIGGER calls_stats_urgency_insert AFTER INSERT ON calls WHEN NEW.urgency IS NOT NULL BEGIN
  INSERT INTO call_stats (user_id, day, hour, urgent, normal, low)
  SELECT NEW.user_id, lt / 86400000, (lt / 3600000) % 24, 1 * (NEW.urgency = 'urgent'), 1 * (NEW.urgency = 'normal'), 1 * (NEW.urgency = 'low')
  FROM (SELECT NEW.created_at + (CASE WHEN NEW.created_at >= (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND NEW.created_at < (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END) AS lt) WHERE NEW.urgency IS NOT NULL
  ON CONFLICT (user_id, day, hour) DO UPDATE SET urgent = urgent + excluded.urgent, normal = normal + excluded.normal, low = low + excluded.low;
END;
--> statement-breakpoint
CREATE TRIGGER calls_stats_urgency_delete AFTER DELETE ON calls WHEN OLD.urgency IS NOT NULL BEGIN
  INSERT INTO call_stats (user_id, day, hour, urgent, normal, low)
  SELECT OLD.user_id, lt / 86400000, (lt / 3600000) % 24, -1 * (OLD.urgency = 'urgent'), -1 * (OLD.urgency = 'normal'), -1 * (OLD.urgency = 'low')
  FROM (SELECT OLD.created_at + (CASE WHEN OLD.created_at >= (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND OLD.created_at < (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END) AS lt) WHERE OLD.urgency IS NOT NULL
  ON CONFLICT (user_id, day, hour) DO UPDATE SET urgent = urgent + excluded.urgent, normal = normal + excluded.normal, low = low + excluded.low;
END;
--> statement-breakpoint
CREATE TRIGGER calls_stats_urgency_update AFTER UPDATE OF user_id, created_at, urgency ON calls WHEN OLD.urgency IS NOT NULL OR NEW.urgency IS NOT NULL BEGIN
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
CREATE TRIGGER calls_hour_stats_urgency_insert AFTER INSERT ON calls WHEN NEW.urgency IS NOT NULL BEGIN
  INSERT INTO call_hour_stats (user_id, hour, urgent, normal, low)
  SELECT NEW.user_id, (lt / 3600000) % 24, 1 * (NEW.urgency = 'urgent'), 1 * (NEW.urgency = 'normal'), 1 * (NEW.urgency = 'low')
  FROM (SELECT NEW.created_at + (CASE WHEN NEW.created_at >= (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND NEW.created_at < (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END) AS lt) WHERE NEW.urgency IS NOT NULL
  ON CONFLICT (user_id, hour) DO UPDATE SET urgent = urgent + excluded.urgent, normal = normal + excluded.normal, low = low + excluded.low;
END;
--> statement-breakpoint
CREATE TRIGGER calls_hour_stats_urgency_delete AFTER DELETE ON calls WHEN OLD.urgency IS NOT NULL BEGIN
  INSERT INTO call_hour_stats (user_id, hour, urgent, normal, low)
  SELECT OLD.user_id, (lt / 3600000) % 24, -1 * (OLD.urgency = 'urgent'), -1 * (OLD.urgency = 'normal'), -1 * (OLD.urgency = 'low')
  FROM (SELECT OLD.created_at + (CASE WHEN OLD.created_at >= (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND OLD.created_at < (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END) AS lt) WHERE OLD.urgency IS NOT NULL
  ON CONFLICT (user_id, hour) DO UPDATE SET urgent = urgent + excluded.urgent, normal = normal + excluded.normal, low = low + excluded.low;
END;
--> statement-breakpoint
CREATE TRIGGER calls_hour_stats_urgency_update AFTER UPDATE OF user_id, created_at, urgency ON calls WHEN OLD.urgency IS NOT NULL OR NEW.urgency IS NOT NULL BEGIN
  INSERT INTO call_hour_stats (user_id, hour, urgent, normal, low)
  SELECT OLD.user_id, (lt / 3600000) % 24, -1 * (OLD.urgency = 'urgent'), -1 * (OLD.urgency = 'normal'), -1 * (OLD.urgency = 'low')
  FROM (SELECT OLD.created_at + (CASE WHEN OLD.created_at >= (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND OLD.created_at < (unixepoch(date(strftime('%Y', OLD.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END) AS lt) WHERE OLD.urgency IS NOT NULL
  ON CONFLICT (user_id, hour) DO UPDATE SET urgent = urgent + excluded.urgent, normal = normal + excluded.normal, low = low + excluded.low;
  INSERT INTO call_hour_stats (user_id, hour, urgent, normal, low)
  SELECT NEW.user_id, (lt / 3600000) % 24, 1 * (NEW.urgency = 'urgent'), 1 * (NEW.urgency = 'normal'), 1 * (NEW.urgency = 'low')
  FROM (SELECT NEW.created_at + (CASE WHEN NEW.created_at >= (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND NEW.created_at < (unixepoch(date(strftime('%Y', NEW.created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END) AS lt) WHERE NEW.urgency IS NOT NULL
  ON CONFLICT (user_id, hour) DO UPDATE SET urgent = urgent + excluded.urgent, normal = normal + excluded.normal, low = low + excluded.low;
END;
--> statement-breakpoint
-- Calls assessed before this migration.
INSERT INTO call_stats (user_id, day, hour, urgent, normal, low)
SELECT user_id, lt / 86400000, (lt / 3600000) % 24, sum(urgency = 'urgent'), sum(urgency = 'normal'), sum(urgency = 'low')
FROM (SELECT user_id, urgency, created_at + (CASE WHEN created_at >= (unixepoch(date(strftime('%Y', created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND created_at < (unixepoch(date(strftime('%Y', created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END) AS lt FROM calls WHERE urgency IS NOT NULL) WHERE true
GROUP BY user_id, lt / 86400000, (lt / 3600000) % 24
ON CONFLICT (user_id, day, hour) DO UPDATE SET urgent = excluded.urgent, normal = excluded.normal, low = excluded.low;
--> statement-breakpoint
INSERT INTO call_hour_stats (user_id, hour, urgent, normal, low)
SELECT user_id, (lt / 3600000) % 24, sum(urgency = 'urgent'), sum(urgency = 'normal'), sum(urgency = 'low')
FROM (SELECT user_id, urgency, created_at + (CASE WHEN created_at >= (unixepoch(date(strftime('%Y', created_at / 1000, 'unixepoch') || '-03-25', 'weekday 0')) + 3600) * 1000 AND created_at < (unixepoch(date(strftime('%Y', created_at / 1000, 'unixepoch') || '-10-25', 'weekday 0')) + 3600) * 1000 THEN 3600000 ELSE 0 END) AS lt FROM calls WHERE urgency IS NOT NULL) WHERE true
GROUP BY user_id, (lt / 3600000) % 24
ON CONFLICT (user_id, hour) DO UPDATE SET urgent = excluded.urgent, normal = excluded.normal, low = excluded.low;
