CREATE TABLE `run_journals` (
	`journal` text PRIMARY KEY NOT NULL,
	`committed_batch` integer NOT NULL
);
