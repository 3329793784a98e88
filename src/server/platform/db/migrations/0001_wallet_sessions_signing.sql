CREATE TABLE `oauth_sign_ins` (
	`uuid` text PRIMARY KEY NOT NULL,
	`state_hash` text NOT NULL,
	`client_hash` text NOT NULL,
	`code_verifier` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`wallet` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `oauth_sign_ins_state_hash_unique` ON `oauth_sign_ins` (`state_hash`);--> statement-breakpoint
CREATE TABLE `sandbox_xumm_oauth_codes` (
	`payload_uuid` text PRIMARY KEY NOT NULL,
	`client_id` text NOT NULL,
	`redirect_uri` text NOT NULL,
	`state` text,
	`code_challenge` text,
	`code_hash` text,
	`account` text,
	`created_at` integer NOT NULL,
	`code_expires_at` integer,
	`used_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sandbox_xumm_oauth_codes_code_hash_unique` ON `sandbox_xumm_oauth_codes` (`code_hash`);--> statement-breakpoint
CREATE TABLE `sandbox_xumm_payloads` (
	`uuid` text PRIMARY KEY NOT NULL,
	`tx_type` text NOT NULL,
	`request_json` text NOT NULL,
	`options` text NOT NULL,
	`custom_meta` text NOT NULL,
	`state` text NOT NULL,
	`pushed_to` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`opened_at` integer,
	`resolved_at` integer,
	`account` text,
	`signer_pubkey` text,
	`hex` text,
	`txid` text,
	`dispatched_to` text,
	`dispatched_result` text,
	`issued_user_token` text
);
--> statement-breakpoint
CREATE INDEX `sandbox_xumm_payloads_state` ON `sandbox_xumm_payloads` (`state`,`expires_at`);--> statement-breakpoint
CREATE TABLE `sandbox_xumm_user_tokens` (
	`token` text PRIMARY KEY NOT NULL,
	`account` text NOT NULL,
	`issued_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sandbox_xumm_user_tokens_account` ON `sandbox_xumm_user_tokens` (`account`);--> statement-breakpoint
CREATE TABLE `sign_requests` (
	`uuid` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`client_hash` text,
	`wallet` text,
	`reference` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`session_issued_at` integer,
	`signed_account` text
);
--> statement-breakpoint
CREATE INDEX `sign_requests_wallet` ON `sign_requests` (`wallet`);--> statement-breakpoint
CREATE INDEX `sign_requests_reference` ON `sign_requests` (`reference`);--> statement-breakpoint
CREATE TABLE `wallet_sessions` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`wallet` text NOT NULL,
	`source` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `wallet_sessions_wallet` ON `wallet_sessions` (`wallet`);--> statement-breakpoint
CREATE INDEX `wallet_sessions_expires` ON `wallet_sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `wallet_settings` (
	`wallet` text PRIMARY KEY NOT NULL,
	`push_to_sign_enabled` integer DEFAULT false NOT NULL,
	`xumm_user_token` text,
	`updated_at` integer NOT NULL
);
