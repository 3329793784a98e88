CREATE TABLE `reward_distributions` (
	`month` text PRIMARY KEY NOT NULL,
	`ends_at` integer NOT NULL,
	`status` text NOT NULL,
	`nfts_paid` integer NOT NULL,
	`paid_micro_vvx` integer NOT NULL,
	`nfts_skipped` integer NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer
);
--> statement-breakpoint
ALTER TABLE `nft_transfers` ADD `txid` text;--> statement-breakpoint
ALTER TABLE `nft_transfers` ADD `accepted_at` integer;--> statement-breakpoint
CREATE INDEX `nft_transfers_from` ON `nft_transfers` (`from_wallet`,`created_at`);--> statement-breakpoint
ALTER TABLE `reward_claims` ADD `period` text;--> statement-breakpoint
CREATE UNIQUE INDEX `reward_claims_token_period` ON `reward_claims` (`token_id`,`period`);