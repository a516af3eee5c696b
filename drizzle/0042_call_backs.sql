CREATE TABLE `call_backs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`first_call_id` integer,
	`text_id` integer,
	`caller_number` text NOT NULL,
	`asked_at` integer NOT NULL,
	`due_at` integer NOT NULL,
	`source` text NOT NULL,
	`state` text DEFAULT 'waiting' NOT NULL,
	`tries` integer DEFAULT 0 NOT NULL,
	`last_try_at` integer,
	`last_outcome` text,
	`call_back_call_id` integer,
	`staff_id` integer,
	`done_by` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`first_call_id`) REFERENCES `calls`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`text_id`) REFERENCES `caller_texts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`call_back_call_id`) REFERENCES `calls`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`staff_id`) REFERENCES `staff`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `call_backs_first_call_unique` ON `call_backs` (`first_call_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `call_backs_text_unique` ON `call_backs` (`text_id`);--> statement-breakpoint
CREATE INDEX `call_backs_state_due_idx` ON `call_backs` (`state`,`due_at`);--> statement-breakpoint
CREATE INDEX `call_backs_user_created_idx` ON `call_backs` (`user_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `call_backs_user_caller_idx` ON `call_backs` (`user_id`,`caller_number`);--> statement-breakpoint
ALTER TABLE `call_handling` ADD `call_backs_by` text DEFAULT 'owner' NOT NULL;--> statement-breakpoint
ALTER TABLE `call_handling` ADD `call_back_after_minutes` integer DEFAULT 15 NOT NULL;