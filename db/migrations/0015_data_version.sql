CREATE TABLE `data_version` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	CONSTRAINT "data_version_one_row" CHECK(id = 1)
);
