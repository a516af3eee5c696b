CREATE TABLE `kb_drafts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`crawl_id` integer,
	`kind` text NOT NULL,
	`state` text DEFAULT 'pending' NOT NULL,
	`question` text NOT NULL,
	`answer` text NOT NULL,
	`source_url` text NOT NULL,
	`quote` text NOT NULL,
	`current_question` text,
	`current_answer` text,
	`hours` text,
	`decided_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`crawl_id`) REFERENCES `website_crawls`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `kb_drafts_user_idx` ON `kb_drafts` (`user_id`,`state`);--> statement-breakpoint
CREATE TABLE `website_crawls` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`url` text NOT NULL,
	`state` text NOT NULL,
	`trigger` text NOT NULL,
	`pages_read` integer DEFAULT 0 NOT NULL,
	`pages_unchanged` integer DEFAULT 0 NOT NULL,
	`drafts_made` integer DEFAULT 0 NOT NULL,
	`drafts_dropped` integer DEFAULT 0 NOT NULL,
	`problems` text NOT NULL,
	`error` text,
	`started_at` integer,
	`finished_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `website_crawls_user_idx` ON `website_crawls` (`user_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `website_crawls_one_open` ON `website_crawls` (`user_id`) WHERE state in ('queued', 'running');--> statement-breakpoint
CREATE TABLE `website_pages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`url` text NOT NULL,
	`title` text NOT NULL,
	`content_hash` text NOT NULL,
	`last_crawl_id` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `website_pages_unique` ON `website_pages` (`user_id`,`url`);--> statement-breakpoint
CREATE TABLE `website_sites` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`weekly` integer DEFAULT true NOT NULL,
	`next_crawl_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
