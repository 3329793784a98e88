CREATE TABLE `incoming_payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tx_hash` text NOT NULL,
	`ledger_index` integer NOT NULL,
	`sender` text NOT NULL,
	`destination_tag` integer,
	`currency` text NOT NULL,
	`issuer` text,
	`delivered_value` text NOT NULL,
	`delivered_amount` integer,
	`request_id` integer,
	`outcome` text NOT NULL,
	`reason` text,
	`refund_key` text,
	`closed_at` integer,
	`processed_at` integer NOT NULL,
	FOREIGN KEY (`request_id`) REFERENCES `payment_requests`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `incoming_payments_tx_hash` ON `incoming_payments` (`tx_hash`);--> statement-breakpoint
CREATE INDEX `incoming_payments_request` ON `incoming_payments` (`request_id`);--> statement-breakpoint
CREATE TABLE `ledger_cursors` (
	`account` text PRIMARY KEY NOT NULL,
	`ledger_index` integer NOT NULL,
	`closed_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `ledger_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`key` text NOT NULL,
	`purpose` text NOT NULL,
	`tx_json` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`hash` text,
	`result` text,
	`ledger_index` integer,
	`meta_json` text,
	`error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_outbox_key` ON `ledger_outbox` (`key`);--> statement-breakpoint
CREATE INDEX `ledger_outbox_status` ON `ledger_outbox` (`status`);--> statement-breakpoint
CREATE TABLE `ledger_outbox_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`outbox_id` integer NOT NULL,
	`hash` text NOT NULL,
	`tx_blob` text NOT NULL,
	`sequence` integer NOT NULL,
	`first_ledger` integer NOT NULL,
	`last_ledger_sequence` integer NOT NULL,
	`status` text NOT NULL,
	`engine_result` text,
	`result` text,
	`created_at` integer NOT NULL,
	`submitted_at` integer,
	FOREIGN KEY (`outbox_id`) REFERENCES `ledger_outbox`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_outbox_attempts_hash` ON `ledger_outbox_attempts` (`hash`);--> statement-breakpoint
CREATE INDEX `ledger_outbox_attempts_outbox` ON `ledger_outbox_attempts` (`outbox_id`);--> statement-breakpoint
CREATE TABLE `payment_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`purpose` text NOT NULL,
	`ref_id` text,
	`wallet` text,
	`currency` text NOT NULL,
	`amount` integer NOT NULL,
	`destination_tag` integer NOT NULL,
	`status` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`credited_at` integer,
	`credit_tx_hash` text,
	`payer` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_requests_tag` ON `payment_requests` (`destination_tag`);--> statement-breakpoint
CREATE INDEX `payment_requests_status` ON `payment_requests` (`status`,`expires_at`);--> statement-breakpoint
CREATE INDEX `payment_requests_ref` ON `payment_requests` (`purpose`,`ref_id`);