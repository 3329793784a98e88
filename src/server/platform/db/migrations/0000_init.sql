CREATE TABLE `nft_tiers` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`tier` text NOT NULL,
	`description` text NOT NULL,
	`price_micro_vvx` integer NOT NULL,
	`roi_monthly_bp` integer NOT NULL,
	`duration_months` integer NOT NULL,
	`max_supply` integer NOT NULL,
	`taxon_base` integer NOT NULL,
	`full_claim_target_micro_vvx` integer NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`is_popular` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE `nfts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_id` text NOT NULL,
	`tier_id` integer NOT NULL,
	`number` integer NOT NULL,
	`taxon` integer NOT NULL,
	`owner` text NOT NULL,
	`minted_at` integer NOT NULL,
	FOREIGN KEY (`tier_id`) REFERENCES `nft_tiers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `nfts_token_id` ON `nfts` (`token_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `nfts_tier_number` ON `nfts` (`tier_id`,`number`);--> statement-breakpoint
CREATE INDEX `nfts_owner` ON `nfts` (`owner`);--> statement-breakpoint
CREATE TABLE `reward_payouts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_id` text NOT NULL,
	`wallet` text NOT NULL,
	`claim_type` text NOT NULL,
	`amount_micro_vvx` integer NOT NULL,
	`status` text NOT NULL,
	`txid` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `reward_payouts_wallet` ON `reward_payouts` (`wallet`);--> statement-breakpoint
CREATE INDEX `reward_payouts_token` ON `reward_payouts` (`token_id`);