DROP INDEX `runs_status`;--> statement-breakpoint
CREATE INDEX `runs_running` ON `runs` (`status`) WHERE "runs"."status" = 'running';