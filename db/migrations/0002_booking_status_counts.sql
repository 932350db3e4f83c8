CREATE TABLE `booking_status_counts` (
	`status` text PRIMARY KEY NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	CONSTRAINT "booking_status_counts_status" CHECK(status IN ('PENDING_PAYMENT', 'PENDING', 'CONFIRMED', 'RECORDED', 'POST_PRODUCTION', 'COMPLETED', 'CANCELLED'))
);
