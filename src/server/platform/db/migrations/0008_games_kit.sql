CREATE TABLE `game_bets` (
	`id` text PRIMARY KEY NOT NULL,
	`game` text NOT NULL,
	`wallet` text NOT NULL,
	`amount_drops` integer NOT NULL,
	`params_json` text DEFAULT '{}' NOT NULL,
	`payment_request_id` integer NOT NULL,
	`destination_tag` integer NOT NULL,
	`sign_uuid` text,
	`status` text NOT NULL,
	`round` integer,
	`reason` text,
	`payment_tx_hash` text,
	`multiplier_hundredths` integer,
	`payout_drops` integer,
	`outbox_key` text,
	`txid` text,
	`created_at` integer NOT NULL,
	`confirmed_at` integer,
	`settled_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `game_bets_request` ON `game_bets` (`payment_request_id`);--> statement-breakpoint
CREATE INDEX `game_bets_round` ON `game_bets` (`game`,`round`);--> statement-breakpoint
CREATE INDEX `game_bets_wallet` ON `game_bets` (`wallet`,`created_at`);--> statement-breakpoint
CREATE INDEX `game_bets_status` ON `game_bets` (`game`,`status`);--> statement-breakpoint
CREATE INDEX `game_bets_sign` ON `game_bets` (`sign_uuid`);--> statement-breakpoint
CREATE TABLE `game_rounds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`game` text NOT NULL,
	`round` integer NOT NULL,
	`status` text NOT NULL,
	`detail_json` text DEFAULT '{}' NOT NULL,
	`opened_at` integer NOT NULL,
	`started_at` integer,
	`ended_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `game_rounds_game_round` ON `game_rounds` (`game`,`round`);--> statement-breakpoint
CREATE INDEX `game_rounds_status` ON `game_rounds` (`game`,`status`);