CREATE TABLE `nft_purchases` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`request_id` text NOT NULL,
	`wallet` text NOT NULL,
	`tier_id` integer NOT NULL,
	`price_micro_vvx` integer NOT NULL,
	`source` text NOT NULL,
	`status` text NOT NULL,
	`payment_request_id` integer NOT NULL,
	`destination_tag` integer NOT NULL,
	`payment_uuid` text,
	`payment_sign_json` text,
	`payment_tx_hash` text,
	`number` integer,
	`taxon` integer,
	`token_id` text,
	`offer_id` text,
	`accept_uuid` text,
	`accept_qr_url` text,
	`accept_xumm_url` text,
	`accept_expires_at` integer,
	`accept_tx_hash` text,
	`reason` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`paid_at` integer,
	`minted_at` integer,
	`offered_at` integer,
	`completed_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tier_id`) REFERENCES `nft_tiers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`payment_request_id`) REFERENCES `payment_requests`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `nft_purchases_request_id` ON `nft_purchases` (`request_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `nft_purchases_payment_request` ON `nft_purchases` (`payment_request_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `nft_purchases_tier_number` ON `nft_purchases` (`tier_id`,`number`);--> statement-breakpoint
CREATE INDEX `nft_purchases_status` ON `nft_purchases` (`status`);--> statement-breakpoint
CREATE INDEX `nft_purchases_wallet` ON `nft_purchases` (`wallet`);--> statement-breakpoint
CREATE INDEX `nft_purchases_offer` ON `nft_purchases` (`offer_id`);