CREATE TABLE `booking_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`booking_id` integer NOT NULL,
	`name` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`storage_key` text NOT NULL,
	`sha256` text,
	`uploaded_by` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`delivered_at` integer,
	`expires_at` integer,
	`expiry_reminder_sent_at` integer,
	`deleted_at` integer,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`uploaded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "booking_files_size" CHECK("booking_files"."size" >= 0)
);
--> statement-breakpoint
CREATE INDEX `booking_files_booking` ON `booking_files` (`booking_id`);--> statement-breakpoint
CREATE INDEX `booking_files_expires` ON `booking_files` (`expires_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `booking_files_storage_key` ON `booking_files` (`storage_key`);--> statement-breakpoint
CREATE TABLE `receipts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`payment_id` integer NOT NULL,
	`kind` text NOT NULL,
	`year` integer NOT NULL,
	`number` integer NOT NULL,
	`issued_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`details` text NOT NULL,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "receipts_kind" CHECK("receipts"."kind" IN ('RECEIPT', 'CREDIT_NOTE')),
	CONSTRAINT "receipts_number_positive" CHECK("receipts"."number" >= 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `receipts_payment` ON `receipts` (`payment_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `receipts_number` ON `receipts` (`kind`,`year`,`number`);