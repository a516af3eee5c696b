-- Hand-added WITHOUT ROWID (drizzle cannot declare it): rows are clustered by (user, day, hour),
-- so one business's figures are one contiguous range.
CREATE TABLE `call_stats` (
	`user_id` integer NOT NULL,
	`day` integer NOT NULL,
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
	PRIMARY KEY(`user_id`, `day`, `hour`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `call_stats_user_hour_idx` ON `call_stats` (`user_id`,`hour`,`calls`);