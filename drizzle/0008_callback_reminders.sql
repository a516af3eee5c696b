ALTER TABLE `calls` ADD `reminder_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `callback_reminder_hours` integer;