CREATE TABLE `swaps` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`wallet` text NOT NULL,
	`uuid` text,
	`status` text NOT NULL,
	`via_xapp` integer DEFAULT false NOT NULL,
	`send_max_drops` integer NOT NULL,
	`quoted_micro_vvx` integer NOT NULL,
	`minimum_micro_vvx` integer NOT NULL,
	`quoted_vvx` text NOT NULL,
	`pool_drops` integer NOT NULL,
	`pool_vvx` text NOT NULL,
	`trading_fee` integer NOT NULL,
	`quote_ledger` integer NOT NULL,
	`txid` text,
	`result` text,
	`delivered_micro_vvx` integer,
	`delivered_vvx` text,
	`spent_drops` integer,
	`fee_drops` integer,
	`ledger_index` integer,
	`reason` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`signed_at` integer,
	`settled_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `swaps_uuid` ON `swaps` (`uuid`);--> statement-breakpoint
CREATE INDEX `swaps_wallet` ON `swaps` (`wallet`,`status`);--> statement-breakpoint
CREATE INDEX `swaps_status` ON `swaps` (`status`);