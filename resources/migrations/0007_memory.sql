CREATE TABLE `memory_entries` (
	`id` integer PRIMARY KEY NOT NULL,
	`flow_id` text NOT NULL,
	`channel` text NOT NULL,
	`payload` text NOT NULL,
	`run_id` text NOT NULL,
	`node_id` text NOT NULL,
	`flow_version` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`flow_id`) REFERENCES `flows`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `memory_flow_channel` ON `memory_entries` (`flow_id`,`channel`,`id`);--> statement-breakpoint
ALTER TABLE `flows` ADD `memory` text DEFAULT '{"channels":[]}' NOT NULL;