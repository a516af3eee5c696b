CREATE TABLE `caller_opt_outs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`caller_number` text NOT NULL,
	`word` text NOT NULL,
	`opted_out_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `caller_opt_outs_user_number_unique` ON `caller_opt_outs` (`user_id`,`caller_number`);--> statement-breakpoint
CREATE TABLE `caller_texts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`caller_number` text NOT NULL,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`body` text NOT NULL,
	`segments` integer DEFAULT 1 NOT NULL,
	`key` text NOT NULL,
	`call_id` integer,
	`provider_id` text,
	`error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`call_id`) REFERENCES `calls`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `caller_texts_key_unique` ON `caller_texts` (`key`);--> statement-breakpoint
CREATE INDEX `caller_texts_thread_idx` ON `caller_texts` (`user_id`,`caller_number`,`id`);--> statement-breakpoint
CREATE INDEX `caller_texts_provider_idx` ON `caller_texts` (`provider_id`);--> statement-breakpoint
CREATE INDEX `caller_texts_created_idx` ON `caller_texts` (`created_at`);--> statement-breakpoint
CREATE TABLE `text_back_settings` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`wording` text,
	`window_hours` integer DEFAULT 24 NOT NULL,
	`hours` text DEFAULT 'always' NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
