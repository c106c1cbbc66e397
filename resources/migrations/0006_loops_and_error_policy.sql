PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_run_steps` (
	`run_id` text NOT NULL,
	`node_id` text NOT NULL,
	`iteration` integer DEFAULT 1 NOT NULL,
	`seq` integer NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`input` text,
	`output` text,
	`error_code` text,
	`error_message` text,
	`usage` text,
	`messages` text,
	`retries` text,
	`tool_calls` text,
	`child_run_id` text,
	`started_at` integer,
	`finished_at` integer,
	PRIMARY KEY(`run_id`, `node_id`, `iteration`),
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_run_steps`("run_id", "node_id", "iteration", "seq", "status", "attempts", "input", "output", "error_code", "error_message", "usage", "messages", "retries", "tool_calls", "child_run_id", "started_at", "finished_at") SELECT "run_id", "node_id", 1, "seq", "status", "attempts", "input", "output", "error_code", "error_message", "usage", "messages", "retries", "tool_calls", "child_run_id", "started_at", "finished_at" FROM `run_steps`;--> statement-breakpoint
DROP TABLE `run_steps`;--> statement-breakpoint
ALTER TABLE `__new_run_steps` RENAME TO `run_steps`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
ALTER TABLE `edges` ADD `loop_max_iterations` integer;--> statement-breakpoint
ALTER TABLE `nodes` ADD `on_error` text;