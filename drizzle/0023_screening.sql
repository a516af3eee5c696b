CREATE TABLE `box_spam_numbers` (
	`number` text PRIMARY KEY NOT NULL,
	`businesses` integer DEFAULT 0 NOT NULL,
	`nuisance_businesses` integer DEFAULT 0 NOT NULL,
	`listed` integer DEFAULT false NOT NULL,
	`cleared_at` integer,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `screening_settings` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`action` text DEFAULT 'reject' NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `spam_marks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`number` text NOT NULL,
	`verdict` text NOT NULL,
	`marked_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `spam_marks_user_number_unique` ON `spam_marks` (`user_id`,`number`);--> statement-breakpoint
CREATE INDEX `spam_marks_number_idx` ON `spam_marks` (`number`,`verdict`,`marked_at`);--> statement-breakpoint
ALTER TABLE `calls` ADD `call_class` text;--> statement-breakpoint
ALTER TABLE `calls` ADD `screened_by` text;--> statement-breakpoint
CREATE INDEX `calls_from_created_idx` ON `calls` (`from_number`,`created_at`);--> statement-breakpoint
CREATE INDEX `calls_screened_created_idx` ON `calls` (`screened_by`,`created_at`,`user_id`);