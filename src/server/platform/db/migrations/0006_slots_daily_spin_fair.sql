CREATE TABLE `fair_revealed_seeds` (
	`server_seed_hash` text PRIMARY KEY NOT NULL,
	`server_seed` text NOT NULL,
	`wallet` text NOT NULL,
	`nonces_used` integer NOT NULL,
	`created_at` integer NOT NULL,
	`revealed_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `fair_revealed_seeds_wallet` ON `fair_revealed_seeds` (`wallet`,`revealed_at`);--> statement-breakpoint
CREATE TABLE `fair_seeds` (
	`wallet` text PRIMARY KEY NOT NULL,
	`server_seed` text NOT NULL,
	`server_seed_hash` text NOT NULL,
	`client_seed` text NOT NULL,
	`next_nonce` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `daily_spins` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`wallet` text NOT NULL,
	`utc_day` integer NOT NULL,
	`position` integer NOT NULL,
	`prize_type` text NOT NULL,
	`prize_amount` integer NOT NULL,
	`prize_label` text NOT NULL,
	`streak` integer NOT NULL,
	`server_seed_hash` text NOT NULL,
	`client_seed` text NOT NULL,
	`nonce` integer NOT NULL,
	`slot_session_id` text,
	`credited_to` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `daily_spins_wallet_day` ON `daily_spins` (`wallet`,`utc_day`);--> statement-breakpoint
CREATE INDEX `daily_spins_wallet` ON `daily_spins` (`wallet`,`id`);--> statement-breakpoint
CREATE TABLE `slot_payouts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`wallet` text NOT NULL,
	`amount_micro` integer NOT NULL,
	`spin_count` integer NOT NULL,
	`attempt` integer NOT NULL,
	`outbox_key` text NOT NULL,
	`status` text NOT NULL,
	`txid` text,
	`error` text,
	`retry_at` integer,
	`created_at` integer NOT NULL,
	`settled_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `slot_payouts_key` ON `slot_payouts` (`outbox_key`);--> statement-breakpoint
CREATE INDEX `slot_payouts_wallet` ON `slot_payouts` (`wallet`,`id`);--> statement-breakpoint
CREATE INDEX `slot_payouts_status` ON `slot_payouts` (`status`);--> statement-breakpoint
CREATE TABLE `slot_purchases` (
	`id` text PRIMARY KEY NOT NULL,
	`wallet` text NOT NULL,
	`package_index` integer NOT NULL,
	`amount_micro` integer NOT NULL,
	`payment_request_id` integer NOT NULL,
	`destination_tag` integer NOT NULL,
	`sign_uuid` text,
	`sign_json` text,
	`status` text NOT NULL,
	`reason` text,
	`session_id` text,
	`payment_tx_hash` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`paid_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `slot_purchases_sign_uuid` ON `slot_purchases` (`sign_uuid`);--> statement-breakpoint
CREATE UNIQUE INDEX `slot_purchases_request` ON `slot_purchases` (`payment_request_id`);--> statement-breakpoint
CREATE INDEX `slot_purchases_wallet` ON `slot_purchases` (`wallet`,`created_at`);--> statement-breakpoint
CREATE TABLE `slot_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`wallet` text NOT NULL,
	`kind` text NOT NULL,
	`package_index` integer,
	`spin_cost_micro` integer NOT NULL,
	`total_spins` integer NOT NULL,
	`remaining_spins` integer NOT NULL,
	`paid_spins` integer NOT NULL,
	`bonus_spins` integer NOT NULL,
	`total_payout_micro` integer NOT NULL,
	`paid_micro` integer NOT NULL,
	`status` text NOT NULL,
	`purchase_id` text,
	`created_at` integer NOT NULL,
	`last_activity_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`ended_at` integer,
	`refund_key` text,
	`refund_micro` integer
);
--> statement-breakpoint
CREATE INDEX `slot_sessions_wallet` ON `slot_sessions` (`wallet`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `slot_sessions_expiry` ON `slot_sessions` (`status`,`expires_at`);--> statement-breakpoint
CREATE TABLE `slot_spins` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`session_id` text NOT NULL,
	`wallet` text NOT NULL,
	`server_seed_hash` text NOT NULL,
	`client_seed` text NOT NULL,
	`nonce` integer NOT NULL,
	`reels` text NOT NULL,
	`win_type` text NOT NULL,
	`multiple_hundredths` integer NOT NULL,
	`mystery_multiple` integer NOT NULL,
	`spin_cost_micro` integer NOT NULL,
	`win_micro` integer NOT NULL,
	`partial_micro` integer NOT NULL,
	`total_payout_micro` integer NOT NULL,
	`payout_id` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `slot_spins_wallet` ON `slot_spins` (`wallet`,`id`);--> statement-breakpoint
CREATE INDEX `slot_spins_payout` ON `slot_spins` (`payout_id`);