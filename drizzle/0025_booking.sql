CREATE TABLE `booking_calendars` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`ical_url_sealed` text,
	`caldav_url` text,
	`caldav_user` text,
	`caldav_password_sealed` text,
	`feed_token` text,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `booking_calendars_feed_unique` ON `booking_calendars` (`feed_token`);--> statement-breakpoint
CREATE TABLE `booking_rules` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`hours` text,
	`notice_minutes` integer DEFAULT 120 NOT NULL,
	`horizon_days` integer DEFAULT 14 NOT NULL,
	`daily_cap` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `booking_services` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`name` text NOT NULL,
	`duration_minutes` integer NOT NULL,
	`buffer_minutes` integer DEFAULT 0 NOT NULL,
	`agent_sentence` text,
	`archived_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `booking_services_user_idx` ON `booking_services` (`user_id`);--> statement-breakpoint
CREATE TABLE `bookings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`service_id` integer NOT NULL,
	`start_at` integer NOT NULL,
	`end_at` integer NOT NULL,
	`block_end_at` integer NOT NULL,
	`caller_name` text NOT NULL,
	`caller_number` text NOT NULL,
	`call_id` integer,
	`slot_key` text NOT NULL,
	`status` text DEFAULT 'booked' NOT NULL,
	`cancelled_by` text,
	`caldav_href` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`cancelled_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`service_id`) REFERENCES `booking_services`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`call_id`) REFERENCES `calls`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `bookings_live_start_unique` ON `bookings` (`user_id`,`start_at`) WHERE status = 'booked';--> statement-breakpoint
CREATE INDEX `bookings_user_start_idx` ON `bookings` (`user_id`,`start_at`);--> statement-breakpoint
CREATE INDEX `bookings_call_slot_idx` ON `bookings` (`call_id`,`slot_key`);--> statement-breakpoint
CREATE INDEX `bookings_caller_idx` ON `bookings` (`user_id`,`caller_number`);