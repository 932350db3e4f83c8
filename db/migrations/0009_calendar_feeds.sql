CREATE TABLE `calendar_feeds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`token` text NOT NULL,
	`etag` text,
	`modified_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "calendar_feeds_kind" CHECK("calendar_feeds"."kind" IN ('CUSTOMER', 'STUDIO'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_feeds_token` ON `calendar_feeds` (`token`);--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_feeds_user_kind` ON `calendar_feeds` (`user_id`,`kind`);