ALTER TABLE `ledger_outbox` ADD `owner` text;--> statement-breakpoint
ALTER TABLE `ledger_outbox` ADD `owner_id` text;--> statement-breakpoint
ALTER TABLE `ledger_outbox` ADD `delivered_at` integer;--> statement-breakpoint
CREATE INDEX `ledger_outbox_owner` ON `ledger_outbox` (`owner`,`owner_id`);--> statement-breakpoint
CREATE INDEX `ledger_outbox_undelivered` ON `ledger_outbox` (`status`) WHERE "ledger_outbox"."delivered_at" IS NULL AND "ledger_outbox"."owner" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `nft_purchases_refund` ON `nft_purchases` (`refund_key`);--> statement-breakpoint
-- Each entry a payer's row points at gets that payer as its owner; the watcher's refunds first (a bet may point at one too).
UPDATE `ledger_outbox` SET `owner` = 'payment-refund', `owner_id` = (SELECT CAST(p.`id` AS TEXT) FROM `incoming_payments` p WHERE p.`refund_key` = `ledger_outbox`.`key`)
  WHERE `owner` IS NULL AND `key` IN (SELECT `refund_key` FROM `incoming_payments` WHERE `refund_key` IS NOT NULL);--> statement-breakpoint
UPDATE `ledger_outbox` SET `owner` = (SELECT b.`game` || '-bet' FROM `game_bets` b WHERE b.`outbox_key` = `ledger_outbox`.`key`), `owner_id` = (SELECT b.`id` FROM `game_bets` b WHERE b.`outbox_key` = `ledger_outbox`.`key`)
  WHERE `owner` IS NULL AND `key` IN (SELECT `outbox_key` FROM `game_bets` WHERE `outbox_key` IS NOT NULL);--> statement-breakpoint
UPDATE `ledger_outbox` SET `owner` = 'slots-payout', `owner_id` = (SELECT CAST(s.`id` AS TEXT) FROM `slot_payouts` s WHERE s.`outbox_key` = `ledger_outbox`.`key`)
  WHERE `owner` IS NULL AND `key` IN (SELECT `outbox_key` FROM `slot_payouts`);--> statement-breakpoint
UPDATE `ledger_outbox` SET `owner` = 'slots-session', `owner_id` = (SELECT s.`id` FROM `slot_sessions` s WHERE s.`refund_key` = `ledger_outbox`.`key`)
  WHERE `owner` IS NULL AND `key` IN (SELECT `refund_key` FROM `slot_sessions` WHERE `refund_key` IS NOT NULL);--> statement-breakpoint
UPDATE `ledger_outbox` SET `owner` = 'nft-purchase', `owner_id` = (SELECT CAST(p.`id` AS TEXT) FROM `nft_purchases` p WHERE p.`refund_key` = `ledger_outbox`.`key`)
  WHERE `owner` IS NULL AND `key` IN (SELECT `refund_key` FROM `nft_purchases` WHERE `refund_key` IS NOT NULL);--> statement-breakpoint
-- Mints and offers were found by their key, nft:<purchase id>:<step>: the id is its middle part.
UPDATE `ledger_outbox` SET `owner` = 'nft-purchase', `owner_id` = substr(`key`, 5, instr(substr(`key`, 5), ':') - 1)
  WHERE `owner` IS NULL AND `purpose` IN ('nft-mint', 'nft-offer') AND `key` LIKE 'nft:%:%';--> statement-breakpoint
UPDATE `ledger_outbox` SET `owner` = 'reward-claim', `owner_id` = (SELECT CAST(c.`id` AS TEXT) FROM `reward_claims` c WHERE c.`outbox_key` = `ledger_outbox`.`key`)
  WHERE `owner` IS NULL AND `key` IN (SELECT `outbox_key` FROM `reward_claims`);--> statement-breakpoint
UPDATE `ledger_outbox` SET `owner` = 'crash-burn', `owner_id` = (SELECT CAST(b.`id` AS TEXT) FROM `crash_burns` b WHERE b.`outbox_key` = `ledger_outbox`.`key`)
  WHERE `owner` IS NULL AND `key` IN (SELECT `outbox_key` FROM `crash_burns`);--> statement-breakpoint
UPDATE `ledger_outbox` SET `owner` = 'crash-commitment', `owner_id` = (SELECT CAST(c.`chain_id` AS TEXT) FROM `crash_chain_commitments` c WHERE c.`outbox_key` = `ledger_outbox`.`key`)
  WHERE `owner` IS NULL AND `key` IN (SELECT `outbox_key` FROM `crash_chain_commitments`);--> statement-breakpoint
-- Settlements the old release handed over already count as taken, except those each payer's start-up replay looked for.
UPDATE `ledger_outbox` SET `delivered_at` = `updated_at` WHERE `status` IN ('validated', 'failed') AND `owner` IS NOT NULL;--> statement-breakpoint
UPDATE `ledger_outbox` SET `delivered_at` = NULL WHERE `key` IN (SELECT `outbox_key` FROM `game_bets` WHERE `outbox_key` IS NOT NULL AND `txid` IS NULL);--> statement-breakpoint
UPDATE `ledger_outbox` SET `delivered_at` = NULL WHERE `key` IN (SELECT `outbox_key` FROM `slot_payouts` WHERE `status` = 'pending');--> statement-breakpoint
UPDATE `ledger_outbox` SET `delivered_at` = NULL WHERE `key` IN (SELECT `outbox_key` FROM `crash_burns` WHERE `status` = 'queued');--> statement-breakpoint
UPDATE `ledger_outbox` SET `delivered_at` = NULL WHERE `key` IN (SELECT `outbox_key` FROM `reward_claims` WHERE `status` = 'pending');--> statement-breakpoint
UPDATE `ledger_outbox` SET `delivered_at` = NULL WHERE `owner` = 'nft-purchase' AND `owner_id` IN (SELECT CAST(`id` AS TEXT) FROM `nft_purchases` WHERE `status` IN ('processing', 'creating_offer'));
