-- Calendar feed tokens are kept as a SHA-256 (looked up by) and sealed (shown again), never as
-- they are. SQLite has neither, so the rows move over holding the token in both columns and the
-- site's start (app/db.server.ts protectSecretsAtRest) hashes and seals them: a value not in its
-- stored format is from before this migration. Session ids and TOTP secrets are converted there too.
CREATE TABLE `__new_calendar_feeds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`token_hash` text NOT NULL,
	`token_sealed` text NOT NULL,
	`etag` text,
	`modified_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "calendar_feeds_kind" CHECK("kind" IN ('CUSTOMER', 'STUDIO'))
);
--> statement-breakpoint
INSERT INTO `__new_calendar_feeds`("id", "user_id", "kind", "token_hash", "token_sealed", "etag", "modified_at", "created_at") SELECT "id", "user_id", "kind", "token", "token", "etag", "modified_at", "created_at" FROM `calendar_feeds`;--> statement-breakpoint
DROP TABLE `calendar_feeds`;--> statement-breakpoint
ALTER TABLE `__new_calendar_feeds` RENAME TO `calendar_feeds`;--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_feeds_token_hash` ON `calendar_feeds` (`token_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_feeds_user_kind` ON `calendar_feeds` (`user_id`,`kind`);
