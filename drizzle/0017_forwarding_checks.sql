CREATE TABLE `forwarding_checks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`did` text NOT NULL,
	`line` text NOT NULL,
	`state` text DEFAULT 'calling' NOT NULL,
	`condition` text,
	`diverted_from` text,
	`started_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `forwarding_checks_did_state_idx` ON `forwarding_checks` (`did`,`state`);--> statement-breakpoint
CREATE INDEX `forwarding_checks_user_idx` ON `forwarding_checks` (`user_id`,`started_at`);