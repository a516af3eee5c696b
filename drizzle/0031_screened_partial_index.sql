DROP INDEX `calls_screened_created_idx`;--> statement-breakpoint
CREATE INDEX `calls_screened_idx` ON `calls` (`user_id`,`created_at`) WHERE screened_by is not null;