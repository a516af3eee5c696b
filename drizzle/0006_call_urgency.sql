ALTER TABLE `calls` ADD `urgency` text;--> statement-breakpoint
ALTER TABLE `calls` ADD `urgency_reason` text;--> statement-breakpoint
ALTER TABLE `calls` ADD `repeat_alert` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `notifications` ADD `kind` text DEFAULT 'summary' NOT NULL;