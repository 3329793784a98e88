DROP TABLE `sandbox_xumm_oauth_codes`;--> statement-breakpoint
DROP TABLE `sandbox_xumm_payloads`;--> statement-breakpoint
DROP TABLE `sandbox_xumm_user_tokens`;