ALTER TABLE "calls" ADD COLUMN "caller_language" text;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "caller_voice" text;--> statement-breakpoint
ALTER TABLE "unanswered_questions" ADD COLUMN "original_question" text;--> statement-breakpoint
ALTER TABLE "unanswered_questions" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "agent_languages" text;