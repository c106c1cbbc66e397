ALTER TABLE `flows` ADD `tests` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `flows` ADD `tests_gate_publish` integer DEFAULT false NOT NULL;