CREATE TABLE `booking_series` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`repeat_every` text NOT NULL,
	`occurrences` integer NOT NULL,
	`checkout_session_id` text,
	`checkout_expires_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "booking_series_repeat_every" CHECK(repeat_every IN ('week', '2weeks')),
	CONSTRAINT "booking_series_occurrences" CHECK("booking_series"."occurrences" BETWEEN 2 AND 12)
);
--> statement-breakpoint
CREATE INDEX `booking_series_user` ON `booking_series` (`user_id`);--> statement-breakpoint
CREATE TABLE `waitlist_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`recording_date` text NOT NULL,
	`recording_time` text NOT NULL,
	`hours_needed` integer NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`status` text DEFAULT 'WAITING' NOT NULL,
	`offered_at` integer,
	`offer_expires_at` integer,
	`booking_id` integer,
	`ended_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "waitlist_entries_status" CHECK(status IN ('WAITING', 'OFFERED', 'CLAIMED', 'LAPSED', 'REMOVED')),
	CONSTRAINT "waitlist_entries_slot" CHECK("waitlist_entries"."ends_at" > "waitlist_entries"."starts_at"),
	CONSTRAINT "waitlist_entries_hours" CHECK("waitlist_entries"."hours_needed" BETWEEN 2 AND 8)
);
--> statement-breakpoint
CREATE INDEX `waitlist_entries_status_starts_at` ON `waitlist_entries` (`status`,`starts_at`);--> statement-breakpoint
CREATE INDEX `waitlist_entries_user_status` ON `waitlist_entries` (`user_id`,`status`);--> statement-breakpoint
CREATE INDEX `waitlist_entries_offer_expires_at` ON `waitlist_entries` (`offer_expires_at`) WHERE "waitlist_entries"."status" = 'OFFERED';--> statement-breakpoint
ALTER TABLE `bookings` ADD `series_id` integer REFERENCES booking_series(id);--> statement-breakpoint
CREATE INDEX `bookings_series` ON `bookings` (`series_id`) WHERE "bookings"."series_id" IS NOT NULL;