-- Custom SQL migration file, put your code below! --
-- data_version is bumped in the same transaction as every write to a table a visitor's page
-- reads (services, bookings, blocked times, waitlist offers), whichever process writes it.
INSERT INTO `data_version` (`id`, `version`) VALUES (1, 0);
--> statement-breakpoint
CREATE TRIGGER `services_data_version_insert` AFTER INSERT ON `services`
BEGIN
  INSERT INTO `data_version` (`id`, `version`) VALUES (1, 1)
  ON CONFLICT (`id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `services_data_version_update` AFTER UPDATE ON `services`
BEGIN
  INSERT INTO `data_version` (`id`, `version`) VALUES (1, 1)
  ON CONFLICT (`id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `services_data_version_delete` AFTER DELETE ON `services`
BEGIN
  INSERT INTO `data_version` (`id`, `version`) VALUES (1, 1)
  ON CONFLICT (`id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `bookings_data_version_insert` AFTER INSERT ON `bookings`
BEGIN
  INSERT INTO `data_version` (`id`, `version`) VALUES (1, 1)
  ON CONFLICT (`id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `bookings_data_version_update` AFTER UPDATE ON `bookings`
BEGIN
  INSERT INTO `data_version` (`id`, `version`) VALUES (1, 1)
  ON CONFLICT (`id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `bookings_data_version_delete` AFTER DELETE ON `bookings`
BEGIN
  INSERT INTO `data_version` (`id`, `version`) VALUES (1, 1)
  ON CONFLICT (`id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `blocked_times_data_version_insert` AFTER INSERT ON `blocked_times`
BEGIN
  INSERT INTO `data_version` (`id`, `version`) VALUES (1, 1)
  ON CONFLICT (`id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `blocked_times_data_version_update` AFTER UPDATE ON `blocked_times`
BEGIN
  INSERT INTO `data_version` (`id`, `version`) VALUES (1, 1)
  ON CONFLICT (`id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `blocked_times_data_version_delete` AFTER DELETE ON `blocked_times`
BEGIN
  INSERT INTO `data_version` (`id`, `version`) VALUES (1, 1)
  ON CONFLICT (`id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `waitlist_entries_data_version_insert` AFTER INSERT ON `waitlist_entries`
BEGIN
  INSERT INTO `data_version` (`id`, `version`) VALUES (1, 1)
  ON CONFLICT (`id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `waitlist_entries_data_version_update` AFTER UPDATE ON `waitlist_entries`
BEGIN
  INSERT INTO `data_version` (`id`, `version`) VALUES (1, 1)
  ON CONFLICT (`id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `waitlist_entries_data_version_delete` AFTER DELETE ON `waitlist_entries`
BEGIN
  INSERT INTO `data_version` (`id`, `version`) VALUES (1, 1)
  ON CONFLICT (`id`) DO UPDATE SET `version` = `version` + 1;
END;
