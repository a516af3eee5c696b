CREATE TABLE `call_handling` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`transfer_number` text,
	`transfer_timeout_seconds` integer DEFAULT 20 NOT NULL,
	`hours_enabled` integer DEFAULT false NOT NULL,
	`hours` text NOT NULL,
	`holiday_nations` text NOT NULL,
	`open_ring_first` integer DEFAULT false NOT NULL,
	`closed_mode` text DEFAULT 'voicemail' NOT NULL,
	`closed_ring_first` integer DEFAULT false NOT NULL,
	`closed_greeting` text,
	`block_list` text NOT NULL,
	`vip_list` text NOT NULL,
	`withheld` text DEFAULT 'normal' NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `calls` ADD `caller_tag` text;--> statement-breakpoint
ALTER TABLE `calls` ADD `transfer_outcome` text;--> statement-breakpoint
ALTER TABLE `calls` ADD `transfer_talk_seconds` integer;--> statement-breakpoint
ALTER TABLE `calls` ADD `period` text;