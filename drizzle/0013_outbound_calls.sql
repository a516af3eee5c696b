CREATE TABLE `outbound_calls` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`started_at` integer NOT NULL,
	`seconds` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `outbound_calls_user_started_idx` ON `outbound_calls` (`user_id`,`started_at`);--> statement-breakpoint
CREATE INDEX `outbound_calls_started_idx` ON `outbound_calls` (`started_at`);