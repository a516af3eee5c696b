ALTER TABLE `calls` ADD `transcript_english` text;--> statement-breakpoint
ALTER TABLE `users` ADD `greeting_languages` text;