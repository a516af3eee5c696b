CREATE TABLE `inbound_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`message_sid` text NOT NULL,
	`user_id` integer,
	`channel` text NOT NULL,
	`command` text,
	`outcome` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `inbound_messages_sid_unique` ON `inbound_messages` (`message_sid`);--> statement-breakpoint
ALTER TABLE `calls` ADD `called_back_at` integer;