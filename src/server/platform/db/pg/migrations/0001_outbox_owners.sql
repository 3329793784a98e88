ALTER TABLE "ledger_outbox" ADD COLUMN "owner" text;--> statement-breakpoint
ALTER TABLE "ledger_outbox" ADD COLUMN "owner_id" text;--> statement-breakpoint
ALTER TABLE "ledger_outbox" ADD COLUMN "delivered_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "ledger_outbox_owner" ON "ledger_outbox" USING btree ("owner","owner_id");--> statement-breakpoint
CREATE INDEX "ledger_outbox_undelivered" ON "ledger_outbox" USING btree ("status") WHERE "ledger_outbox"."delivered_at" IS NULL AND "ledger_outbox"."owner" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "nft_purchases_refund" ON "nft_purchases" USING btree ("refund_key");