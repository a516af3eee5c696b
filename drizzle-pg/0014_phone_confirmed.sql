ALTER TABLE "users" ADD COLUMN "phone_confirmed_at" timestamp (3) with time zone;--> statement-breakpoint
-- custom: owners from before sign-up phones needed a code keep their texts exactly as before:
-- their sign-up phone counts as confirmed (from when they signed up). A request still awaiting
-- review is no owner yet: its phone stops being the notification number, and approving it
-- texts the code as for a new owner.
UPDATE "users" SET "phone_confirmed_at" = "created_at" WHERE "phone_number" IS NOT NULL AND "account_status" <> 'pending_approval';--> statement-breakpoint
UPDATE "users" SET "notification_number" = NULL WHERE "account_status" = 'pending_approval' AND "notification_number" = "phone_number";
