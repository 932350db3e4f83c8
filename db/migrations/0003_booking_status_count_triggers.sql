-- Custom SQL migration file, put your code below! --
-- booking_status_counts follows every insert, status change and delete of a booking, in the
-- same transaction, so the admin dashboard never counts the whole bookings table.
INSERT INTO `booking_status_counts` (`status`, `total`)
SELECT `status`, count(*) FROM `bookings` GROUP BY `status`;
--> statement-breakpoint
CREATE TRIGGER `bookings_count_insert` AFTER INSERT ON `bookings`
BEGIN
  INSERT INTO `booking_status_counts` (`status`, `total`) VALUES (NEW.`status`, 1)
  ON CONFLICT (`status`) DO UPDATE SET `total` = `total` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `bookings_count_status` AFTER UPDATE OF `status` ON `bookings`
WHEN NEW.`status` IS NOT OLD.`status`
BEGIN
  UPDATE `booking_status_counts` SET `total` = `total` - 1 WHERE `status` = OLD.`status`;
  INSERT INTO `booking_status_counts` (`status`, `total`) VALUES (NEW.`status`, 1)
  ON CONFLICT (`status`) DO UPDATE SET `total` = `total` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `bookings_count_delete` AFTER DELETE ON `bookings`
BEGIN
  UPDATE `booking_status_counts` SET `total` = `total` - 1 WHERE `status` = OLD.`status`;
END;
