ALTER TABLE `ledger_outbox` ADD `next_key` text;--> statement-breakpoint
CREATE INDEX `ledger_outbox_resend` ON `ledger_outbox` (`status`,`next_key`);--> statement-breakpoint
ALTER TABLE `nft_purchases` ADD `refund_key` text;--> statement-breakpoint
CREATE INDEX `incoming_payments_refund` ON `incoming_payments` (`refund_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `crash_burns_outbox` ON `crash_burns` (`outbox_key`);--> statement-breakpoint
CREATE INDEX `game_bets_outbox` ON `game_bets` (`outbox_key`);--> statement-breakpoint
CREATE INDEX `slot_sessions_refund` ON `slot_sessions` (`refund_key`);--> statement-breakpoint
-- A failed purchase's refund was always under nft:<id>:refund (written with the failure).
UPDATE `nft_purchases` SET `refund_key` = 'nft:' || `id` || ':refund' WHERE `status` = 'failed';