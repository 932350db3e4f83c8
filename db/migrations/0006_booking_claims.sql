ALTER TABLE `bookings` ADD `claim` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `claimed_at` integer;--> statement-breakpoint
ALTER TABLE `bookings` ADD `claimed_by` integer REFERENCES users(id);--> statement-breakpoint
CREATE INDEX `bookings_claimed_at` ON `bookings` (`claimed_at`) WHERE "bookings"."claim" IS NOT NULL;