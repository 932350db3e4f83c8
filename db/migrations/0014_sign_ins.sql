-- "Session" names a recording session only: the sign-in table is renamed in place (its rows,
-- and so everyone's sign-in, stay), not rebuilt as drizzle-kit proposed for the foreign key's new name.
ALTER TABLE `sessions` RENAME TO `sign_ins`;--> statement-breakpoint
DROP INDEX `sessions_user_id`;--> statement-breakpoint
DROP INDEX `sessions_expires_at`;--> statement-breakpoint
CREATE INDEX `sign_ins_user_id` ON `sign_ins` (`user_id`);--> statement-breakpoint
CREATE INDEX `sign_ins_expires_at` ON `sign_ins` (`expires_at`);
