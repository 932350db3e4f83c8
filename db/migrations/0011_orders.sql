-- Orders (docs/product.md "Orders"): every session belongs to the order it was bought in. A
-- weekly series becomes an order keeping its id (its public id); every single booking becomes
-- an order of one. The order takes over what is one per purchase: the hosted checkout, and the
-- coupon use (held by an order while the booking that took it still held it by the old rule:
-- live, or cancelled after payment).
-- Runs with foreign keys off (app/db.server.ts) and is checked with foreign_key_check after.
CREATE TABLE `orders_new` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`repeat_every` text,
	`occurrences` integer DEFAULT 1 NOT NULL,
	`coupon_id` integer,
	`checkout_session_id` text,
	`checkout_expires_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`coupon_id`) REFERENCES `coupons`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "orders_repeat_every" CHECK("repeat_every" IS NULL OR repeat_every IN ('week', '2weeks')),
	CONSTRAINT "orders_occurrences" CHECK(("repeat_every" IS NULL AND "occurrences" = 1) OR ("repeat_every" IS NOT NULL AND "occurrences" BETWEEN 2 AND 12))
);
--> statement-breakpoint
INSERT INTO `orders_new` (`id`, `user_id`, `repeat_every`, `occurrences`, `coupon_id`, `checkout_session_id`, `checkout_expires_at`, `created_at`)
SELECT s.`id`, s.`user_id`, s.`repeat_every`, s.`occurrences`,
	(SELECT b.`coupon_id` FROM `bookings` b
		WHERE b.`series_id` = s.`id` AND b.`coupon_id` IS NOT NULL
			AND (b.`status` <> 'CANCELLED' OR EXISTS (SELECT 1 FROM `payments` p WHERE p.`booking_id` = b.`id` AND p.`amount` > 0))
		ORDER BY b.`id` LIMIT 1),
	s.`checkout_session_id`, s.`checkout_expires_at`, s.`created_at`
FROM `booking_series` s;
--> statement-breakpoint
-- A single booking's order id: the booking's id after the last series' id, so none collide.
INSERT INTO `orders_new` (`id`, `user_id`, `repeat_every`, `occurrences`, `coupon_id`, `checkout_session_id`, `checkout_expires_at`, `created_at`)
SELECT b.`id` + (SELECT coalesce(max(`id`), 0) FROM `booking_series`), b.`user_id`, NULL, 1,
	CASE WHEN b.`coupon_id` IS NOT NULL
		AND (b.`status` <> 'CANCELLED' OR EXISTS (SELECT 1 FROM `payments` p WHERE p.`booking_id` = b.`id` AND p.`amount` > 0))
		THEN b.`coupon_id` END,
	b.`checkout_session_id`, CASE WHEN b.`checkout_session_id` IS NOT NULL THEN b.`checkout_expires_at` END, b.`created_at`
FROM `bookings` b WHERE b.`series_id` IS NULL;
--> statement-breakpoint
UPDATE `bookings` SET `series_id` = `id` + (SELECT coalesce(max(`id`), 0) FROM `booking_series`) WHERE `series_id` IS NULL;
--> statement-breakpoint
-- Every session of an order carrying its discount names the coupon (only the row that took the
-- use did before; the use is the order's now).
UPDATE `bookings` SET `coupon_id` = (
	SELECT c.`id` FROM `coupons` c WHERE lower(c.`code`) = lower(`bookings`.`coupon_code`)
) WHERE `coupon_id` IS NULL AND `coupon_code` IS NOT NULL AND `discount_amount` > 0;
--> statement-breakpoint
-- A session keeps a plan's expiry only while it is claimed for that plan.
UPDATE `bookings` SET `checkout_expires_at` = NULL WHERE `claim` IS NULL OR `claim` <> 'CHECKOUT_OPEN';
--> statement-breakpoint
DROP TABLE `booking_series`;
--> statement-breakpoint
-- Renamed twice so that bookings' foreign key, which names booking_series, follows to orders.
ALTER TABLE `orders_new` RENAME TO `booking_series`;
--> statement-breakpoint
ALTER TABLE `booking_series` RENAME TO `orders`;
--> statement-breakpoint
CREATE INDEX `orders_user` ON `orders` (`user_id`);
--> statement-breakpoint
CREATE UNIQUE INDEX `orders_checkout_session` ON `orders` (`checkout_session_id`);
--> statement-breakpoint
DROP INDEX `bookings_series`;
--> statement-breakpoint
ALTER TABLE `bookings` RENAME COLUMN `series_id` TO `order_id`;
--> statement-breakpoint
CREATE INDEX `bookings_order` ON `bookings` (`order_id`);
--> statement-breakpoint
ALTER TABLE `bookings` DROP COLUMN `checkout_session_id`;
