CREATE TABLE `blocked_times` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`reason` text NOT NULL,
	`created_by` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "blocked_times_range" CHECK("blocked_times"."ends_at" > "blocked_times"."starts_at")
);
--> statement-breakpoint
CREATE INDEX `blocked_times_starts_at` ON `blocked_times` (`starts_at`);--> statement-breakpoint
CREATE TABLE `booking_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`booking_id` integer NOT NULL,
	`actor_user_id` integer,
	`from_status` text,
	`to_status` text NOT NULL,
	`note` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "booking_history_to_status" CHECK(to_status IN ('PENDING_PAYMENT', 'PENDING', 'CONFIRMED', 'RECORDED', 'POST_PRODUCTION', 'COMPLETED', 'CANCELLED'))
);
--> statement-breakpoint
CREATE INDEX `booking_history_booking` ON `booking_history` (`booking_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `booking_services` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`booking_id` integer NOT NULL,
	`service_id` integer NOT NULL,
	`quantity` integer DEFAULT 1 NOT NULL,
	`price_at_booking` integer NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "booking_services_quantity" CHECK("booking_services"."quantity" > 0),
	CONSTRAINT "booking_services_price" CHECK("booking_services"."price_at_booking" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `booking_services_unique` ON `booking_services` (`booking_id`,`service_id`);--> statement-breakpoint
CREATE INDEX `booking_services_service` ON `booking_services` (`service_id`);--> statement-breakpoint
CREATE TABLE `bookings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`business_name` text,
	`phone_number` text NOT NULL,
	`email` text NOT NULL,
	`stakeholder` text NOT NULL,
	`recording_date` text NOT NULL,
	`recording_time` text NOT NULL,
	`guest_count` text NOT NULL,
	`hours_needed` text NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`hourly_rate` integer NOT NULL,
	`total_cost` integer NOT NULL,
	`original_cost` integer NOT NULL,
	`coupon_id` integer,
	`coupon_code` text,
	`discount_amount` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'PENDING_PAYMENT' NOT NULL,
	`hold_expires_at` integer,
	`cancellation_reason` text,
	`cancelled_at` integer,
	`is_retainer` integer DEFAULT false NOT NULL,
	`retainer_start_date` text,
	`retainer_end_date` text,
	`retainer_hours_used` integer DEFAULT 0 NOT NULL,
	`retainer_total_hours` integer DEFAULT 8 NOT NULL,
	`retainer_booking_id` integer,
	`retainer_hours_drawn` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`coupon_id`) REFERENCES `coupons`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`retainer_booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "bookings_status" CHECK(status IN ('PENDING_PAYMENT', 'PENDING', 'CONFIRMED', 'RECORDED', 'POST_PRODUCTION', 'COMPLETED', 'CANCELLED')),
	CONSTRAINT "bookings_slot" CHECK("bookings"."ends_at" > "bookings"."starts_at"),
	CONSTRAINT "bookings_costs" CHECK("bookings"."total_cost" >= 0 AND "bookings"."original_cost" >= 0),
	CONSTRAINT "bookings_discount" CHECK("bookings"."discount_amount" >= 0),
	CONSTRAINT "bookings_hourly_rate" CHECK("bookings"."hourly_rate" >= 0),
	CONSTRAINT "bookings_retainer_hours" CHECK("bookings"."retainer_hours_used" >= 0 AND "bookings"."retainer_hours_drawn" >= 0)
);
--> statement-breakpoint
CREATE INDEX `bookings_starts_at` ON `bookings` (`starts_at`);--> statement-breakpoint
CREATE INDEX `bookings_user_starts_at` ON `bookings` (`user_id`,`starts_at`);--> statement-breakpoint
CREATE INDEX `bookings_status_starts_at` ON `bookings` (`status`,`starts_at`);--> statement-breakpoint
CREATE TABLE `coupons` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`type` text NOT NULL,
	`value` integer NOT NULL,
	`max_uses` integer DEFAULT 0 NOT NULL,
	`current_uses` integer DEFAULT 0 NOT NULL,
	`expiry_date` text DEFAULT '2099-12-31' NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	CONSTRAINT "coupons_type" CHECK(type IN ('PERCENTAGE', 'FIXED_AMOUNT')),
	CONSTRAINT "coupons_value_positive" CHECK("coupons"."value" > 0),
	CONSTRAINT "coupons_percentage_max" CHECK("coupons"."type" <> 'PERCENTAGE' OR "coupons"."value" <= 100),
	CONSTRAINT "coupons_max_uses" CHECK("coupons"."max_uses" >= 0),
	CONSTRAINT "coupons_uses_within_limit" CHECK("coupons"."current_uses" >= 0 AND ("coupons"."max_uses" = 0 OR "coupons"."current_uses" <= "coupons"."max_uses"))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `coupons_code_unique` ON `coupons` (lower("code"));--> statement-breakpoint
CREATE TABLE `email_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`to_address` text NOT NULL,
	`subject` text NOT NULL,
	`html` text NOT NULL,
	`text` text NOT NULL,
	`attachments` text,
	`booking_id` integer,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`last_error` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`sent_at` integer,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "email_outbox_status" CHECK(status IN ('PENDING', 'SENT', 'FAILED'))
);
--> statement-breakpoint
CREATE INDEX `email_outbox_due` ON `email_outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`booking_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`amount` integer NOT NULL,
	`payment_method` text NOT NULL,
	`payment_date` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`transaction_id` text,
	`payment_details` text,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "payments_amount" CHECK("payments"."amount" <> 0)
);
--> statement-breakpoint
CREATE INDEX `payments_booking` ON `payments` (`booking_id`);--> statement-breakpoint
CREATE INDEX `payments_date` ON `payments` (`payment_date`);--> statement-breakpoint
CREATE UNIQUE INDEX `payments_transaction_unique` ON `payments` (`transaction_id`);--> statement-breakpoint
CREATE TABLE `processed_payment_events` (
	`id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`type` text NOT NULL,
	`booking_id` integer,
	`processed_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `services` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`price` integer NOT NULL,
	`duration` integer,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	CONSTRAINT "services_price" CHECK("services"."price" >= 0),
	CONSTRAINT "services_duration" CHECK("services"."duration" IS NULL OR "services"."duration" > 0)
);
--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_id` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `sessions_expires_at` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `technical_assistance_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`booking_id` integer,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`phone_number` text,
	`issue_type` text NOT NULL,
	`description` text NOT NULL,
	`preferred_contact_method` text NOT NULL,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`resolved_at` integer,
	`resolution` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "tar_status" CHECK(status IN ('PENDING', 'IN_PROGRESS', 'RESOLVED', 'CANCELLED'))
);
--> statement-breakpoint
CREATE INDEX `tar_user` ON `technical_assistance_requests` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `tar_status` ON `technical_assistance_requests` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`password_hash` text NOT NULL,
	`is_admin` integer DEFAULT false NOT NULL,
	`is_member` integer DEFAULT false NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`business_name` text,
	`phone_number` text NOT NULL,
	`email` text NOT NULL,
	`is_stakeholder` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	CONSTRAINT "users_username_length" CHECK(length("users"."username") BETWEEN 3 AND 50)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (lower("username"));