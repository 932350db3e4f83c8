CREATE TABLE `sales_rollup` (
	`level` integer NOT NULL,
	`bucket_start` integer NOT NULL,
	`stakeholder` integer DEFAULT 0 NOT NULL,
	`member` integer DEFAULT 0 NOT NULL,
	`non_member` integer DEFAULT 0 NOT NULL,
	`payments` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`level`, `bucket_start`)
);
--> statement-breakpoint
ALTER TABLE `payments` ADD `customer_type` text;--> statement-breakpoint
-- Written by hand below (drizzle-kit generates tables, not triggers; schema.ts documents them).
-- A payment's customer type is a snapshot taken when it is recorded: stakeholder when its
-- booking's `stakeholder` is 'yes' (any case), else member when the booking's client is a
-- member, else non-member; a refund takes its booking's first charge's type. Existing rows are
-- classified with what the database knows now: charges first, then refunds.
UPDATE `payments` SET `customer_type` = coalesce(
  (SELECT CASE WHEN lower(b.`stakeholder`) = 'yes' THEN 'STAKEHOLDER'
               WHEN u.`is_member` THEN 'MEMBER' ELSE 'NON_MEMBER' END
     FROM `bookings` b JOIN `users` u ON u.`id` = b.`user_id`
    WHERE b.`id` = `payments`.`booking_id`),
  'NON_MEMBER')
WHERE `amount` > 0;
--> statement-breakpoint
UPDATE `payments` SET `customer_type` = coalesce(
  (SELECT c.`customer_type` FROM `payments` c
    WHERE c.`booking_id` = `payments`.`booking_id` AND c.`amount` > 0
    ORDER BY c.`payment_date`, c.`id` LIMIT 1),
  (SELECT CASE WHEN lower(b.`stakeholder`) = 'yes' THEN 'STAKEHOLDER'
               WHEN u.`is_member` THEN 'MEMBER' ELSE 'NON_MEMBER' END
     FROM `bookings` b JOIN `users` u ON u.`id` = b.`user_id`
    WHERE b.`id` = `payments`.`booking_id`),
  'NON_MEMBER')
WHERE `amount` < 0;
--> statement-breakpoint
-- The blocks: 1, 16, 256, 4096 and 65536 UTC hours, aligned to the epoch (floored, so an
-- instant before 1970 lands in the block that contains it).
INSERT INTO `sales_rollup` (`level`, `bucket_start`, `stakeholder`, `member`, `non_member`, `payments`)
SELECT l.`level`, p.`payment_date` - (((p.`payment_date` % l.`size`) + l.`size`) % l.`size`) AS `bucket`,
  sum(CASE p.`customer_type` WHEN 'STAKEHOLDER' THEN p.`amount` ELSE 0 END),
  sum(CASE p.`customer_type` WHEN 'MEMBER' THEN p.`amount` ELSE 0 END),
  sum(CASE WHEN p.`customer_type` IN ('STAKEHOLDER', 'MEMBER') THEN 0 ELSE p.`amount` END),
  count(*)
FROM `payments` p,
  (SELECT 0 AS `level`, 3600000 AS `size` UNION ALL SELECT 1, 57600000
   UNION ALL SELECT 2, 921600000 UNION ALL SELECT 3, 14745600000
   UNION ALL SELECT 4, 235929600000) l
WHERE true
GROUP BY l.`level`, `bucket`;
--> statement-breakpoint
CREATE TRIGGER `payments_sales_insert` AFTER INSERT ON `payments`
BEGIN
  UPDATE `payments` SET `customer_type` = coalesce(
    CASE WHEN NEW.`amount` < 0 THEN
      (SELECT c.`customer_type` FROM `payments` c
        WHERE c.`booking_id` = NEW.`booking_id` AND c.`amount` > 0 AND c.`id` <> NEW.`id`
          AND c.`customer_type` IS NOT NULL
        ORDER BY c.`payment_date`, c.`id` LIMIT 1)
    END,
    (SELECT CASE WHEN lower(b.`stakeholder`) = 'yes' THEN 'STAKEHOLDER'
                 WHEN u.`is_member` THEN 'MEMBER' ELSE 'NON_MEMBER' END
       FROM `bookings` b JOIN `users` u ON u.`id` = b.`user_id`
      WHERE b.`id` = NEW.`booking_id`),
    'NON_MEMBER')
  WHERE `id` = NEW.`id` AND `customer_type` IS NULL;
  INSERT INTO `sales_rollup` (`level`, `bucket_start`, `stakeholder`, `member`, `non_member`, `payments`)
  SELECT l.`level`, NEW.`payment_date` - (((NEW.`payment_date` % l.`size`) + l.`size`) % l.`size`),
    CASE p.`customer_type` WHEN 'STAKEHOLDER' THEN NEW.`amount` ELSE 0 END,
    CASE p.`customer_type` WHEN 'MEMBER' THEN NEW.`amount` ELSE 0 END,
    CASE WHEN p.`customer_type` IN ('STAKEHOLDER', 'MEMBER') THEN 0 ELSE NEW.`amount` END,
    1
  FROM `payments` p,
    (SELECT 0 AS `level`, 3600000 AS `size` UNION ALL SELECT 1, 57600000
     UNION ALL SELECT 2, 921600000 UNION ALL SELECT 3, 14745600000
     UNION ALL SELECT 4, 235929600000) l
  WHERE p.`id` = NEW.`id`
  ON CONFLICT (`level`, `bucket_start`) DO UPDATE SET
    `stakeholder` = `stakeholder` + excluded.`stakeholder`,
    `member` = `member` + excluded.`member`,
    `non_member` = `non_member` + excluded.`non_member`,
    `payments` = `payments` + excluded.`payments`;
