ALTER TABLE `memory_entries` ADD `conversation` text;--> statement-breakpoint
CREATE INDEX `memory_flow_channel_conversation` ON `memory_entries` (`flow_id`,`channel`,`conversation`,`id`);--> statement-breakpoint
ALTER TABLE `runs` ADD `conversation` text;