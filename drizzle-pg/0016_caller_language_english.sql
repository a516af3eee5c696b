ALTER TABLE "calls" ADD COLUMN "transcript_english" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "greeting_languages" text;