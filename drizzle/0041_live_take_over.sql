CREATE TABLE `call_live_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`call_id` integer NOT NULL,
	`event` text NOT NULL,
	`by_name` text NOT NULL,
	`via` text,
	`at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`call_id`) REFERENCES `calls`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `call_live_events_call_idx` ON `call_live_events` (`call_id`,`id`);--> statement-breakpoint
ALTER TABLE `calls` ADD `taken_over_by` text;--> statement-breakpoint
ALTER TABLE `calls` ADD `taken_over_at` integer;--> statement-breakpoint
ALTER TABLE `calls` ADD `taken_over_via` text;