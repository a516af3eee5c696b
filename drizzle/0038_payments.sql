CREATE TABLE `billing_invoices` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`amount_pence` integer NOT NULL,
	`currency` text NOT NULL,
	`status` text NOT NULL,
	`hosted_url` text,
	`period_start` integer,
	`paid_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `billing_invoices_user_idx` ON `billing_invoices` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `billing_invoices_paid_idx` ON `billing_invoices` (`paid_at`);--> statement-breakpoint
CREATE TABLE `billing_subscriptions` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`subscription_id` text,
	`status` text,
	`price_pence` integer,
	`currency` text,
	`current_period_end` integer,
	`trial_end` integer,
	`cancel_at_period_end` integer DEFAULT false NOT NULL,
	`past_due_since` integer,
	`event_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `billing_subscriptions_customer_unique` ON `billing_subscriptions` (`customer_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `billing_subscriptions_subscription_unique` ON `billing_subscriptions` (`subscription_id`);--> statement-breakpoint
CREATE TABLE `stripe_connections` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`secret_key_sealed` text NOT NULL,
	`account_label` text,
	`livemode` integer DEFAULT false NOT NULL,
	`webhook_endpoint_id` text,
	`webhook_secret_sealed` text,
	`deposit_policy` text,
	`refund_on_caller_cancel` integer DEFAULT true NOT NULL,
	`tested_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `stripe_events` (
	`id` text PRIMARY KEY NOT NULL,
	`scope` text NOT NULL,
	`user_id` integer,
	`type` text NOT NULL,
	`received_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `booking_services` ADD `price_pence` integer;--> statement-breakpoint
ALTER TABLE `booking_services` ADD `deposit_kind` text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE `booking_services` ADD `deposit_pence` integer;--> statement-breakpoint
ALTER TABLE `booking_services` ADD `deposit_hold_minutes` integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE `bookings` ADD `deposit_state` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `deposit_pence` integer;--> statement-breakpoint
ALTER TABLE `bookings` ADD `deposit_due_at` integer;--> statement-breakpoint
ALTER TABLE `bookings` ADD `deposit_session_id` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `deposit_url` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `deposit_payment_intent` text;--> statement-breakpoint
CREATE UNIQUE INDEX `bookings_deposit_session_unique` ON `bookings` (`deposit_session_id`);--> statement-breakpoint
CREATE INDEX `bookings_deposit_due_idx` ON `bookings` (`deposit_state`,`deposit_due_at`);