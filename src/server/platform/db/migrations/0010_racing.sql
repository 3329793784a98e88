CREATE TABLE `racing_races` (
	`round` integer PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`server_seed` text NOT NULL,
	`server_seed_hash` text NOT NULL,
	`close_ledger` integer,
	`seed_ledger` integer,
	`client_seed` text,
	`multiple_hundredths` integer NOT NULL,
	`countdown_at` integer NOT NULL,
	`bets_close_at` integer NOT NULL,
	`starts_at` integer NOT NULL,
	`started_at` integer,
	`ends_at` integer,
	`finished_at` integer,
	`winner_index` integer
);