END;
--> statement-breakpoint
-- Set once, never cleared: the update trigger below takes a NULL type for the insert
-- trigger's own classification, which the insert trigger has already counted.
CREATE TRIGGER `payments_customer_type_kept` BEFORE UPDATE OF `customer_type` ON `payments`
WHEN OLD.`customer_type` IS NOT NULL AND NEW.`customer_type` IS NULL
BEGIN
  SELECT RAISE(ABORT, 'payments.customer_type cannot be cleared');
END;
--> statement-breakpoint
CREATE TRIGGER `payments_sales_update` AFTER UPDATE OF `amount`, `payment_date`, `customer_type` ON `payments`
WHEN OLD.`customer_type` IS NOT NULL
BEGIN
  UPDATE `sales_rollup` SET
    `stakeholder` = `stakeholder` - CASE OLD.`customer_type` WHEN 'STAKEHOLDER' THEN OLD.`amount` ELSE 0 END,
    `member` = `member` - CASE OLD.`customer_type` WHEN 'MEMBER' THEN OLD.`amount` ELSE 0 END,
    `non_member` = `non_member` - CASE WHEN OLD.`customer_type` IN ('STAKEHOLDER', 'MEMBER') THEN 0 ELSE OLD.`amount` END,
    `payments` = `payments` - 1
  WHERE (`level`, `bucket_start`) IN (
    SELECT l.`level`, OLD.`payment_date` - (((OLD.`payment_date` % l.`size`) + l.`size`) % l.`size`)
    FROM (SELECT 0 AS `level`, 3600000 AS `size` UNION ALL SELECT 1, 57600000
          UNION ALL SELECT 2, 921600000 UNION ALL SELECT 3, 14745600000
          UNION ALL SELECT 4, 235929600000) l);
  INSERT INTO `sales_rollup` (`level`, `bucket_start`, `stakeholder`, `member`, `non_member`, `payments`)
  SELECT l.`level`, NEW.`payment_date` - (((NEW.`payment_date` % l.`size`) + l.`size`) % l.`size`),
    CASE NEW.`customer_type` WHEN 'STAKEHOLDER' THEN NEW.`amount` ELSE 0 END,
    CASE NEW.`customer_type` WHEN 'MEMBER' THEN NEW.`amount` ELSE 0 END,
    CASE WHEN NEW.`customer_type` IN ('STAKEHOLDER', 'MEMBER') THEN 0 ELSE NEW.`amount` END,
    1
  FROM (SELECT 0 AS `level`, 3600000 AS `size` UNION ALL SELECT 1, 57600000
        UNION ALL SELECT 2, 921600000 UNION ALL SELECT 3, 14745600000
        UNION ALL SELECT 4, 235929600000) l
  WHERE true
  ON CONFLICT (`level`, `bucket_start`) DO UPDATE SET
    `stakeholder` = `stakeholder` + excluded.`stakeholder`,
    `member` = `member` + excluded.`member`,
    `non_member` = `non_member` + excluded.`non_member`,
    `payments` = `payments` + excluded.`payments`;
END;
--> statement-breakpoint
CREATE TRIGGER `payments_sales_delete` AFTER DELETE ON `payments`
BEGIN
  UPDATE `sales_rollup` SET
    `stakeholder` = `stakeholder` - CASE OLD.`customer_type` WHEN 'STAKEHOLDER' THEN OLD.`amount` ELSE 0 END,
    `member` = `member` - CASE OLD.`customer_type` WHEN 'MEMBER' THEN OLD.`amount` ELSE 0 END,
    `non_member` = `non_member` - CASE WHEN OLD.`customer_type` IN ('STAKEHOLDER', 'MEMBER') THEN 0 ELSE OLD.`amount` END,
    `payments` = `payments` - 1
  WHERE (`level`, `bucket_start`) IN (
    SELECT l.`level`, OLD.`payment_date` - (((OLD.`payment_date` % l.`size`) + l.`size`) % l.`size`)
    FROM (SELECT 0 AS `level`, 3600000 AS `size` UNION ALL SELECT 1, 57600000
          UNION ALL SELECT 2, 921600000 UNION ALL SELECT 3, 14745600000
          UNION ALL SELECT 4, 235929600000) l);
END;
