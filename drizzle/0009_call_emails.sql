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
ALTER TABLE `users` ADD `email_summaries_enabled` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `summary_email` text;