ALTER TABLE `calls` ADD `caller_language` text;--> statement-breakpoint
ALTER TABLE `calls` ADD `caller_voice` text;--> statement-breakpoint
ALTER TABLE `unanswered_questions` ADD `original_question` text;--> statement-breakpoint
ALTER TABLE `unanswered_questions` ADD `language` text;--> statement-breakpoint
ALTER TABLE `users` ADD `agent_languages` text;