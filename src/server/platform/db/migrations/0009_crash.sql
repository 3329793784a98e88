CREATE TABLE `crash_burns` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`round` integer NOT NULL,
	`bets_drops` integer NOT NULL,
	`xrp_drops` integer NOT NULL,
	`outbox_key` text NOT NULL,
	`status` text NOT NULL,
	`txid` text,
	`vvx_burned_micro` integer,
	`xrp_spent_drops` integer,
	`created_at` integer NOT NULL,
	`settled_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `crash_burns_round` ON `crash_burns` (`round`);--> statement-breakpoint
CREATE TABLE `crash_chains` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`seed_hash` text NOT NULL,
	`length` integer NOT NULL,
	`terminating_hash` text NOT NULL,
	`salt` text NOT NULL,
	`first_round` integer NOT NULL,
	`created_at` integer NOT NULL
);
