ALTER TABLE `bookings` ADD `checkout_session_id` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `checkout_expires_at` integer;