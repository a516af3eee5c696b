ALTER TABLE "box_spam_numbers" DROP COLUMN "businesses";--> statement-breakpoint
ALTER TABLE "box_spam_numbers" DROP COLUMN "nuisance_businesses";--> statement-breakpoint
ALTER TABLE "box_spam_numbers" DROP COLUMN "listed";