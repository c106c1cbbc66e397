CREATE TABLE `edges` (
	`flow_id` text NOT NULL,
	`id` text NOT NULL,
	`ord` integer NOT NULL,
	`source` text NOT NULL,
	`source_port` text NOT NULL,
	`target` text NOT NULL,
	`target_port` text NOT NULL,
	`metadata` text,
	PRIMARY KEY(`flow_id`, `id`),
	FOREIGN KEY (`flow_id`,`source`) REFERENCES `nodes`(`flow_id`,`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`flow_id`,`target`) REFERENCES `nodes`(`flow_id`,`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `edges_flow_ord` ON `edges` (`flow_id`,`ord`);--> statement-breakpoint
CREATE INDEX `edges_flow_source` ON `edges` (`flow_id`,`source`);--> statement-breakpoint
CREATE INDEX `edges_flow_target` ON `edges` (`flow_id`,`target`);--> statement-breakpoint
CREATE TABLE `flow_versions` (
	`flow_id` text NOT NULL,
	`version` integer NOT NULL,
	`snapshot` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`flow_id`, `version`),
	FOREIGN KEY (`flow_id`) REFERENCES `flows`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `flows` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`tool_name` text NOT NULL,
	`tool_description` text DEFAULT '' NOT NULL,
	`when_to_use` text DEFAULT '' NOT NULL,
	`when_not_to_use` text DEFAULT '' NOT NULL,
	`tool_enabled` integer DEFAULT true NOT NULL,
	`tool_annotations` text NOT NULL,
	`parameters` text NOT NULL,
	`metadata` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `flows_tool_name_unique` ON `flows` (`tool_name`);--> statement-breakpoint
CREATE TABLE `nodes` (
	`flow_id` text NOT NULL,
	`id` text NOT NULL,
	`ord` integer NOT NULL,
	`type` text NOT NULL,
	`version` integer NOT NULL,
	`label` text DEFAULT '' NOT NULL,
	`x` real NOT NULL,
	`y` real NOT NULL,
	`config` text NOT NULL,
	`max_attempts` integer,
	`timeout_ms` integer,
	`metadata` text,
	`rev` integer DEFAULT 1 NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`flow_id`, `id`),
	FOREIGN KEY (`flow_id`) REFERENCES `flows`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `nodes_flow_ord` ON `nodes` (`flow_id`,`ord`);--> statement-breakpoint
CREATE TABLE `run_steps` (
	`run_id` text NOT NULL,
	`node_id` text NOT NULL,
	`seq` integer NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`input` text,
	`output` text,
	`error_code` text,
	`error_message` text,
	`usage` text,
	`messages` text,
	`started_at` integer,
	`finished_at` integer,
	PRIMARY KEY(`run_id`, `node_id`),
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `runs` (
	`id` text PRIMARY KEY NOT NULL,
	`flow_id` text NOT NULL,
	`flow_name` text NOT NULL,
	`flow_version` integer,
	`snapshot_hash` text NOT NULL,
	`inputs` text NOT NULL,
	`trigger` text NOT NULL,
	`client` text,
	`status` text NOT NULL,
	`output` text,
	`error_code` text,
	`error_message` text,
	`error_node_id` text,
	`host_pid` integer NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	`duration_ms` integer,
	FOREIGN KEY (`flow_id`) REFERENCES `flows`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`snapshot_hash`) REFERENCES `snapshots`(`hash`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `runs_flow_started` ON `runs` (`flow_id`,`started_at`);--> statement-breakpoint
CREATE INDEX `runs_status` ON `runs` (`status`);--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `snapshots` (
	`hash` text PRIMARY KEY NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL
);
