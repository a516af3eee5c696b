CREATE TABLE "billing_invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"amount_pence" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"hosted_url" text,
	"period_start" timestamp (3) with time zone,
	"paid_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_subscriptions" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"subscription_id" text,
	"status" text,
	"price_pence" integer,
	"currency" text,
	"current_period_end" timestamp (3) with time zone,
	"trial_end" timestamp (3) with time zone,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"past_due_since" timestamp (3) with time zone,
	"event_at" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stripe_connections" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"secret_key_sealed" text NOT NULL,
	"account_label" text,
	"livemode" boolean DEFAULT false NOT NULL,
	"webhook_endpoint_id" text,
	"webhook_secret_sealed" text,
	"deposit_policy" text,
	"refund_on_caller_cancel" boolean DEFAULT true NOT NULL,
	"tested_at" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"scope" text NOT NULL,
	"user_id" integer,
	"type" text NOT NULL,
	"received_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "booking_services" ADD COLUMN "price_pence" integer;--> statement-breakpoint
ALTER TABLE "booking_services" ADD COLUMN "deposit_kind" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "booking_services" ADD COLUMN "deposit_pence" integer;--> statement-breakpoint
ALTER TABLE "booking_services" ADD COLUMN "deposit_hold_minutes" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "deposit_state" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "deposit_pence" integer;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "deposit_due_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "deposit_session_id" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "deposit_url" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "deposit_payment_intent" text;--> statement-breakpoint
ALTER TABLE "billing_invoices" ADD CONSTRAINT "billing_invoices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD CONSTRAINT "billing_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stripe_connections" ADD CONSTRAINT "stripe_connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stripe_events" ADD CONSTRAINT "stripe_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_invoices_user_idx" ON "billing_invoices" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "billing_invoices_paid_idx" ON "billing_invoices" USING btree ("paid_at");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_subscriptions_customer_unique" ON "billing_subscriptions" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_subscriptions_subscription_unique" ON "billing_subscriptions" USING btree ("subscription_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_deposit_session_unique" ON "bookings" USING btree ("deposit_session_id");--> statement-breakpoint
CREATE INDEX "bookings_deposit_due_idx" ON "bookings" USING btree ("deposit_state","deposit_due_at");