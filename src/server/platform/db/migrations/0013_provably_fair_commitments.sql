CREATE TABLE `crash_chain_commitments` (
	`chain_id` integer PRIMARY KEY NOT NULL,
	`outbox_key` text NOT NULL,
	`tx_hash` text,
	`ledger_index` integer,
	`salt_ledger_index` integer,
	`committed_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `crash_chain_commitments_outbox` ON `crash_chain_commitments` (`outbox_key`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_crash_chains` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`seed_hash` text NOT NULL,
	`length` integer NOT NULL,
	`terminating_hash` text NOT NULL,
	`salt` text,
	`first_round` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_crash_chains`("id", "seed_hash", "length", "terminating_hash", "salt", "first_round", "created_at") SELECT "id", "seed_hash", "length", "terminating_hash", "salt", "first_round", "created_at" FROM `crash_chains`;--> statement-breakpoint
DROP TABLE `crash_chains`;--> statement-breakpoint
ALTER TABLE `__new_crash_chains` RENAME TO `crash_chains`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
-- A pair's current server seed was committed when the pair was made, or at its last rotation.
ALTER TABLE `fair_seeds` ADD `committed_at` integer NOT NULL DEFAULT 0;--> statement-breakpoint
UPDATE `fair_seeds` SET `committed_at` = coalesce((SELECT max(r.`revealed_at`) FROM `fair_revealed_seeds` r WHERE r.`wallet` = `fair_seeds`.`wallet`), `created_at`);--> statement-breakpoint
-- A revealed seed was committed at the rotation before it (its pair's creation for the first): it was recorded as the pair's creation.
UPDATE `fair_revealed_seeds` SET `created_at` = coalesce((SELECT max(r.`revealed_at`) FROM `fair_revealed_seeds` r WHERE r.`wallet` = `fair_revealed_seeds`.`wallet` AND r.`revealed_at` < `fair_revealed_seeds`.`revealed_at`), `created_at`);--> statement-breakpoint
CREATE INDEX `fair_seeds_hash` ON `fair_seeds` (`server_seed_hash`);--> statement-breakpoint
ALTER TABLE `racing_races` ADD `commit_ledger` integer;