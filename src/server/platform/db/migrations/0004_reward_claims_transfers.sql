CREATE TABLE `nft_transfers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_id` text NOT NULL,
	`from_wallet` text NOT NULL,
	`to_wallet` text NOT NULL,
	`sign_uuid` text NOT NULL,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `nft_transfers_sign_uuid` ON `nft_transfers` (`sign_uuid`);--> statement-breakpoint
CREATE INDEX `nft_transfers_to` ON `nft_transfers` (`to_wallet`,`status`);--> statement-breakpoint
CREATE INDEX `nft_transfers_token` ON `nft_transfers` (`token_id`);--> statement-breakpoint
CREATE TABLE `reward_claims` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_id` text NOT NULL,
	`seq` integer NOT NULL,
	`wallet` text NOT NULL,
	`tier_id` integer NOT NULL,
	`claim_type` text NOT NULL,
	`base_micro_vvx` integer NOT NULL,
	`amount_micro_vvx` integer NOT NULL,
	`forfeited_micro_vvx` integer NOT NULL,
	`status` text NOT NULL,
	`outbox_key` text NOT NULL,
	`txid` text,
	`error` text,
	`claimed_at` integer NOT NULL,
	`settled_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reward_claims_token_seq` ON `reward_claims` (`token_id`,`seq`);--> statement-breakpoint
CREATE UNIQUE INDEX `reward_claims_outbox_key` ON `reward_claims` (`outbox_key`);--> statement-breakpoint
CREATE INDEX `reward_claims_wallet` ON `reward_claims` (`wallet`,`claimed_at`);--> statement-breakpoint
CREATE INDEX `reward_claims_status` ON `reward_claims` (`status`);--> statement-breakpoint
DROP TABLE `reward_payouts`;