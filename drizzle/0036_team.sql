CREATE TABLE `staff` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`name` text NOT NULL,
	`other_names` text NOT NULL,
	`role_word` text,
	`is_owner` integer DEFAULT false NOT NULL,
	`phone` text,
	`phone_confirmed_at` integer,
	`pending_phone` text,
	`phone_code_hash` text,
	`phone_code_expires_at` integer,
	`phone_code_wrong_attempts` integer DEFAULT 0 NOT NULL,
	`hours` text,
	`ical_url_sealed` text,
	`caldav_url` text,
	`caldav_user` text,
	`caldav_password_sealed` text,
	`login_user_id` integer,
	`invite_email` text,
	`view` text DEFAULT 'own' NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`removed_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`login_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `staff_user_idx` ON `staff` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `staff_login_unique` ON `staff` (`login_user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `staff_one_owner_unique` ON `staff` (`user_id`) WHERE is_owner;--> statement-breakpoint
CREATE TABLE `staff_services` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`staff_id` integer NOT NULL,
	`service_id` integer NOT NULL,
	`duration_minutes` integer,
	FOREIGN KEY (`staff_id`) REFERENCES `staff`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`service_id`) REFERENCES `booking_services`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `staff_services_unique` ON `staff_services` (`staff_id`,`service_id`);--> statement-breakpoint
CREATE INDEX `staff_services_service_idx` ON `staff_services` (`service_id`);--> statement-breakpoint
CREATE TABLE `team_settings` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`ring_first` text DEFAULT 'off' NOT NULL,
	`ring_seconds` integer DEFAULT 20 NOT NULL,
	`copy_owner` integer DEFAULT false NOT NULL,
	`rules` text NOT NULL,
	`rota` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
DROP INDEX `bookings_live_start_unique`;--> statement-breakpoint
ALTER TABLE `bookings` ADD `staff_id` integer REFERENCES staff(id);--> statement-breakpoint
CREATE UNIQUE INDEX `bookings_live_start_unique` ON `bookings` (`user_id`,coalesce("staff_id", 0),`start_at`) WHERE status = 'booked';--> statement-breakpoint
ALTER TABLE `calls` ADD `staff_id` integer REFERENCES staff(id);--> statement-breakpoint
ALTER TABLE `calls` ADD `routing_note` text;--> statement-breakpoint
CREATE INDEX `calls_staff_created_idx` ON `calls` (`staff_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `team_size` integer;--> statement-breakpoint
-- Every business has its owner as its first team member (issue 58); their bookings are theirs.
INSERT INTO `staff` (`user_id`, `name`, `other_names`, `is_owner`, `position`) SELECT `id`, 'Owner', '[]', 1, 0 FROM `users` WHERE `role` = 'customer';--> statement-breakpoint
UPDATE `bookings` SET `staff_id` = (SELECT `staff`.`id` FROM `staff` WHERE `staff`.`user_id` = `bookings`.`user_id` AND `staff`.`is_owner`);
