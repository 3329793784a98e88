CREATE TABLE `payout_actions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`outbox_key` text NOT NULL,
	`action` text NOT NULL,
	`admin` text NOT NULL,
	`note` text,
	`next_key` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `payout_actions_key` ON `payout_actions` (`outbox_key`);--> statement-breakpoint
ALTER TABLE `nft_purchases` ADD `client_ip` text;--> statement-breakpoint
CREATE INDEX `nft_purchases_client_ip` ON `nft_purchases` (`client_ip`,`status`);